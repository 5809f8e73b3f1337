// Unit tests of the check's parts: the JSON reader, tolerances, standard errors, verdicts, the run.
import Foundation
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
@testable import PushSimExperiment
@testable import PushSimReport
import PushSimTestSupport

@Suite struct CheckComparisonTests {
    // MARK: reading JSON back

    @Test func jsonReadsBackWhatTheWriterWrote() throws {
        let value = JSONValue.object([
            "a": .array([.int(-3), .double(0.13857), .double(1e-7), .uint(UInt64.max), .null, .bool(true)]),
            "b": .string("quote \" back\\slash \n tab\t é 🙂"), "c": .object([:]), "d": .array([]),
        ])
        try expectEqual(JSONValue.parse(value.text), value)
        try expectEqual(JSONValue.parse(value.prettyText), value)
        try expectEqual(JSONValue.parse("\"\\u00e9\\ud83d\\ude42\""), .string("é🙂"))
    }

    @Test func jsonErrorsSayWhereAndWhat() {
        func message(_ text: String) -> String {
            do { _ = try JSONValue.parse(text); return "parsed" } catch { return "\(error)" }
        }
        expectEqual(message("{\"a\": 1,}"), "line 1, column 9: expected a key in quotes, found '}'")
        expectEqual(message("{\n  \"a\": tru\n}"), "line 2, column 8: expected a value, found 't'")
        expectEqual(message("[1] 2"), "line 1, column 5: unexpected text after the JSON document")
        #expect(message("{\"a\": 1, \"a\": 2}").contains("appears twice"))
        expectEqual(message("01"), "line 1, column 1: a number cannot start with 0")
        #expect(message(String(repeating: "[", count: 1000)).contains("nested too deeply"))
        expectEqual(message(""), "line 1, column 1: expected a value, found the end of the text")
    }

    // MARK: tolerances

    @Test func tolerancesParseAbsoluteRelativeAndPerArm() throws {
        try expectEqual(CheckTolerance.parse("loss_rate=0.001"), CheckTolerance(arm: nil, key: "loss_rate", amount: .absolute(0.001)))
        try expectEqual(CheckTolerance.parse("on.latency_s.p99=10%"), CheckTolerance(arm: "on", key: "latency_s.p99", amount: .relative(0.1)))
        try expectEqual(CheckTolerance.parse("off.causes.apns_replaced = 250"), CheckTolerance(arm: "off", key: "causes.apns_replaced", amount: .absolute(250)))
        try expectEqual(CheckTolerance.parse("re_requests=0"), CheckTolerance(arm: nil, key: "re_requests", amount: .absolute(0)))
        for bad in ["loss_rate", "loss=1", "loss_rate=-1", "loss_rate=abc", "loss_rate=%", "loss_rate=nan", "sideways.loss_rate=1"] {
            #expect(throws: CheckInputError.self, "\(bad)") { try CheckTolerance.parse(bad) }
        }
    }

    // MARK: standard errors over devices

    @Test func standardErrorsAreComputedOverDevices() {
        // Three devices: letters 10, 20, 30; lost 1, 4, 1.
        var spread = CheckSpread()
        for (letters, lost) in [(10, 1), (20, 4), (30, 1)] {
            var l = Ledger()
            for _ in 0..<lost { l.record(.lost(.networkLoss)) }
            for _ in 0..<(letters - lost) { l.record(.delivered(latency: 1000)) }
            spread.add(device: l, thresholds: nil)
        }
        let lost = CheckMetrics.countKeys.firstIndex(of: "lost") ?? -1
        // Total 6, per-device deviations −1, +2, −1: Σ = 6, ×3/2 = 9, se = 3.
        #expect(abs(spread.countStandardError(lost) - 3) < 1e-12)
        // Ratio 6/60 = 0.1; residuals 1−1, 4−2, 1−3 = 0, 2, −2: Σ² = 8, ×3/2 = 12, √12 / 60.
        #expect(abs(spread.rateStandardError(lost) - 12.0.squareRoot() / 60) < 1e-12)
        // Identical devices: no spread at all.
        var flat = CheckSpread()
        var l = Ledger(); l.record(.lost(.networkLoss)); l.record(.delivered(latency: 5))
        flat.add(device: l, thresholds: nil); flat.add(device: l, thresholds: nil)
        expectEqual(flat.countStandardError(lost), 0)
        expectEqual(flat.rateStandardError(lost), 0)
    }

    @Test func theSlowestDevicesAreKept() {
        var spread = CheckSpread()
        for device in 0..<40 {
            var l = Ledger()
            l.record(.delivered(latency: Int64(device * 7 % 40) * 1000))
            spread.add(device: l, thresholds: nil)
        }
        let slowest: [Int64] = (25..<40).reversed().map { Int64($0) * 1000 }
        expectEqual(spread.topDeviceMaxima, slowest)
    }

