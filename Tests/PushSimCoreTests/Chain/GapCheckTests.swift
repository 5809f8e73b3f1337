// The gap algorithm as a pure function: first position, no gap, gaps summarized or re-requested, both clients.
import Testing
@testable import PushSimCore
import PushSimTestSupport

@Suite struct GapCheckTests {
    func check(_ saved: Int32, _ p: Int32, intended: Bool = true, max: Int = 3) -> GapCheck {
        GapCheck.check(saved: saved, position: p, intendedClient: intended, repeatMaxCount: max)
    }

    @Test func theFirstPositionIsSavedAndNothingElse() {
        expectEqual(check(0, 7), GapCheck(outcome: .firstPosition, saved: 7))
    }

    @Test func theNextPositionIsNoGap() {
        expectEqual(check(4, 5), GapCheck(outcome: .noGap, saved: 5))
    }

    @Test func anOlderPositionMovesNothingBack() {
        expectEqual(check(9, 5), GapCheck(outcome: .noGap, saved: 9))
        expectEqual(check(9, 9), GapCheck(outcome: .noGap, saved: 9))
    }

    @Test func theLiteralSnippetOnlyAdvancesAtAGap() {
        expectEqual(check(4, 5, intended: false), GapCheck(outcome: .noGap, saved: 4))
        expectEqual(check(4, 7, intended: false), GapCheck(outcome: .gap(low: 5, high: 6, action: .reRequest), saved: 7))
    }

    @Test func aGapUpToTheThresholdIsReRequestedAndALargerOneSummarized() {
        // Three missing (5, 6, 7) with repeat_max_count 3: re-requested; four: summarized.
        expectEqual(check(4, 8), GapCheck(outcome: .gap(low: 5, high: 7, action: .reRequest), saved: 8))
        expectEqual(check(4, 9), GapCheck(outcome: .gap(low: 5, high: 8, action: .summary), saved: 9))
        expectEqual(check(4, 6, max: 0), GapCheck(outcome: .gap(low: 5, high: 5, action: .summary), saved: 6))
    }
}
