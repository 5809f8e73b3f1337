// `pushsim check` as a product gate: paired with the baseline's replay, real regressions fail, a harmless change and reseeds pass.
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
@testable import PushSimExperiment
@testable import PushSimReport
import PushSimTestSupport

@Suite struct CheckGateTests {
    /// The issue's client at a size where its regressions are a few standard errors of the
    /// paired difference: scenarios/quickstart.yaml at 5 000 phones, 3 % of them with alerts
    /// off, for a day (the same at 7 days, release, is docs/ci.md's table).
    static let quickstart = Shell.packageRoot + "/scenarios/quickstart.yaml"
    static func gateOverrides(seed: Int) -> [String] {
        ["name=gate", "devices=5000", "duration=1d", "device.alerts_off=0.03", "seed=\(seed)"]
    }

    /// The baseline of the gate scenario at `seed`, written as `pushsim run` writes it, and a
    /// check of the scenario with more `overrides` against it.
    final class Gate {
        let folder: String
        let baselinePath: String
        let seed: Int
        init(seed: Int = 1) throws {
            self.seed = seed
            folder = try CheckTestSupport.temporaryFolder()
            baselinePath = FilePath.join(folder, "summary.json")
            let scenario = try ScenarioLoader.load(path: CheckGateTests.quickstart, overrides: CheckGateTests.gateOverrides(seed: seed))
            try CheckSession.update(CheckRun.run(scenario, thresholds: [], jobs: 2).result, scenario: scenario, baselinePath: baselinePath)
        }
        deinit { CheckTestSupport.remove(folder) }

        func check(_ overrides: [String], tolerances: [CheckTolerance] = []) throws -> CheckReport {
            let scenario = try ScenarioLoader.load(path: CheckGateTests.quickstart,
                                                   overrides: CheckGateTests.gateOverrides(seed: seed) + overrides)
            return try CheckSession.check(scenario, baselinePath: baselinePath, tolerances: tolerances, jobs: 2,
                                          file: CheckGateTests.quickstart).report
        }
    }

    @Test func theIssuesRegressionsFailAndAHarmlessChangePasses() throws {
        let gate = try Gate()
        let fewer = try gate.check(["queue.repeat_max_count=8"])
        #expect(fewer.pairing.isPaired)
        expectEqual(fewer.outcome, .regression)
        #expect(fewer.worse.map(\.name).contains("on.summarized"))
        expectEqual(fewer.scenarioChanges, [ScenarioChange(key: "queue.repeat_max_count", old: "10", new: "8")])
        #expect(fewer.text.contains("queue.repeat_max_count 10 → 8"))

        let alertsOff = try gate.check(["device.alerts_off=0.04"])
        #expect(alertsOff.pairing.isPaired)
        #expect(alertsOff.worse.map(\.name).contains("on.lost"))
        #expect(alertsOff.worse.map(\.name).contains("on.causes.alerts_off"))

        // +20 ms on the median processing time moves p50 by 20 ms, beyond the paired noise
        // but within the default margin (10 % of ~0.55 s), and nothing else beyond its noise.
        let slower = try gate.check(["extension.processing=lognormal(220ms, 2s)"])
        #expect(slower.pairing.isPaired)
        expectEqual(slower.outcome, .pass, "\(slower.summaryLine)")
        let p50 = try #require(slower.rows.first { $0.name == "on.latency_s.p50" })
        #expect(p50.change > 0.010 && p50.change > p50.noise && p50.change < p50.tolerance ?? 0)

    }

    /// The harmless change passes at another seed too (paired again), and reseeds of the
    /// unchanged scenario — independent runs, the pairing gone — raise no alarm. Each check
    /// judges ~60 metrics at z = 4 (one-sided P ≈ 3·10⁻⁵ each): the chance of any false alarm
    /// in the 4 checks below is about 4 × 60 × 3·10⁻⁵ ≈ 0.7 % if the standard errors are right;
    /// a broken noise estimate (over letters instead of devices, or the pairing's noise used
    /// for independent runs) alarms on most of them. The 40 reseeds of docs/ci.md are release runs.
    @Test func noFalseAlarmsOverSeeds() throws {
        let gate = try Gate(seed: 2)
        let slower = try gate.check(["extension.processing=lognormal(220ms, 2s)"])
        #expect(slower.pairing.isPaired)
        expectEqual(slower.outcome, .pass, "\(slower.summaryLine)")
        for seed in 3...5 {
            let reseed = try gate.check(["seed=\(seed)"])
            guard case .independent(let why) = reseed.pairing else { Issue.record("seed \(seed) paired"); continue }
            #expect(why.contains("seed"))
            expectEqual(reseed.outcome, .pass, "seed \(seed): \(reseed.summaryLine)")
        }
    }

