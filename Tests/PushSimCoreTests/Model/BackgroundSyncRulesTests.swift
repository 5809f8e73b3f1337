// docs/model.md §7, Background-push sync, pinned with known answers: the throttle holds or drops, a force-quit app gets nothing until launched, the synced letters are seen after the delay.
import Testing
@testable import PushSimCore
import PushSimTestSupport

@Suite struct BackgroundSyncRulesTests {
    /// Four background pushes at 0, 10, 20 and 50 min under a throttle of 2/h (one wake-up per 30 min).
    private let arrivals: [Int64] = [0, 10 * minute, 20 * minute, 50 * minute]

    private func plan(_ arrivals: [Int64], launches: [Int64] = [], quitAtStart: Bool = false, quitAfter: [Bool] = [],
                      _ mode: BackgroundSync.OverThrottle = .hold) -> ([Int64], BackgroundSyncPlan.Counts) {
        var wakes: [Int64] = []
        let counts = BackgroundSyncPlan.wakes(arrivals: arrivals, launches: launches, quitAtStart: quitAtStart, quitAfter: quitAfter,
                                              spacing: 30 * minute, overThrottle: mode, end: 1 * SimTime.day, countFrom: 0, into: &wakes)
        return (wakes, counts)
    }

    /// `hold`: the pushes of 10 and 20 min wait, as one, for 30 min; the one of 50 min for 60 min.
    @Test func beyondTheThrottleAPushIsHeldUntilItAllows() {
        let (wakes, counts) = plan(arrivals, .hold)
        expectEqual(wakes, [0, 30 * minute, 60 * minute])
        expectEqual(counts, BackgroundSyncPlan.Counts(wakes: 3, held: 3, dropped: 0, forceQuit: 0))
    }

    /// `drop`: the pushes of 10 and 20 min are discarded; the one of 50 min is 50 min after the last wake-up.
    @Test func beyondTheThrottleAPushIsDroppedWhenSoSet() {
        let (wakes, counts) = plan(arrivals, .drop)
        expectEqual(wakes, [0, 50 * minute])
        expectEqual(counts, BackgroundSyncPlan.Counts(wakes: 2, held: 0, dropped: 2, forceQuit: 0))
    }

    /// The throttle's spacing is 1/throttle: 3/h is 20 min, 2/h 30 min.
    @Test func theSpacingIsOneOverTheThrottle() {
        expectEqual(BackgroundSync().spacing, 20 * minute)
        expectEqual(BackgroundSync(throttlePerMicrosecond: 2 / Double(hour)).spacing, 30 * minute)
        expectEqual(BackgroundSync(throttlePerMicrosecond: 1e-300).spacing, Int64.max)
    }

    /// Force-quit at time 0: nothing reaches the app until the launch at 3 h; after it, left in
    /// the background, the push of 4 h wakes it; force-quit again, nothing does.
    @Test func aForceQuitAppGetsNoneUntilLaunched() {
        let pushes: [Int64] = [1 * hour, 2 * hour, 4 * hour]
        let (wakes, counts) = plan(pushes, launches: [3 * hour], quitAtStart: true, quitAfter: [false])
        expectEqual(wakes, [4 * hour])
        expectEqual(counts.forceQuit, 2)
        expectEqual(counts.wakes, 1)
        let (never, again) = plan(pushes, launches: [3 * hour], quitAtStart: true, quitAfter: [true])
        #expect(never.isEmpty && again.forceQuit == 3)
        // A held push released while the app is force-quit is not delivered either.
        let (held, heldCounts) = plan([0, 10 * minute], launches: [20 * minute], quitAfter: [true])
        expectEqual(held, [0])
        expectEqual(heldCounts.held, 1)
        expectEqual(heldCounts.forceQuit, 1)
    }

