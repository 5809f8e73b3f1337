// `pushsim check` compares the latency seen by the user when both documents measure it (docs/ci.md).
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
@testable import PushSimExperiment
@testable import PushSimReport
import PushSimTestSupport

@Suite struct SeenLatencyCheckTests {
    /// The check scenario (300 phones, 2 days) whose users all get the app's notifications in a
    /// scheduled summary at `times`.
    func scenario(times: String) throws -> Scenario {
        let text = CheckTestSupport.scenarioText().replacingOccurrences(
            of: "  alerts_off: 5%", with: "  alerts_off: 5%\n  notification_summary: {share: 100%, times: \(times)}")
        return try ScenarioLoader.parse(text: text, file: "t.yaml")
    }

    func check(baseline: Scenario, now: Scenario) throws -> CheckReport {
        let snapshot = try CheckSnapshot(json: Simulator.run(baseline).json, source: "baseline")
        let (result, spreads) = CheckRun.run(now, thresholds: CheckComparison.thresholds(snapshot))
        return try CheckComparison.compare(baseline: snapshot, baselinePath: "baseline", now: result, spreads: spreads)
    }

    @Test func theSeenPercentilesAreDeclaredAndSkippedWhenAbsent() throws {
        for arm in [Arm.off, .on] {
            let seen = CheckMetrics.catalogue(arm).filter(\.isSeenLatency)
            expectEqual(seen.map(\.key), ["latency_seen_s.p50", "latency_seen_s.p90", "latency_seen_s.p99"])
            #expect(seen.allSatisfy { $0.absentSkips && $0.direction == .upIsWorse })
        }
        // A run without a summary or a Focus writes no seen latency: nothing of it is compared.
        let plain = try ScenarioLoader.parse(text: CheckTestSupport.scenarioText(devices: 40), file: "p.yaml")
        let report = try check(baseline: plain, now: plain)
        #expect(!report.rows.contains { $0.metric.isSeenLatency })
    }

    /// The same scenario is identical on every seen percentile; dropping the noon summary makes
    /// the user see letters hours later while the phone gets them as before: the seen
    /// percentiles are worse, the delivered ones identical.
    @Test func aLaterSummaryIsWorseOnlyWhereTheUserSeesIt() throws {
        let base = try scenario(times: "[8h, 12h, 18h]")
        let same = try check(baseline: base, now: base)
        let seenRows = same.rows.filter(\.metric.isSeenLatency)
        #expect(seenRows.count == 6 && seenRows.allSatisfy { $0.verdict == .identical })

        let later = try check(baseline: base, now: try scenario(times: "[8h, 18h]"))
        for arm in ["off", "on"] {
            let rows = later.rows.filter { $0.arm == arm }
            let p50 = try #require(rows.first { $0.metric.key == "latency_seen_s.p50" })
            #expect(p50.now > p50.baseline + 3600 && p50.verdict == .worse, "\(arm): \(p50)")
            #expect(rows.filter { $0.metric.key.hasPrefix("latency_s.") }.allSatisfy { $0.verdict == .identical })
        }
    }

    /// `--tolerance latency_seen_s.p90=30m` takes a duration, as `latency_s`'s do.
    @Test func aSeenToleranceTakesADuration() throws {
        let tolerance = try CheckTolerance.parse("on.latency_seen_s.p90=30m")
        expectEqual(tolerance.key, "latency_seen_s.p90")
        expectEqual(tolerance.amount, .absolute(1800))
    }
}
