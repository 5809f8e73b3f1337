// `--cost`: the weights read, the expected cost a weighted sum worked out by hand, and bad weights refused with their column.
import Testing
@testable import PushSimScenarioFile
@testable import PushSimExperiment
@testable import PushSimReport
@testable import PushSimCore
import PushSimTestSupport

@Suite struct SweepCostTests {
    @Test func expectedCostIsTheWeightedSumOfItsMetrics() throws {
        let cost = try SweepCost.parse("lost=1,summarized=0.3,resent=0.01,latency_p90=1/h")
        var arms = [
            ArmMetrics(queue: "off", values: ["loss_rate": 0.01, "summarized_rate": 0.02, "latency_s.p90": 7200]),
            ArmMetrics(queue: "on", values: ["loss_rate": 0.01, "summarized_rate": 0.02, "resent_per_letter": 0.5,
                                             "latency_s.p90": 7200, "segments.riders.loss_rate": 0.1,
                                             "segments.riders.latency_s.p90": 1800]),
        ]
        cost.apply(to: &arms, segments: ["riders"])
        // 1 × 0.01 + 0.3 × 0.02 + 0.01 × 0.5 + (1 per hour) × 2 h = 2.021; the off arm re-sends nothing.
        #expect(abs((arms[1].values["expected_cost"] ?? 0) - 2.021) < 1e-12)
        #expect(abs((arms[0].values["expected_cost"] ?? 0) - 2.016) < 1e-12)
        // The segment: 0.1 + 0.5 h × 1 = 0.6.
        #expect(abs((arms[1].values["segments.riders.expected_cost"] ?? 0) - 0.6) < 1e-12)
        #expect(arms[0].values["segments.riders.expected_cost"] == nil, "the off arm has no riders' metrics here")
        try expectEqual(SweepCost.parse("latency_p99=60/min").weights.first?.weight, 1)
    }

    @Test func badWeightsAreRefusedWhereTheyAreWritten() {
        func message(_ text: String) -> String {
            do { _ = try SweepCost.parse(text); return "" } catch { return "\(error)" }
        }
        #expect(message("lost=1,lose=2").contains("--cost:1:8") && message("lost=1,lose=2").contains("unknown outcome `lose`"))
        #expect(message("lost=-1").contains("--cost:1:6") && message("lost=-1").contains("a weight ≥ 0"))
        #expect(message("latency_p90=1").contains("needs a unit of time"))
        #expect(message("lost=1/h").contains("takes no unit"))
        #expect(message("lost=1,lost=2").contains("twice"))
        #expect(message("lost").contains("expects NAME=WEIGHT"))
    }

    @Test func aSweepWithACostReportsItEverywhere() throws {
        let plan = try SweepFixture.plan([SweepAxis(path: "queue.repeat_max_count", values: ["1", "10"])], replications: 2)
        let result = SweepRunner.run(plan, cost: try SweepCost.parse("lost=1,summarized=0.5"))
        let on = try #require(result.points[0].replications[0].arms.last?.values)
        expectEqual(on["expected_cost"], (on["loss_rate"] ?? 0) + 0.5 * (on["summarized_rate"] ?? 0))
        #expect(result.markdown.contains("| expected cost / letter |"))
        #expect(result.metricNames.contains("expected_cost"))
        #expect(result.comparison?.differences[0].last?.metrics["expected_cost"] != nil)
    }
}