    /// Three letters while offline in [1 h, 3 h): APNs keeps only the last alert push; the three
    /// background pushes wait as one and wake the app at 3 h + 100 ms. The sync shows letters 0
    /// and 1 (replaced in the store) after the 5 min delay, at 3 h 5 min 100 ms; letter 2's own
    /// push was shown at 3 h + 300 ms, before that.
    @Test func theSyncedLettersAreSeenAfterTheDelay() {
        var s = syncScenario()
        s.device.backgroundSync = BackgroundSync(delay: constant(5 * minute))
        var w = ScriptedWorld(s, letters: Self.offlineLetters, offline: [1 * hour..<3 * hour])
        let off = w.run(.off)
        expectEqual(off.lost, 2)
        expectEqual(off.count(of: .apnsReplaced), 2)
        let on = w.run(.on)
        expectEqual(on.delivered, 1, "\(w.traceText)")
        expectEqual(on.summarized, 2, "\(w.traceText)")
        expectEqual(on.lost, 0, "\(w.traceText)")
        expectEqual(on.summaries, 1, "\(w.traceText)")
        let shown = 3 * hour + 5 * minute + 100 * ms
        expectEqual(on.backgroundSync.pushes, 3)
        expectEqual(on.backgroundSync.wakes, 1)
        expectEqual(on.backgroundSync.fetches, 1)
        expectEqual(on.backgroundSync.synced, 2)
        expectEqual(on.backgroundSync.shownTwice, 0)
        expectEqual(on.backgroundSync.syncedDelayMilliseconds, Int((shown - 70 * minute + shown - 80 * minute) / ms))
        #expect(w.trace.contains { entry in
            if case .synced(false, 3, 2, let at) = entry.event { return at.microseconds == shown && entry.time == 3 * hour + 100 * ms }
            return false
        }, "\(w.traceText)")
        expectEqual(w.firstDelivery(2), 3 * hour + 300 * ms)
    }

    /// The background push overtakes its letter's alert push (100 ms against 2 s): the sync at
    /// 1 h + 150 ms shows the letter, and its own push shows it again at 1 h + 2.25 s. The letter
    /// is delivered, and counted as shown twice.
    @Test func aSyncAheadOfTheAlertPushShowsTheLetterTwice() {
        var w = ScriptedWorld(syncScenario(), letters: [ScriptedLetter(time: 1 * hour, apnsLatency: 2 * sec)])
        let on = w.run(.on)
        expectEqual(on.delivered, 1)
        expectEqual(on.summaries, 1)
        expectEqual(on.backgroundSync.shownTwice, 1)
        expectEqual(on.backgroundSync.synced, 0)
        expectEqual(w.firstDelivery(0), 1 * hour + 2250 * ms)
    }

    /// Everyone force-quits and never launches the app: no background push is delivered, and
    /// the arm loses what the off arm loses.
    @Test func withEveryoneForceQuittingAndNoLaunchNothingIsSynced() {
        var s = syncScenario()
        s.device.backgroundSync = BackgroundSync(forceQuit: 1)
        var w = ScriptedWorld(s, letters: Self.offlineLetters, offline: [1 * hour..<3 * hour])
        let on = w.run(.on)
        expectEqual(on.lost, 2)
        expectEqual(on.summarized, 0)
        expectEqual(on.backgroundSync.wakes, 0)
        expectEqual(on.backgroundSync.forceQuit, 1)
    }

    /// The design changes nothing of the chain: the alert pushes' fates and latencies are the off arm's.
    @Test func theAlertPushesTravelAsInTheOffArm() {
        var w = ScriptedWorld(syncScenario(), letters: Self.offlineLetters, offline: [1 * hour..<3 * hour])
        let off = w.run(.off)
        let on = w.run(.on)
        expectEqual(on.latency, off.latency)
        expectEqual(on.duplicates, off.duplicates)
        expectEqual(on.letters, off.letters)
    }

    private static let offlineLetters = [70 * minute, 80 * minute, 120 * minute].map { ScriptedLetter(time: $0) }

    private func syncScenario() -> Scenario {
        var s = tinyScenario()
        s.recovery = .backgroundSync
        s.xiva.latency = constant(50 * ms)
        s.apns.latency = constant(100 * ms)
        s.extension.processing = constant(200 * ms)
        return s
    }
}
