// docs/model.md §7, §8, §10, §14 where they used to be silent, pinned on hand-built devices: which hold counts a copy, what the memory limit's comparison is, what background pushes meet, where the load counts a push.
import Testing
@testable import PushSimCore
import PushSimTestSupport

@Suite struct MechanismSilencesTests {
    /// 50 ms to APNs, 100 ms to the phone, 200 ms of processing: shown 350 ms after the letter.
    private func at(_ t: Int64, low: Bool = false) -> ScriptedLetter {
        ScriptedLetter(time: t, xivaLatency: 50 * ms, apnsLatency: 100 * ms, processing: 200 * ms, lowPriority: low)
    }

    private func lowPowerAndSleep() -> Scenario {
        tinyScenario(on: .apns) {
            $0.xiva.requestError = 0
            $0.apns.lowPriorityShare = 1
            $0.device.sleep = DeviceSleep(awake: constant(1 * hour), asleep: constant(1 * hour))
            $0.device.lowPower = LowPowerMode(share: 1, releaseOrder: .held)
        }
    }

    private func world(_ s: Scenario, _ letters: [ScriptedLetter], lowPower: [Range<Int64>], asleep: [Range<Int64>]) -> ScriptedWorld {
        var w = ScriptedWorld(s, letters: letters)
        w.world.draws.lowPowerTimeline.intervals = lowPower
        w.world.draws.sleepTimeline.asleep = asleep
        return w
    }

    /// Held while asleep (1h–1h30), kept by a Low Power window (1h15–2h) after the wake: the
    /// window's end hands it over and `low_power.released` counts it, though `low_power.held`
    /// does not, so `released` can exceed `held`.
    @Test func aWindowsEndCountsTheSleepHeldCopyItReleases() {
        var w = world(lowPowerAndSleep(), [at(1 * hour + 5 * minute, low: true)],
                      lowPower: [1 * hour + 15 * minute..<2 * hour], asleep: [1 * hour..<1 * hour + 30 * minute])
        let l = w.run(.off)
        expectEqual(w.firstDelivery(0), 2 * hour + 200 * ms, "\(w.traceText)")
        expectEqual(l.sleep.held, 1)
        expectEqual(l.lowPower.held, 0)
        expectEqual(l.lowPower.released, 1)
        expectEqual(l.apns.deliveredFromStorage, 1)
    }

    /// A priority-5 copy due while the phone is both asleep and in Low Power Mode is held by
    /// Low Power Mode alone (counted in `low_power.held`, not in `sleep.held`). The window ends
    /// (2h) while the phone sleeps: it waits for the wake (3h), counted in neither `released`
    /// nor `released_by_priority_10`.
    @Test func aCopyBothHoldsWouldTakeIsLowPowersOnly() {
        var w = world(lowPowerAndSleep(), [at(1 * hour + 5 * minute, low: true)],
                      lowPower: [1 * hour..<2 * hour], asleep: [1 * hour..<3 * hour])
        let l = w.run(.off)
        expectEqual(w.firstDelivery(0), 3 * hour + 200 * ms, "\(w.traceText)")
        expectEqual(l.lowPower.held, 1)
        expectEqual(l.sleep.held, 0)
        expectEqual(l.lowPower.released, 0)
        expectEqual(l.sleep.releasedByPriority10, 0)
    }

    /// A daily window across midnight (22h to 2h the next day) holds the first two hours of the
    /// run too: the repetition begun the evening before time 0 reaches into it.
    @Test func aWindowAcrossMidnightHoldsTheFirstHours() {
        var s = tinyScenario(duration: 2 * day)
        s.device.lowPower = LowPowerMode(share: 1, windows: [OfflineWindow(start: span(22 * hour), end: span(26 * hour), every: span(day))])
        s.device.focus = FocusSchedule(share: 1, windows: [OfflineWindow(start: span(22 * hour), end: span(26 * hour), every: span(day))])
        var w = DeviceWorld(scenario: s)
        w.prepare(device: 0)
        expectEqual(w.draws.lowPowerTimeline.intervals.first, 0..<2 * hour)
        expectEqual(w.draws.lowPowerTimeline.intervals.dropFirst().first, 22 * hour..<26 * hour)
        expectEqual(w.draws.holding.focus.first, 0..<2 * hour)
        expectEqual(w.draws.holding.seen(letter: 0, deliveredAt: 1 * hour).time, 2 * hour)
    }