    // MARK: the run behind check

    @Test func checkRunGivesExactlyTheSimulatorsResult() throws {
        let scenario = try ScenarioLoader.parse(text: CheckTestSupport.scenarioText(devices: 60), file: "t.yaml")
        let plain = Simulator.run(scenario, jobs: 1)
        let thresholds = [CheckThresholds(quantileMicroseconds: [200_000, 2_000_000, 3_600_000_000])]
        let one = CheckRun.run(scenario, thresholds: thresholds + thresholds, jobs: 1)
        let three = CheckRun.run(scenario, thresholds: thresholds + thresholds, jobs: 3)
        expectEqual(one.result, plain)
        expectEqual(one.result.json.text, plain.json.text)
        expectEqual(three.result, plain)
        expectEqual(three.spreads, one.spreads)   // integer sums: the threads never matter
        expectEqual(one.spreads[0].devices, 60)
        expectEqual(one.spreads[0].sum[0], plain.arms[0].ledger.letters)
    }

    // MARK: verdicts

    @Test func directionsDecideWhatIsWorse() throws {
        let scenario = try ScenarioLoader.parse(text: CheckTestSupport.scenarioText(devices: 60), file: "t.yaml")
        let (result, spreads) = CheckRun.run(scenario, thresholds: [], jobs: 1)
        let now = try CheckSnapshot(json: result.json, source: "now")
        func compare(_ edit: (inout [String: Double]) -> Void, _ tolerances: [CheckTolerance] = []) throws -> CheckReport {
            var baseline = now
            edit(&baseline.arms[0].values)
            return try CheckComparison.compare(baseline: baseline, baselinePath: "b.json", now: result,
                                               spreads: spreads, tolerances: tolerances)
        }
        try expectEqual(compare { _ in }.outcome, .identical)
        let delivered = now.arms[0].values["delivered"] ?? 0
        try expectEqual(compare { $0["delivered"] = delivered * 2 }.worse.map(\.name), ["off.delivered"])
        try expectEqual(compare { $0["delivered"] = delivered / 2 }.better.map(\.name), ["off.delivered"])
        try expectEqual(compare { $0["latency_s.p50"] = 0 }.worse.map(\.name), ["off.latency_s.p50"])
        // The maximum: worse only when 15 devices beat the baseline's slowest; never "better".
        let slowest = now.arms[0].values["latency_s.max"] ?? 0
        try expectEqual(compare { $0["latency_s.max"] = 0 }.worse.map(\.name), ["off.latency_s.max"])
        try expectEqual(compare { $0["latency_s.max"] = slowest - 1e-6 }.outcome, .pass)
        try expectEqual(compare { $0["latency_s.max"] = slowest * 10 }.rows.first { $0.name == "off.latency_s.max" }?.verdict, .within)
        // letters and events are reported, never judged.
        let events = try compare { $0["events"] = 1 }
        expectEqual(events.outcome, .pass)
        expectEqual(events.rows.first { $0.name == "off.events" }?.verdict, .changed)
        // A given tolerance adds a margin to the statistical noise (never replaces it):
        // absolute, or relative to the baseline.
        let lost = now.arms[0].values["lost"] ?? 0
        let given = try compare({ $0["lost"] = lost - 10 }, [.init(arm: nil, key: "lost", amount: .absolute(9))])
        let row = try #require(given.rows.first { $0.name == "off.lost" })
        #expect(row.margin == 9 && row.tolerance == row.noise + 9 && row.noise > 0)
        expectEqual(row.verdict, (10 > row.noise + 9 ? .worse : .within))
        let beyond = (row.noise + 9).rounded(.up) + 20
        try expectEqual(compare({ $0["lost"] = lost - beyond }, [.init(arm: nil, key: "lost", amount: .absolute(9))]).outcome, .regression)
        try expectEqual(compare({ $0["lost"] = lost - beyond }, [.init(arm: nil, key: "lost", amount: .absolute(beyond))]).outcome, .pass)
        let otherArm = try compare({ $0["lost"] = lost - 10 }, [.init(arm: "on", key: "lost", amount: .absolute(10))])
        expectEqual(otherArm.rows.first { $0.name == "off.lost" }?.toleranceSource, "statistical")
        expectEqual(otherArm.rows.first { $0.name == "on.lost" }?.toleranceSource, "statistical+given")
        try expectEqual(compare({ $0["lost"] = lost / 2 }, [.init(arm: nil, key: "lost", amount: .relative(1.0))]).outcome, .pass)
    }
}
