// The extension's rules: the gap check, re-request or summary, processing and the deadline.
import Testing
@testable import PushSimCore
import PushSimTestSupport

@Suite struct ServiceExtensionTests {
    static func lettersLosing(_ lost: Set<Int>, count: Int, every: Int64 = 10 * minute) -> [ScriptedLetter] {
        (0..<count).map { ScriptedLetter(time: Int64($0) * every, lost: lost.contains($0)) }
    }

    /// Rule 5 and domain §5 step 9: a gap of at most repeat_max_count is re-requested and recovered.
    @Test func gapWithinRepeatMaxCountIsReRequestedAndRecovered() {
        var s = tinyScenario()
        s.queue.repeatMaxCount = 2
        var w = ScriptedWorld(s, letters: Self.lettersLosing([1, 2], count: 4))
        let on = w.run(.on)
        expectEqual(on.gapsDetected, 1)
        expectEqual(on.missedInGaps, 2)
        expectEqual(on.reRequests, 1)
        expectEqual(on.resent, 2)
        expectEqual(on.summaries, 0)
        expectEqual(on.delivered, 4)
        expectEqual(on.duplicates, 0)
    }

    /// Domain §5 step 8: a larger gap is not re-requested; the revealing push becomes a summary
    /// covering itself and the gap.
    @Test func gapBeyondRepeatMaxCountIsSummarized() {
        var s = tinyScenario()
        s.queue.repeatMaxCount = 2
        var w = ScriptedWorld(s, letters: Self.lettersLosing([1, 2, 3], count: 5))
        let on = w.run(.on)
        expectEqual(on.reRequests, 0)
        expectEqual(on.summaries, 1)
        #expect((1...4).allSatisfy { w.fate($0) == .summarized })
        expectEqual(w.fate(0), .delivered(latency: 350 * ms))
        expectEqual(on.summarized, 4)
        expectEqual(on.delivered, 1)
        // repeat_max_count 0: every gap is summarized.
        s.queue.repeatMaxCount = 0
        w = ScriptedWorld(s, letters: Self.lettersLosing([1], count: 3))
        expectEqual(w.run(.on).summaries, 1)
    }

    /// Section 3: letters before the first saved position, and trailing losses no push reveals,
    /// are undetected gaps.
    @Test func unrevealedLossesAreUndetectedGaps() {
        var w = ScriptedWorld(tinyScenario(), letters: Self.lettersLosing([0, 3], count: 4))
        let on = w.run(.on)
        expectEqual(w.fate(0), .lost(.undetectedGap))
        expectEqual(w.fate(3), .lost(.undetectedGap))
        expectEqual(on.reRequests, 0)
        expectEqual(on.count(of: .undetectedGap), 2)
        w.run(.off)
        expectEqual(w.fate(0), .lost(.networkLoss))
        expectEqual(w.fate(3), .lost(.networkLoss))
    }

    /// Rule 6: processing beyond the deadline shows the original at arrival + deadline, counts a
    /// time-out, and the gap's re-request is never made.
    @Test func deadlineShowsOriginalAndCountsTimeout() {
        var w = ScriptedWorld(tinyScenario(), letters: [
            ScriptedLetter(time: 0), ScriptedLetter(time: 1 * minute, lost: true),
            ScriptedLetter(time: 2 * minute, processing: 40 * sec),
        ])
        let on = w.run(.on)
        expectEqual(on.extensionTimeouts, 1)
        expectEqual(on.reRequests, 0)
        expectEqual(w.fate(2), .delivered(latency: 150 * ms + 30 * sec))
        expectEqual(w.fate(1), .lost(.extensionTimeout))
        // The deadline holds in both arms.
        let off = w.run(.off)
        expectEqual(off.extensionTimeouts, 1)
        expectEqual(w.fate(2), .delivered(latency: 150 * ms + 30 * sec))
        expectEqual(w.fate(1), .lost(.networkLoss))
    }

    /// Rule 6: "exceeds": processing exactly equal to the deadline is on time.
    @Test func processingEqualToTheDeadlineIsOnTime() {
        var w = ScriptedWorld(tinyScenario(), letters: [ScriptedLetter(time: 0, processing: 30 * sec)])
        let off = w.run(.off)
        expectEqual(off.extensionTimeouts, 0)
        expectEqual(w.fate(0), .delivered(latency: 150 * ms + 30 * sec))
    }

