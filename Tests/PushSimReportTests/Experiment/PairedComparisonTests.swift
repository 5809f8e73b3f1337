// Paired comparisons of sweep points: the paired-t interval by hand, the pairing by seed, the reference's choice, and the narrowing common random numbers buy.
import Testing
@testable import PushSimScenarioFile
@testable import PushSimExperiment
@testable import PushSimReport
@testable import PushSimCore
import PushSimTestSupport

@Suite struct PairedComparisonTests {
    /// Differences 1, 2, 3, 4: mean 2.5, s = √(5/3) = 1.2909944…, t(0.975, 3) = 3.1824463…
    /// (tables), half-width t·s/√4 = 2.0542603 (computed by hand with those figures).
    @Test func pairedIntervalMatchesTheHandComputedOne() throws {
        let paired = ReplicationStatistics.pairedDifference([3, 5, 6, 9], [2, 3, 3, 5])
        expectEqual(paired.mean, 2.5)
        expectEqual(paired.count, 4)
        let half = try #require(paired.ci95)
        #expect(abs(half - 2.0542603) < 1e-6)
        #expect(paired.excludesZero)
        // A shift common to both lists cancels: the same differences, the same interval.
        let shifted = ReplicationStatistics.pairedDifference([103, 205, 306, 409], [102, 203, 303, 405])
        expectEqual(shifted, paired)
        // Differences −1, 1: mean 0, half-width t(0.975, 1)·√2/√2 = 12.706…; 0 is inside.
        let straddling = ReplicationStatistics.pairedDifference([1, 3], [2, 2])
        #expect(!straddling.excludesZero)
        #expect(abs((straddling.ci95 ?? 0) - 12.7062047) < 1e-6)
    }

    static func point(_ value: String, seeds: [UInt64], loss: [Double]) -> SweepPointResult {
        let runs = zip(seeds, loss).enumerated().map { k, pair in
            SweepReplication(replication: k, seed: pair.0, arms: [ArmMetrics(queue: "on", values: ["loss_rate": pair.1])])
        }
        return SweepPointResult(point: SweepPoint(settings: [SweepSetting(path: "x", value: value)]), replications: runs,
                                summaries: SweepRunner.summarize(runs))
    }

