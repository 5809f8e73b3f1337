// A catch-up's fetches in `pushsim check` (up is worse, absent reads as 0) and in sweep metrics (per letter).
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
@testable import PushSimExperiment
@testable import PushSimReport
import PushSimTestSupport

@Suite struct CatchUpFetchesTests {
    private func catchUp(devices: Int = 60) throws -> Scenario {
        try ScenarioLoader.parse(text: CheckTestSupport.scenarioText(devices: devices) + "\n  app_open: exponential(2h)\nrecovery: catch_up\n", file: "t.yaml")
    }

    @Test func checkComparesFetches() throws {
        let (result, spreads) = CheckRun.run(try catchUp(), thresholds: [], jobs: 1)
        let now = try CheckSnapshot(json: result.json, source: "now")
        let fetches = try #require(now.arms.last?.values["fetches"])
        #expect(fetches > 0 && now.arms[0].values["fetches"] == nil)
        func compare(_ edit: (inout [String: Double]) -> Void) throws -> CheckReport {
            var baseline = now
            edit(&baseline.arms[1].values)
            return try CheckComparison.compare(baseline: baseline, baselinePath: "b.json", now: result, spreads: spreads, tolerances: [])
        }
        try expectEqual(compare { _ in }.outcome, .identical)
        try expectEqual(compare { $0["fetches"] = fetches / 2 }.worse.map(\.name), ["on.fetches"])
        try expectEqual(compare { $0["fetches"] = fetches * 2 }.better.map(\.name), ["on.fetches"])
    }

    /// A document without the field (no catch-up) reads as 0 fetches, not as a broken baseline.
    @Test func aDocumentWithoutFetchesReadsZero() throws {
        let scenario = try ScenarioLoader.parse(text: CheckTestSupport.scenarioText(devices: 20), file: "t.yaml")
        let snapshot = try CheckSnapshot(json: Simulator.run(scenario).json, source: "b")
        expectEqual(snapshot.arms.last?.values["fetches"], 0)
    }

    @Test func sweepMetricsCountFetchesPerLetter() throws {
        let result = Simulator.run(try catchUp(devices: 20))
        let on = try #require(result.arms.last)
        let metrics = ArmMetrics(on, offArm: result.offArm)
        expectEqual(metrics.values["fetches_per_letter"], Double(on.ledger.catchUp.fetches) / Double(on.ledger.letters))
        #expect(ArmMetrics(result.arms[0]).values["fetches_per_letter"] == nil)
    }
}