    /// Rule 6: processing + request latency beyond the deadline: the original is shown at the
    /// deadline, and the re-request already sent still brings the gap back.
    @Test func reRequestSentBeforeTheDeadlineStillTakesEffect() {
        var s = tinyScenario()
        s.xiva.requestLatency = constant(15 * sec)
        var w = ScriptedWorld(s, letters: [
            ScriptedLetter(time: 0), ScriptedLetter(time: 1 * minute, lost: true),
            ScriptedLetter(time: 2 * minute, processing: 20 * sec),
        ])
        let on = w.run(.on)
        expectEqual(on.extensionTimeouts, 1)
        expectEqual(on.reRequests, 1)
        expectEqual(on.resent, 1)
        expectEqual(w.fate(2), .delivered(latency: 150 * ms + 30 * sec))
        // Answer at arrival + 35 s; re-sent copy: +200 ms to APNs, +100 ms, +200 ms processing.
        expectEqual(w.firstDelivery(1), 2 * minute + 150 * ms + 35 * sec + 500 * ms)
        // The same with an error answer: no extension is left to show the summary.
        s.xiva.requestError = 1
        w = ScriptedWorld(s, letters: [
            ScriptedLetter(time: 0), ScriptedLetter(time: 1 * minute, lost: true),
            ScriptedLetter(time: 2 * minute, processing: 20 * sec),
        ])
        let failed = w.run(.on)
        expectEqual(failed.summaries, 0)
        expectEqual(failed.summarized, 0)
        expectEqual(w.fate(2), .delivered(latency: 150 * ms + 30 * sec))
        expectEqual(failed.lost, 1)
    }

    /// Domain §5: the published snippet never advances the saved position without a gap, so on a
    /// perfect device every other push looks like a gap of one; the intended client sees none.
    @Test func literalClientReRequestsNeedlessly() {
        var s = tinyScenario()
        s.queue.client = .literal
        var w = ScriptedWorld(s, letters: Self.lettersLosing([], count: 9))
        let literal = w.run(.on)
        expectEqual(literal.reRequests, 4)
        expectEqual(literal.resent, 4)
        #expect(literal.delivered == 9 && literal.duplicates == 0)   // the copies collapse
        s.queue.client = .intended
        w = ScriptedWorld(s, letters: Self.lettersLosing([], count: 9))
        let intended = w.run(.on)
        expectEqual(intended.reRequests, 0)
        expectEqual(intended.resent, 0)
        expectEqual(intended.delivered, 9)
    }

    /// Rule 5: the intended client's saved position only moves forward, so a late push does not
    /// pull it back and make the next one look like a gap.
    @Test func intendedSavedPositionOnlyMovesForward() {
        var w = ScriptedWorld(tinyScenario(), letters: [
            ScriptedLetter(time: 0), ScriptedLetter(time: 10 * sec, apnsLatency: 5 * sec),
            ScriptedLetter(time: 11 * sec), ScriptedLetter(time: 1 * minute),
        ])
        let on = w.run(.on)
        expectEqual(on.reRequests, 1)
        expectEqual(on.gapsDetected, 1)
        expectEqual(w.world.ext.lastPosition, 4)
    }

    /// Rule 5: the gap check happens at arrival, in arrival order, even while runs overlap.
    @Test func gapCheckHappensAtArrivalWhileRunsOverlap() {
        // Two pushes 1 s apart, each processed for 10 s: the second run starts before the first ends.
        var w = ScriptedWorld(tinyScenario(), letters: [
            ScriptedLetter(time: 0, processing: 10 * sec), ScriptedLetter(time: 1 * sec, processing: 10 * sec),
            ScriptedLetter(time: 2 * sec, lost: true), ScriptedLetter(time: 3 * sec, processing: 10 * sec),
        ])
        let on = w.run(.on)
        expectEqual(on.gapsDetected, 1)
        expectEqual(on.reRequests, 1)
        expectEqual(on.delivered, 4)
    }

    /// The off arm never runs the gap algorithm.
    @Test func offArmNeverReRequests() {
        var w = ScriptedWorld(tinyScenario(), letters: Self.lettersLosing([1, 2, 5], count: 8))
        let off = w.run(.off)
        expectEqual(off.reRequests, 0)
        expectEqual(off.summaries, 0)
        expectEqual(off.gapsDetected, 0)
        expectEqual(off.summarized, 0)
        expectEqual(off.pushesSeenByExtensions, 5)
    }
}
