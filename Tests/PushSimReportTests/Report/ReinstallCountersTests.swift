// App reinstalls' counters in `pushsim check` (up is worse, absent reads as 0) and in sweep metrics (per letter).
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
@testable import PushSimExperiment
@testable import PushSimReport
import PushSimTestSupport

@Suite struct ReinstallCountersTests {
    /// Daily reinstalls with a delay of hours: many letters dropped. APNs' latency of minutes to
    /// hours keeps pushes of the old install in flight past a reinstall, so some reach the new
    /// install after it saved a position (false gaps: 10 at 200 devices, seed 21).
    private func reinstalling(devices: Int = 200) throws -> Scenario {
        let text = CheckTestSupport.scenarioText(devices: devices)
            .replacingOccurrences(of: "latency: lognormal(150ms, 3s)", with: "latency: lognormal(5m, 2h)")
        return try ScenarioLoader.parse(text: text + "\n  reinstall: 1/d\n  reinstall_delay: exponential(2h)\n", file: "t.yaml")
    }

    /// False gaps are few, so between independent runs their noise is wide: their comparisons
    /// are made as a paired check of a run against itself makes them (every device's
    /// difference 0, so noise 0), with a margin of one gap.
    private static let oneFalseGap = CheckTolerance(arm: "on", key: falseGaps, amount: .absolute(1))

    private static let drops = "app_reinstalls.dropped_letters", falseGaps = "app_reinstalls.false_gaps"

    @Test func checkComparesDroppedLettersAndFalseGaps() throws {
        let (result, spreads) = CheckRun.run(try reinstalling(), thresholds: [], jobs: 1)
        let now = try CheckSnapshot(json: result.json, source: "now")
        let offDrops = try #require(now.arms.first?.values[Self.drops])
        let onDrops = try #require(now.arms.last?.values[Self.drops])
        let onFalseGaps = try #require(now.arms.last?.values[Self.falseGaps])
        #expect(offDrops > 0 && onDrops > 0 && onFalseGaps > 0)
        #expect(now.arms[0].values[Self.falseGaps] == nil, "false gaps are the queue arm's")
        func compare(_ edit: (inout [String: Double]) -> Void) throws -> CheckReport {
            var baseline = now
            edit(&baseline.arms[1].values)
            return try CheckComparison.compare(baseline: baseline, baselinePath: "b.json", now: result, spreads: spreads, tolerances: [])
        }
        try expectEqual(compare { _ in }.outcome, .identical)
        try expectEqual(compare { $0[Self.drops] = onDrops / 2 }.worse.map(\.name), ["on." + Self.drops])
        try expectEqual(compare { $0[Self.drops] = onDrops * 2 }.better.map(\.name), ["on." + Self.drops])
        func compareFalseGaps(baseline value: Double) throws -> CheckReport {
            var baseline = now
            baseline.arms[1].values[Self.falseGaps] = value
            return try CheckComparison.compare(baseline: baseline, baselinePath: "b.json", now: result, spreads: spreads,
                                               paired: [PairedSpread(), PairedSpread()], pairing: .paired,
                                               tolerances: [Self.oneFalseGap])
        }
        try expectEqual(compareFalseGaps(baseline: 0).worse.map(\.name), ["on." + Self.falseGaps])
        try expectEqual(compareFalseGaps(baseline: onFalseGaps + 5).better.map(\.name), ["on." + Self.falseGaps])
    }

    /// A document without `app_reinstalls` (no reinstall, or written before the check compared
    /// them) reads as 0: the same run checks identical against it, a run that drops letters is worse.
    @Test func aDocumentWithoutReinstallsReadsZero() throws {
        let plain = try ScenarioLoader.parse(text: CheckTestSupport.scenarioText(devices: 20), file: "t.yaml")
        let (plainResult, plainSpreads) = CheckRun.run(plain, thresholds: [], jobs: 1)
        let snapshot = try CheckSnapshot(json: plainResult.json, source: "b")
        #expect(snapshot.arms.first?.values[Self.drops] == 0 && snapshot.arms.last?.values[Self.falseGaps] == 0)
        let same = try CheckComparison.compare(baseline: snapshot, baselinePath: "b.json", now: plainResult,
                                               spreads: plainSpreads, tolerances: [])
        expectEqual(same.outcome, .identical)

        let (result, spreads) = CheckRun.run(try reinstalling(), thresholds: [], jobs: 1)
        var older = try CheckSnapshot(json: result.json, source: "now")
        for a in older.arms.indices { older.arms[a].values[Self.drops] = 0; older.arms[a].values[Self.falseGaps] = nil }
        older.arms[1].values[Self.falseGaps] = 0
        let report = try CheckComparison.compare(baseline: older, baselinePath: "b.json", now: result, spreads: spreads,
                                                 paired: [PairedSpread(), PairedSpread()], pairing: .paired,
                                                 tolerances: [Self.oneFalseGap])
        expectEqual(Set(report.worse.map(\.name)), ["off." + Self.drops, "on." + Self.drops, "on." + Self.falseGaps])
    }

    @Test func sweepMetricsCountThemPerLetter() throws {
        let result = Simulator.run(try reinstalling())
        let off = try #require(result.arms.first), on = try #require(result.arms.last)
        let offMetrics = ArmMetrics(off), onMetrics = ArmMetrics(on, offArm: result.offArm)
        #expect(off.ledger.appReinstalls.droppedLetters > 0 && on.ledger.appReinstalls.falseGaps > 0)
        expectEqual(offMetrics.values["reinstall_drops_per_letter"], Double(off.ledger.appReinstalls.droppedLetters) / Double(off.ledger.letters))
        expectEqual(onMetrics.values["reinstall_drops_per_letter"], Double(on.ledger.appReinstalls.droppedLetters) / Double(on.ledger.letters))
        expectEqual(onMetrics.values["false_gaps_per_letter"], Double(on.ledger.appReinstalls.falseGaps) / Double(on.ledger.letters))
        #expect(offMetrics.values["false_gaps_per_letter"] == nil)
        let plain = Simulator.run(try ScenarioLoader.parse(text: CheckTestSupport.scenarioText(devices: 20), file: "t.yaml"))
        for arm in plain.arms {
            #expect(ArmMetrics(arm).values["reinstall_drops_per_letter"] == nil && ArmMetrics(arm).values["false_gaps_per_letter"] == nil)
        }
    }
}
