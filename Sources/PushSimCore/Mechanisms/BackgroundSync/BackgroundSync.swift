// Background-push sync (recovery: background_sync): silent pushes wake the app, which fetches what it missed; launches fetch too.
//
// Nothing of it acts on the chain: the alert pushes travel as in the off arm, and whether the
// app synced at an instant depends only on the device's draws and timeline. What a sync shows
// depends on which letters the chain had shown by then, which is final once the arm ends. So
// the whole design is worked out at the end of the arm (`backgroundSyncs`), as the scheduled
// summary is: no event, no step of the chain changed, every shortcut stays valid.

/// The design's state in one arm: whether it runs, and scratch lists kept between devices.
struct BackgroundSyncState {
    var enabled = false
    /// When background pushes reach the phone, when the user launches the app and whether they
    /// force-quit it afterwards, when the app is woken: rebuilt at each arm's end.
    var arrivals: [Int64] = []
    var launches: [Int64] = []
    var quitAfter: [Bool] = []
    var wakes: [Int64] = []
}

extension DeviceWorld {
    /// Works out the arm's background syncs (docs/model.md §7, Background-push sync) and marks
    /// the letters they showed as summarized; called once, as the arm ends, before the letters
    /// are recorded.
    @inline(never) mutating func backgroundSyncs() {
        let settings = scenario.device.backgroundSync ?? BackgroundSync()
        var state = mechanisms.backgroundSync
        mechanisms.backgroundSync = BackgroundSyncState()
        defer { mechanisms.backgroundSync = state }
        state.arrivals.removeAll(keepingCapacity: true)
        state.launches.removeAll(keepingCapacity: true)
        state.quitAfter.removeAll(keepingCapacity: true)
        state.wakes.removeAll(keepingCapacity: true)
        let end = clock.end, warmup = scenario.warmup.microseconds

        backgroundPushesArrive(into: &state.arrivals)
        state.arrivals.sort()

        // Launches: the catch-up's openings, from the same stream, so the two designs see the
        // same user; after each the user may force-quit the app.
        var quit = RandomStream(seed: scenario.seed, device: armState.device, purpose: .forceQuit)
        let quitAtStart = settings.forceQuit > 0 && quit.chance(settings.forceQuit)
        if let law = scenario.device.appOpen {
            var opens = RandomStream(seed: scenario.seed, device: armState.device, purpose: .appOpens)
            var open = law.sampleResidual(&opens).microseconds
            while open < end {
                state.launches.append(open)
                state.quitAfter.append(settings.forceQuit > 0 && quit.chance(settings.forceQuit))
                open = later(open, law.sample(&opens).microseconds)
            }
        }

        let counts = BackgroundSyncPlan.wakes(arrivals: state.arrivals, launches: state.launches, quitAtStart: quitAtStart,
                                              quitAfter: state.quitAfter, spacing: settings.spacing,
                                              overThrottle: settings.overThrottle, end: end, countFrom: warmup, into: &state.wakes)
        ledger.backgroundSync.wakes += counts.wakes
        ledger.backgroundSync.held += counts.held
        ledger.backgroundSync.dropped += counts.dropped
        ledger.backgroundSync.forceQuit += counts.forceQuit

        // Every wake-up and every launch is a sync, in time order (a launch first at one instant).
        var delays = RandomStream(seed: scenario.seed, device: armState.device, purpose: .syncDelays)
        var mark = 0, w = 0, l = 0
        var cursor = 0
        while w < state.wakes.count || l < state.launches.count {
            let byLaunch = l < state.launches.count && (w == state.wakes.count || state.launches[l] <= state.wakes[w])
            let s = byLaunch ? state.launches[l] : state.wakes[w]
            if byLaunch { l += 1 } else { w += 1 }
            // Offline (a held push released while the phone is offline), the fetch cannot
            // reach the server: nothing is synced.
            guard draws.timeline.isOnline(at: s, cursor: &cursor) else {
                note(.user, nil, .syncedOffline(byLaunch: byLaunch), at: s)
                continue
            }
            if s >= warmup { ledger.backgroundSync.fetches += 1 }
            let shown = later(s, settings.delay.sample(&delays).microseconds)
            let made = CatchUp.lettersMade(by: s, from: mark, count: draws.letters.count) { draws.letters[$0].time }
            // Shown after the run's end: the user never saw them within it.
            guard shown < end else { break }
            var notShown = 0, summarizedCounted = 0
            for i in mark..<made where !(letterStates[i].delivered && letterStates[i].firstDelivery <= shown) {
                letterStates[i].summarized = true
                notShown += 1
                summarizedCounted += counted(i)
                guard counted(i) == 1 else { continue }
                if letterStates[i].delivered {
                    // Its own push came after the sync's notification: the user sees it twice.
                    ledger.backgroundSync.shownTwice += 1
                } else {
                    // Seen only through the sync: its delay is from the letter to the sync's notification.
                    ledger.backgroundSync.synced += 1
                    ledger.backgroundSync.syncedDelayMilliseconds += Int((shown - draws.letters[i].time) / SimTime.millisecond)
                }
            }
            note(.user, nil, .synced(byLaunch: byLaunch, fetched: made - mark, notShown: notShown, shownAt: SimTime(microseconds: shown)), at: s)
            mark = made
            if summarizedCounted > 0 {
                ledger.summaries += 1
                loadLog.note(.summaries, at: shown)
            }
        }
    }

    /// When each background push reaches the phone (appended, in letter order): XIVA sends one
    /// with every letter it numbers (none for a letter it dropped), at the letter's time plus a
    /// XIVA latency; APNs loses it or hands it over after an APNs latency (draws of its own
    /// stream). An offline phone's background push waits in APNs (kept apart from the alert
    /// pushes' slot, one at a time: a newer one replaces it) until the phone is back online,
    /// then is handed over after a fresh latency, unless it expired first.
    mutating func backgroundPushesArrive(into arrivals: inout [Int64]) {
        var rng = RandomStream(seed: scenario.seed, device: armState.device, purpose: .backgroundPushes)
        var cursor = 0
        // The flip at which the stored background push is handed over, and its place in
        // `arrivals` (APNs stores one at a time).
        var storedFlip = -1, storedAt = 0
        for i in 0..<draws.letters.count {
            let letter = draws.letters[i]
            if letter.dropped || letterStates[i].droppedInOutage || letterStates[i].droppedForOldToken { continue }
            // XIVA sends it with the letter (counted in the load then, as an alert push's
            // first send); it reaches APNs a XIVA latency later, and expires from there.
            let way = backgroundPushTravels(sentAt: letter.time, rng: &rng, cursor: &cursor)
            if i >= armState.firstCounted {
                ledger.backgroundSync.pushes += 1
                loadLog.note(.pushesSent, at: letter.time)
            }
            switch way {
            case .lost, .expired:
                continue
            case .arrives(let due):
                arrivals.append(due)
            case .storedUntilOnline(let flip, let handedOver):
                if storedFlip == flip {
                    // A newer push replaces the one stored for the same return online.
                    arrivals[storedAt] = handedOver
                } else {
                    storedFlip = flip
                    storedAt = arrivals.count
                    arrivals.append(handedOver)
                }
            }
        }
    }
}