    @Test func pairsReplicationsBySeedAndTheReferenceComparesToZero() throws {
        let reference = Self.point("a", seeds: [1, 2, 3, 4], loss: [2, 3, 3, 5])
        // The same seeds in another order: pairing is by seed, so the differences are 1, 2, 3, 4 again.
        let other = Self.point("b", seeds: [4, 3, 2, 1], loss: [9, 6, 5, 3])
        let comparison = try #require(SweepComparison(points: [reference, other], reference: 0, choice: .named))
        let difference = try #require(comparison.differences[1][0].metrics["loss_rate"])
        expectEqual(difference, ReplicationStatistics.pairedDifference([3, 5, 6, 9], [2, 3, 3, 5]))
        expectEqual(comparison.differences[0][0].metrics["loss_rate"], MetricSummary(mean: 0, ci95: 0, count: 4))
        expectEqual(SweepComparison.best([other, reference]), 1)
        // One replication gives no interval, so no comparison.
        #expect(SweepComparison(points: [Self.point("a", seeds: [1], loss: [1]), Self.point("b", seeds: [1], loss: [2])],
                                reference: 0, choice: .named) == nil)
    }

    @Test func referenceIsNamedTheFilesOwnOrTheBest() throws {
        // The fixture leaves repeat_max_count at its default, 10: the file's own point.
        let own = try SweepFixture.plan([SweepAxis(path: "queue.repeat_max_count", values: ["2", "10"])], replications: 2)
        #expect(own.reference?.index == 1 && own.reference?.choice == .file)
        let none = try SweepFixture.plan([SweepFixture.axis], replications: 2)
        #expect(none.reference == nil, "no point is the file's own: the best, found after the run")
        let axes = [SweepFixture.axis, SweepAxis(path: "apns.loss", values: ["0", "5%"])]
        let named = try SweepPlan(axes: axes, replications: 2,
                                  reference: [SweepSetting(path: "queue.repeat_max_count", value: "2"),
                                              SweepSetting(path: "apns.loss", value: "5%")]) {
            try ScenarioLoader.parse(text: SweepFixture.text, file: "fixture.yaml", overrides: $0)
        }
        #expect(named.reference?.index == 3 && named.reference?.choice == .named)
        func refusal(_ settings: [SweepSetting]) -> String {
            do {
                _ = try SweepPlan(axes: axes, replications: 2, reference: settings) {
                    try ScenarioLoader.parse(text: SweepFixture.text, file: "fixture.yaml", overrides: $0)
                }
                return ""
            } catch { return "\(error)" }
        }
        #expect(refusal([SweepSetting(path: "queue.repeat_max_count", value: "2")]).contains("names 2 points"))
        #expect(refusal([SweepSetting(path: "queue.repeat_max_count", value: "7"), SweepSetting(path: "apns.loss", value: "0")])
            .contains("`7` is not one of the values"))
        #expect(refusal([SweepSetting(path: "devices", value: "7")]).contains("not an axis of this sweep"))
    }

    static let chainText = """
    name: paired-chain
    seed: 11
    duration: 2d
    drain: 12h
    devices: 30
    mail:
      rate: 60/d
    connectivity:
      windows:
        - {start: 2h, end: 6h, every: 1d}
        - {start: 12h, end: 13h, every: 1d}
    device:
      clear_after: exponential(30m)
    """

    /// On the chain, with common random numbers: the paired half-width of the difference of the
    /// queue arm's summarized rate (letters known only from a summary) between repeat_max_count 5 and 10 is smaller than the unpaired one,
    /// t(0.975, 2n−2) · √((s₁² + s₂²)/n), which assumes independent points. Both points share
    /// every device's offline windows and mail per seed, so most of the noise cancels. Fixed seeds.
    @Test func commonRandomNumbersNarrowTheIntervalOnTheChain() throws {
        let n = 6
        let plan = try SweepPlan(axes: [SweepAxis(path: "queue.repeat_max_count", values: ["5", "10"])], replications: n) {
            try ScenarioLoader.parse(text: Self.chainText, file: "paired.yaml", overrides: $0)
        }
        let result = SweepRunner.run(plan)
        let comparison = try #require(result.comparison)
        expectEqual(comparison.reference, 1)
        expectEqual(comparison.choice, .file)
        let loss = result.points.map { point in point.replications.compactMap { $0.arms.last?.values["summarized_rate"] } }
        func variance(_ x: [Double]) -> Double {
            let mean = x.reduce(0, +) / Double(x.count)
            return x.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(x.count - 1)
        }
        let unpaired = ReplicationStatistics.studentTQuantile(0.975, degreesOfFreedom: 2 * n - 2)
            * ((variance(loss[0]) + variance(loss[1])) / Double(n)).squareRoot()
        let paired = try #require(comparison.differences[0].last?.metrics["summarized_rate"])
        let half = try #require(paired.ci95)
        #expect(half > 0 && half < unpaired, "paired \(half) against unpaired \(unpaired)")
        // The queue-off arm does not read repeat_max_count: its runs are the same seed by seed.
        expectEqual(comparison.differences[0].first?.metrics["loss_rate"], MetricSummary(mean: 0, ci95: 0, count: n))
        // Every output carries it.
        #expect(result.markdown.contains("## Compared with `queue.repeat_max_count=10`, seed by seed"))
        #expect(result.csv.contains("\ndiff_mean,0,5,off,") && result.csv.contains("\ndiff_ci95,0,5,on,"))
        #expect(result.json.text.contains("\"reference\":{\"chosen\":\"file\",\"set\":{\"queue.repeat_max_count\":10}}"))
        #expect(result.json.text.contains("\"versus_reference\":["))
    }
}
