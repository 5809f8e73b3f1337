// docs/model.md §7, Client catch-up, pinned: an online opening with nothing new is a fetch all the same; the catch-up arm has no collapse id.
import Testing
@testable import PushSimCore
import PushSimTestSupport

@Suite struct CatchUpRulesTests {
    /// Every online opening asks the server, so it counts in `fetches` even when nothing new
    /// came; a summary is shown (and counted) only when some letter was not shown yet.
    @Test func anOnlineOpeningWithNothingNewIsAFetch() {
        var w = ScriptedWorld(catchUpScenario(every: 6 * hour), letters: [])
        let on = w.run(.on)
        // A constant 6 h from a first opening uniform in [0, 6 h): 8 openings in the 48 h run.
        expectEqual(on.catchUp.fetches, 8)
        expectEqual(on.summaries, 0)
    }

    /// `queue.collapse_id` belongs to the queue design: the catch-up arm sends no re-pushes and
    /// sets no collapse id, so APNs' second copy of a shown letter is a duplicate there, as in
    /// the off arm, while the queue arm folds it.
    @Test func theCatchUpArmHasNoCollapseId() {
        let letters = [ScriptedLetter(time: 1 * hour, xivaLatency: 50 * ms, apnsLatency: 100 * ms, processing: 200 * ms)]
        var s = catchUpScenario(every: 6 * hour)
        s.apns.duplicate = 1
        var w = ScriptedWorld(s, letters: letters)
        expectEqual(w.run(.on).duplicates, 1, "\(w.traceText)")
        s.recovery = .queue
        var queue = ScriptedWorld(s, letters: letters)
        expectEqual(queue.run(.on).duplicates, 0)
    }
}