    /// The paired standard error is that of per-device differences: zero when every device
    /// did the same, √N·|d| when N devices each moved by d and the rest did not.
    @Test func pairedStandardErrorsAreThoseOfTheDifferences() {
        var same = PairedSpread()
        var one = PairedSpread()
        var counts = DeviceCounts(Ledger(), thresholds: nil)
        counts.counts = counts.counts.map { _ in 0 }
        counts.counts[0] = 10
        var moved = counts
        moved.counts[3] = 2
        for device in 0..<100 {
            same.add(now: counts, then: counts)
            one.add(now: device < 50 ? moved : counts, then: counts)
        }
        expectEqual(same.countDifferenceStandardError(3), 0)
        expectEqual(same.rateDifferenceStandardError(3), 0)
        // d is 2 on 50 devices and 0 on 50: Σ(d − d̄)² = 100 · 1, times 100/99.
        let expected = (100.0 * 100 / 99).squareRoot()
        #expect(abs(one.countDifferenceStandardError(3) - expected) < 1e-9)
        // The rate's letters are the same on both sides, so its error is the count's over the letters.
        #expect(abs(one.rateDifferenceStandardError(3) - expected / 1000) < 1e-12)
    }

    @Test func latencyTolerancesTakeDurations() throws {
        try expectEqual(CheckTolerance.parse("latency_s.p50=50ms"), CheckTolerance(arm: nil, key: "latency_s.p50", amount: .absolute(0.05)))
        try expectEqual(CheckTolerance.parse("on.latency_s.p99=1m30s"), CheckTolerance(arm: "on", key: "latency_s.p99", amount: .absolute(90)))
        try expectEqual(CheckTolerance.parse("latency_s.max=2"), CheckTolerance(arm: nil, key: "latency_s.max", amount: .absolute(2)))
        for bad in ["latency_s.p50=50 parsecs", "latency_s.p50=-5ms", "lost=5ms"] {
            #expect(throws: CheckInputError.self, "\(bad)") { try CheckTolerance.parse(bad) }
        }
    }

    @Test func anotherMajorVersionIsRefusedAMinorWarned() throws {
        let scenario = try ScenarioLoader.parse(text: CheckTestSupport.scenarioText(devices: 5), file: "t.yaml")
        var snapshot = try CheckSnapshot(json: RunSummary.document(Simulator.run(scenario), scenario: scenario), source: "b")
        expectEqual(snapshot.version, PushSimVersion.current)
        #expect(try CheckBaselineScenario.versionWarning(snapshot, path: "b", current: PushSimVersion.current) == nil)
        snapshot.version = "2.0.0"
        #expect(try CheckBaselineScenario.versionWarning(snapshot, path: "b", current: "2.0.0") == nil)
        snapshot.version = "2.1.0"
        try expectEqual(CheckBaselineScenario.versionWarning(snapshot, path: "b", current: "2.0.0")?.contains("2.1.0"), true)
        snapshot.version = "1.4.0"
        #expect(throws: CheckInputError.self) { try CheckBaselineScenario.versionWarning(snapshot, path: "b", current: "2.0.0") }
        snapshot.version = nil
        try expectEqual(CheckBaselineScenario.versionWarning(snapshot, path: "b", current: "2.0.0")?.contains("names no"), true)
    }

    /// Every bundled scenario's resolved_scenario reads back as the scenario it was printed from.
    @Test func resolvedScenariosReadBack() throws {
        for name in try CheckSession.scenarioFiles(in: Shell.packageRoot + "/scenarios") {
            let scenario = try ScenarioLoader.load(path: name)
            let json = RunSummary.scenarioJSON(scenario)
            let text = try #require(CheckBaselineScenario.yaml(json))
            let again = try ScenarioLoader.parse(text: text, file: name)
            expectEqual(RunSummary.scenarioJSON(again), json, "\(name)")
        }
    }
}