    /// keep_older discards the newcomer: it was never stored, so it is not among the
    /// `ever_stored_device_offline` data points; the kept one is.
    @Test func aNewcomerKeepOlderDiscardsWasNeverStored() {
        var s = tinyScenario()
        s.apns.keepOlder = 1
        s.apns.keepWindow = span(1 * hour)
        var w = ScriptedWorld(s, letters: [at(1 * hour), at(1 * hour + 10 * minute)], offline: [30 * minute..<2 * hour])
        let l = w.run(.off)
        expectEqual(l.apns.sent, 2, "\(w.traceText)")
        expectEqual(l.apns.replacedInStorage, 1, "\(w.traceText)")
        expectEqual(l.apns.deliveredFromStorage, 1, "\(w.traceText)")
        expectEqual(l.apns.everStoredDeviceOffline, 1)
    }
}

@Suite struct MemoryLimitBoundaryTests {
    private let megabyte: Int64 = 1_048_576

    /// A limit of `limit`, a decode factor of 10, 8 Mbit/s (1 MB takes 1.048576 s), a 5 s deadline.
    private func world(processing: Int64, bytes: Int64, limit: Int64 = 24 * 1_048_576) -> ScriptedWorld {
        var s = tinyScenario()
        s.xiva.requestError = 0
        s.extension.deadline = span(5 * sec)
        s.extension.media = MediaAttachments(share: 1, size: constant(1), bandwidth: constant(8_000_000),
                                             memoryLimit: limit, decodeFactor: 10)
        var w = ScriptedWorld(s, letters: [ScriptedLetter(time: 1 * hour, xivaLatency: 50 * ms, apnsLatency: 100 * ms, processing: processing)])
        w.world.draws.mediaBytes = [bytes]
        return w
    }

    /// "Past the limit" is strictly greater: under a 20 MB limit, 2 MB decoded to exactly 20 MB
    /// fits (shown with its attachment), a byte more is killed.
    @Test func theLimitItselfFits() {
        var fits = world(processing: 200 * ms, bytes: 2 * megabyte, limit: 20 * megabyte)
        let kept = fits.run(.off)
        expectEqual(kept.media.memoryKills, 0, "\(fits.traceText)")
        expectEqual(kept.delivered, 1, "\(fits.traceText)")
        var over = world(processing: 200 * ms, bytes: 2 * megabyte + 1, limit: 20 * megabyte)
        let killed = over.run(.off)
        expectEqual(killed.media.memoryKills, 1, "\(over.traceText)")
        expectEqual(killed.delivered, 1, "\(over.traceText)")
    }

    /// 3 MB (30 MB decoded) downloads in 3.145728 s, within the 5 s deadline, while the run's
    /// own processing (4 s) would take it past the deadline: the kill at the download's end
    /// comes first. The run neither times out nor counts as an overrun.
    @Test func theKillAtTheDownloadsEndComesBeforeTheDeadline() {
        for arm in [Arm.off, .on] {
            var w = world(processing: 4 * sec, bytes: 3 * megabyte)
            let l = w.run(arm)
            expectEqual(w.fate(0), .delivered(latency: 150 * ms + 3_145_728 * us), "\(arm)\n\(w.traceText)")
            expectEqual(l.media.memoryKills, 1)
            expectEqual(l.media.overruns, 0)
            expectEqual(l.extensionTimeouts, 0)
        }
        // Downloading past the deadline (6 MB: 6.29 s), the deadline comes first: a time-out, no kill.
        var late = world(processing: 200 * ms, bytes: 6 * megabyte)
        let l = late.run(.off)
        expectEqual(l.media.memoryKills, 0)
        expectEqual(l.media.overruns, 1)
        expectEqual(l.extensionTimeouts, 1)
    }
}

@Suite struct BackgroundPushSilencesTests {
    private func syncScenario(_ configure: (inout Scenario) -> Void = { _ in }) -> Scenario {
        var s = tinyScenario()
        s.recovery = .backgroundSync
        s.xiva.latency = constant(50 * ms)
        s.apns.latency = constant(100 * ms)
        s.extension.processing = constant(200 * ms)
        configure(&s)
        return s
    }

