// The client catch-up (recovery: catch_up): the user opens the app, which fetches what it missed.

/// The catch-up's state in one arm.
struct CatchUpState {
    /// Whether this arm catches up when the user opens the app.
    var enabled = false
    /// The first letter the next catch-up may fetch: everything before it was shown or summarized.
    var mark = 0
}

extension DeviceWorld {
    /// The first opening, from the residual law, so the openings are in equilibrium at time 0
    /// as connectivity is (docs/model.md §7, Client catch-up).
    // Kept out of line (as userOpensApp): inlined into the world's loop, they would keep the
    // compiler from inlining the heap's pop there, in every run, catch-up or not.
    @inline(never) mutating func scheduleFirstAppOpen() {
        guard let law = scenario.device.appOpen else { return }
        let first = law.sampleResidual(&armState.streams.mechanismStreams.appOpens)
        if first.microseconds < clock.end { clock.queue.schedule(at: first.microseconds, .mechanism(.appOpen)) }
    }

    /// The user opens the app at `now`. Online, the app asks its own server for every letter
    /// made since its previous catch-up and shows one summary for those it has not shown as a
    /// notification by `now` (the extension records what it showed, in the app's shared
    /// storage): they count as summarized at `now`. Offline, the fetch cannot reach the server
    /// and nothing happens.
    @inline(never) mutating func userOpensApp(at now: Int64) {
        if let law = scenario.device.appOpen {
            let next = later(now, law.sample(&armState.streams.mechanismStreams.appOpens).microseconds)
            if next < clock.end { clock.queue.schedule(at: next, .mechanism(.appOpen)) }
        }
        // With the queue design the openings go to a version-2 client's app (StatefulClientApp.swift).
        if !mechanisms.catchUp.enabled {
            clientAppOpens(at: now)
            return
        }
        guard deviceIsOnline(at: now) else {
            note(.user, nil, .openedAppOffline)
            return
        }
        if now >= scenario.warmup.microseconds { ledger.catchUp.fetches += 1 }
        let made = CatchUp.lettersMade(by: now, from: mechanisms.catchUp.mark, count: draws.letters.count) { draws.letters[$0].time }
        var summarized = 0, summarizedCounted = 0
        for i in mechanisms.catchUp.mark..<made where !(letterStates[i].delivered && letterStates[i].firstDelivery <= now) {
            letterStates[i].summarized = true
            summarized += 1
            summarizedCounted += counted(i)
        }
        note(.user, nil, .caughtUp(fetched: made - mechanisms.catchUp.mark, notShown: summarized))
        mechanisms.catchUp.mark = made
        if summarizedCounted > 0 {
            ledger.summaries += 1
            loadLog.note(.summaries, at: now)
        }
    }
}

/// The catch-up's bookkeeping as pure functions, tested on their own.
enum CatchUp {
    /// The end of the letters made by `now` (letters are in time order), starting at `first`.
    static func lettersMade(by now: Int64, from first: Int, count: Int, time: (Int) -> Int64) -> Int {
        var made = first
        while made < count && time(made) <= now { made += 1 }
        return made
    }
}
