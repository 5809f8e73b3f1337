// Honest selection: the chosen value at the edge of a grid, the next values to try, and the candidates within δ of the best, on known answers.
import Testing
@testable import PushSimExperiment
import PushSimScenarioFile
import PushSimTestSupport

@Suite struct GridEdgeTests {
    static func point(_ path: String, _ value: String) -> SweepPoint { SweepPoint(settings: [SweepSetting(path: path, value: value)]) }
    static let counts = SweepAxis(path: "queue.repeat_max_count", values: ["0", "10", "50"])

    @Test func theLargestValueSaysSoAndSuggestsTheNextSteps() throws {
        let edge = try #require(GridEdge.edges(axes: [Self.counts], chosen: Self.point("queue.repeat_max_count", "50")).first)
        #expect(edge.side == .largest && edge.beyond)
        // The last step is 40: 90 and 130 continue it.
        expectEqual(edge.suggestions, ["90", "130"])
        #expect(edge.warning.contains("largest value") && edge.warning.contains("--over queue.repeat_max_count=50,90,130"))
    }

    @Test func anInteriorValueHasNoEdge() {
        #expect(GridEdge.edges(axes: [Self.counts], chosen: Self.point("queue.repeat_max_count", "10")).isEmpty)
    }

    @Test func zeroAtTheBottomOfANonNegativeGridRefinesInside() throws {
        let edge = try #require(GridEdge.edges(axes: [Self.counts], chosen: Self.point("queue.repeat_max_count", "0")).first)
        #expect(edge.side == .smallest && !edge.beyond)
        // Between 0 and 10: a quarter and a half of the step, whole numbers as the grid's are.
        expectEqual(edge.suggestions, ["3", "5"])
    }

    @Test func unitsCompareAndSuggestionsKeepTheChosenUnit() throws {
        let windows = SweepAxis(path: "queue.ttl", values: ["30s", "1m", "2m"])
        let top = try #require(GridEdge.edges(axes: [windows], chosen: Self.point("queue.ttl", "2m")).first)
        expectEqual(top.suggestions, ["3m", "4m"])
        let bottom = try #require(GridEdge.edges(axes: [windows], chosen: Self.point("queue.ttl", "30s")).first)
        // 30 s below 30 s is 0 s, then −30 s leaves the range: only 0s remains.
        #expect(bottom.side == .smallest && bottom.beyond && bottom.suggestions == ["0s"])
        let shares = SweepAxis(path: "apns.loss", values: ["0.5%", "1%"])
        let loss = try #require(GridEdge.edges(axes: [shares], chosen: Self.point("apns.loss", "1%")).first)
        expectEqual(loss.suggestions, ["1.5%", "2%"])
    }

    @Test func namesAndDistributionsHaveNoEdge() {
        let designs = SweepAxis(path: "recovery", values: ["queue", "catch_up"])
        #expect(GridEdge.edges(axes: [designs], chosen: Self.point("recovery", "queue")).isEmpty)
        let mixed = SweepAxis(path: "queue.ttl", values: ["30s", "5"])
        #expect(GridEdge.edges(axes: [mixed], chosen: Self.point("queue.ttl", "30s")).isEmpty)
    }

    /// Upper bounds 0, 0.004, 0.02 with δ = 0.005: the first two are within δ of the best.
    @Test func withinDeltaIsTheUpperBoundAtMostDelta() {
        let comparisons = [ComparisonWithTheBest(system: 0, lower: -0.01, upper: 0),
                           ComparisonWithTheBest(system: 1, lower: 0, upper: 0.004),
                           ComparisonWithTheBest(system: 2, lower: 0, upper: 0.02)]
        expectEqual(ComparisonsWithTheBest.withinDelta(comparisons, delta: 0.005), [0, 1])
        expectEqual(ComparisonsWithTheBest.withinDelta(comparisons, delta: 0.001), [0])
    }
}