    private func plan(_ arrivals: [Int64], launches: [Int64] = [], quitAfter: [Bool] = []) -> ([Int64], BackgroundSyncPlan.Counts) {
        var wakes: [Int64] = []
        let counts = BackgroundSyncPlan.wakes(arrivals: arrivals, launches: launches, quitAtStart: false, quitAfter: quitAfter,
                                              spacing: 20 * minute, overThrottle: .hold, end: 1 * day, countFrom: 0, into: &wakes)
        return (wakes, counts)
    }

    /// Neither the sleep hold nor Low Power Mode holds a background push: with the phone asleep
    /// and in Low Power Mode all day, it wakes the app 150 ms after its letter, as without.
    @Test func sleepAndLowPowerHoldNoBackgroundPush() {
        let s = syncScenario {
            $0.apns.lowPriorityShare = 1
            $0.device.sleep = DeviceSleep(awake: constant(1 * hour), asleep: constant(1 * hour))
            $0.device.lowPower = LowPowerMode(share: 1)
        }
        var w = ScriptedWorld(s, letters: [ScriptedLetter(time: 1 * hour, lowPriority: true)])
        w.world.draws.sleepTimeline.asleep = [0..<2 * day]
        w.world.draws.lowPowerTimeline.intervals = [0..<2 * day]
        let on = w.run(.on)
        expectEqual(on.lowPower.held, 1, "\(w.traceText)")
        expectEqual(on.backgroundSync.wakes, 1, "\(w.traceText)")
        expectEqual(on.backgroundSync.fetches, 1, "\(w.traceText)")
        expectEqual(on.summarized, 1)
        expectEqual(on.backgroundSync.synced, 1)
        expectEqual(on.backgroundSync.syncedDelayMilliseconds, 150)
    }

    /// A background push's expiry runs from its arrival at APNs (the letter plus XIVA's 10 min),
    /// as an alert push's: with a 30 min expiration, back online at 1h39 it is still kept (due
    /// to expire at 1h40), at 1h41 it expired.
    @Test func aBackgroundPushExpiresFromItsArrivalAtAPNs() {
        let s = syncScenario {
            $0.xiva.latency = constant(10 * minute)
            $0.apns.expiration = span(30 * minute)
        }
        var kept = ScriptedWorld(s, letters: [ScriptedLetter(time: 1 * hour)], offline: [1 * hour..<1 * hour + 39 * minute])
        expectEqual(kept.run(.on).backgroundSync.wakes, 1, "\(kept.traceText)")
        var expired = ScriptedWorld(s, letters: [ScriptedLetter(time: 1 * hour)], offline: [1 * hour..<1 * hour + 41 * minute])
        expectEqual(expired.run(.on).backgroundSync.wakes, 0, "\(expired.traceText)")
    }

    /// A held push released while the app is force-quit counts in `held` (when the throttle
    /// took it) and in `force_quit` (when it was released), not in `wakes`.
    @Test func aHeldPushReleasedWhileForceQuitCountsInBoth() {
        let (wakes, counts) = plan([0, 10 * minute], launches: [15 * minute], quitAfter: [true])
        expectEqual(wakes, [0])
        expectEqual(counts, BackgroundSyncPlan.Counts(wakes: 1, held: 1, dropped: 0, forceQuit: 1))
    }

    /// A released push wakes the app whatever its connectivity (offline, its fetch finds
    /// nothing), and spaces the next one: the push of 35 min waits for 40 min.
    @Test func aReleasedPushIsAWakeThatSpacesTheNext() {
        let (wakes, counts) = plan([0, 10 * minute, 35 * minute])
        expectEqual(wakes, [0, 20 * minute, 40 * minute])
        expectEqual(counts.held, 2)
        expectEqual(counts.wakes, 3)
        // The release at 20 min falls offline (15–25 min): a wake, but no fetch.
        var w = ScriptedWorld(syncScenario(), letters: [0, 10 * minute, 35 * minute].map { ScriptedLetter(time: $0 + 1 * hour) },
                              offline: [1 * hour + 15 * minute..<1 * hour + 25 * minute])
        let on = w.run(.on)
        expectEqual(on.backgroundSync.wakes, 3, "\(w.traceText)")
        expectEqual(on.backgroundSync.held, 2, "\(w.traceText)")
        expectEqual(on.backgroundSync.fetches, 2, "\(w.traceText)")
    }

