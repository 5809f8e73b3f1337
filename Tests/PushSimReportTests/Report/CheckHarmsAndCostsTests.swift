// `pushsim check` judges the harm and cost set: the same figures the run reports, only where the design can have them, paired per device.
import Foundation
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
@testable import PushSimExperiment
@testable import PushSimReport
import PushSimTestSupport

@Suite struct CheckHarmsAndCostsTests {
    static let designs = SmallScenarios.directory.appendingPathComponent("designs.yaml").path

    static func scenario(_ recovery: String, extra: [String] = []) throws -> Scenario {
        try ScenarioLoader.load(path: designs, overrides: ["devices=50", "duration=3d", "recovery=\(recovery)"] + extra)
    }

    /// What `check` reads from an arm's JSON is what ``DesignMetrics`` measures, figure by
    /// figure; a figure the design cannot have is not read at all; and the per-device counts
    /// the run accumulates add up to the totals read.
    @Test func theSnapshotHoldsTheRunsFiguresWhereTheDesignHasThem() throws {
        for recovery in ["queue", "catch_up", "background_sync"] {
            let scenario = try Self.scenario(recovery)
            let (result, spreads) = CheckRun.run(scenario, thresholds: [nil, nil])
            let snapshot = try CheckSnapshot(json: result.json, source: recovery)
            for (a, arm) in result.arms.enumerated() {
                let measured = DesignMetrics.measure(arm)
                for figure in CheckMetrics.designFigures(arm.arm) {
                    let name = String(figure.key.dropFirst(DesignMetrics.prefix.count))
                    let read = snapshot.arms[a].values[figure.key]
                    if let value = measured.values[name] {
                        #expect(abs((read ?? -1) - value) <= 1e-12 * max(value, 1e-300), "\(recovery) \(arm.name) \(name)")
                    } else {
                        #expect(read == nil, "\(recovery) \(arm.name) \(name): n/a, never compared as 0")
                    }
                }
                for key in CheckSpread.designCountKeys {
                    guard let total = snapshot.arms[a].values[key], let k = CheckSpread.countKeys.firstIndex(of: key) else { continue }
                    expectEqual(Double(spreads[a].sum[k]), total, "\(recovery) \(arm.name) \(key)")
                }
            }
            // The design's own costs are there: a sync's silent pushes and wake-ups, a catch-up's fetches.
            let on = try #require(snapshot.arms.last).values
            switch recovery {
            case "background_sync":
                #expect((on["harms_and_costs.silent_pushes_per_letter"] ?? 0) > 0 && (on["harms_and_costs.wakeups_per_letter"] ?? 0) > 0)
                #expect((on["harms_and_costs.shown_twice_rate"] ?? 0) > (on["duplicate_rate"] ?? 0))
            case "catch_up": #expect((on["harms_and_costs.fetches_per_letter"] ?? 0) > 0)
            default: #expect(on["harms_and_costs.xiva_requests_per_letter"] != nil)
            }
        }
    }

    /// A sync throttled less wakes the app more often: `check` against the throttled baseline
    /// finds the wake-ups and fetches per letter worse beyond their paired noise, and the same
    /// scenario again identical.
    @Test func aCostThatRisesIsWorseAndTheSameRunIsIdentical() throws {
        let dir = TemporaryDirectory()
        let base = try Self.scenario("background_sync")
        let path = dir.file("summary.json")
        try RunSummary.document(Simulator.run(base), scenario: base).prettyText.write(toFile: path, atomically: true, encoding: .utf8)
        let same = try CheckSession.check(base, baselinePath: path)
        let rows = same.report.rows.filter { $0.metric.key.hasPrefix(DesignMetrics.prefix) }
        // The sync's five figures (no XIVA requests) and the off arm's alert pushes.
        expectEqual(rows.count, 6, "\(rows.map(\.name))")
        #expect(rows.allSatisfy { $0.verdict == .identical })
        let faster = try Self.scenario("background_sync", extra: ["device.background_sync.throttle=30/h"])
        let (report, _) = try CheckSession.check(faster, baselinePath: path)
        guard case .paired = report.pairing else { Issue.record("not paired: \(report.pairing)"); return }
        let wakeups = try #require(report.rows.first { $0.arm == "on" && $0.metric.key == "harms_and_costs.wakeups_per_letter" })
        #expect(wakeups.now > wakeups.baseline && wakeups.verdict == .worse, "\(wakeups.baseline) → \(wakeups.now) ± \(wakeups.tolerance ?? 0)")
        #expect(wakeups.noise > 0)
        #expect(!report.rows.contains { $0.metric.key == "harms_and_costs.xiva_requests_per_letter" }, "a sync sends XIVA no re-request")
    }
}