    /// A launch does not use the throttle's budget: after the wake at 0, a launch at 10 min does
    /// not move the next allowed wake (20 min), and does not make one either.
    @Test func launchesDoNotCountAgainstTheThrottle() {
        let (wakes, counts) = plan([0, 15 * minute, 45 * minute], launches: [10 * minute, 30 * minute], quitAfter: [false, false])
        expectEqual(wakes, [0, 20 * minute, 45 * minute])
        expectEqual(counts.held, 1)
        expectEqual(counts.wakes, 3)
    }

    /// A background push counts in the load's `pushes_sent` at its letter's time, as the alert
    /// push's first send (not when it reaches APNs, a XIVA latency of 2 min later).
    @Test func aBackgroundPushIsSentAtItsLettersTime() {
        let s = syncScenario { $0.xiva.latency = constant(2 * minute) }
        var w = ScriptedWorld(s, letters: [ScriptedLetter(time: 30 * sec)])
        let on = w.run(.on)
        expectEqual(on.load.count(bin: 0, .pushesSent), 2)
        expectEqual(on.load.total(.pushesSent), 2)
        expectEqual(on.backgroundSync.pushes, 1)
    }

    /// Background sync's fetches are written in its own object (`background_sync.fetches`), not
    /// in the arm's `fetches`, which is the catch-up's (and its `fetches_per_letter`).
    @Test func backgroundFetchesAreWrittenInTheirOwnObject() {
        var w = ScriptedWorld(syncScenario(), letters: [ScriptedLetter(time: 1 * hour)])
        let on = w.run(.on)
        expectEqual(on.backgroundSync.fetches, 1)
        expectEqual(on.catchUp.fetches, 0)
        let group = BackgroundSyncCounters.group
        #expect(group.json == "background_sync" && group.counters.contains { $0.json == "fetches" })
        #expect(group.counters.contains { $0.perLetter == "background_fetches_per_letter" })
        #expect(CounterGroup.catchUp.json == nil && CounterGroup.catchUp.counters.contains { $0.json == "fetches" })
    }
}

@Suite struct LoadSilencesTests {
    private func at(_ t: Int64) -> ScriptedLetter {
        ScriptedLetter(time: t, xivaLatency: 50 * ms, apnsLatency: 100 * ms, processing: 200 * ms)
    }

    /// Over the binary interface each rewrite from the buffer is a push XIVA sends: six letters,
    /// the four written after the rejected one rewritten, ten pushes sent.
    @Test func binaryRewritesArePushesSent() {
        var w = ScriptedWorld(binaryScenario(buffer: 10), letters: sixBinaryLetters)
        let l = w.run(.off)
        expectEqual(l.binary.rewritten, 4, "\(w.traceText)")
        expectEqual(l.load.total(.pushesSent), 6 + l.binary.rewritten)
    }

    /// After an uninstall (3 h) the letters of 4 h and 5 h still reach XIVA (`letters_in`), and
    /// the first, the push APNs answers 410, is one more push sent, at its letter's time.
    @Test func lettersAfterAnUninstallReachXivaAndThe410PushIsSent() {
        var s = tinyScenario()
        s.device.uninstallRatePerMicrosecond = 1e-12  // switches the rule on; the test sets the instant
        s.loadBin = span(1 * hour)
        var w = ScriptedWorld(s, letters: [at(1 * hour), at(2 * hour), at(4 * hour), at(5 * hour)])
        w.world.clock.end = 3 * hour
        w.world.clock.horizon = 3 * hour
        let l = w.run(.off)
        expectEqual(l.load.total(.lettersIn), 4)
        expectEqual(l.load.count(bin: 4, .lettersIn), 1)
        expectEqual(l.load.count(bin: 5, .lettersIn), 1)
        expectEqual(l.load.total(.pushesSent), 3)
        expectEqual(l.load.count(bin: 4, .pushesSent), 1)
        expectEqual(l.load.count(bin: 5, .pushesSent), 0)
        expectEqual(l.load.total(.pushesSent), l.apns.sent)
    }
}
