// `pushsim check` compares the busiest bin of the load series (docs/ci.md, load peaks).
import Foundation
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
@testable import PushSimExperiment
@testable import PushSimReport
import PushSimTestSupport

@Suite struct LoadPeakCheckTests {
    func commuters() throws -> Scenario { try SmallScenarios.load("commuters", devices: 40) }

    /// The run's own document as a baseline, with one metric set to `value` (or removed).
    func baseline(_ result: RunResult, arm: Int, key: String, _ value: JSONValue?) throws -> CheckSnapshot {
        guard case .object(var top) = result.json, case .array(var runs)? = top["runs"],
              case .object(var fields) = runs[arm], case .object(var load)? = fields["load"] else {
            throw CheckInputError("no load object")
        }
        let parts = key.split(separator: ".").map(String.init)   // load.<quantity>.peak
        if case .object(var quantity)? = load[parts[1]] {
            quantity[parts[2]] = value
            load[parts[1]] = .object(quantity)
        }
        fields["load"] = .object(load)
        runs[arm] = .object(fields)
        top["runs"] = .array(runs)
        return try CheckSnapshot(json: .object(top), source: "baseline")
    }

    @Test func peaksAreComparedUpIsWorseWithPoissonNoiseAndATenPercentMargin() throws {
        let on = CheckMetrics.catalogue(.on).filter { $0.kind == .loadPeak }.map(\.key)
        let off = CheckMetrics.catalogue(.off).filter { $0.kind == .loadPeak }.map(\.key)
        expectEqual(on, ["load.pushes_sent.peak", "load.re_requests.peak"])
        expectEqual(off, ["load.pushes_sent.peak"])
        let metric = try #require(CheckMetrics.catalogue(.on).first { $0.key == "load.re_requests.peak" })
        #expect(metric.direction == .upIsWorse && metric.absentSkips)
        expectEqual(CheckMargins.defaultMargin(metric), .relative(0.10))
        // z·√(2·P): a peak of 50 has noise 4·10 = 40 at z = 4, whatever the spread.
        let noise = CheckComparison.statistical(metric, spread: CheckSpread(), histogram: LatencyHistogram(),
                                                baseline: 50, baselineValues: [:])
        #expect(abs(noise - CheckComparison.z * 10) < 1e-9)

        let result = Simulator.run(try commuters())
        let peak = try #require(CheckSnapshot(json: result.json, source: "now").arms[1].values["load.re_requests.peak"])
        #expect(peak > 0)
        // The same document: identical. A baseline whose peak was far lower: worse.
        let same = try CheckComparison.compare(baseline: try CheckSnapshot(json: result.json, source: "b"), baselinePath: "b",
                                               now: result, spreads: [])
        #expect(same.rows.filter { $0.metric.kind == .loadPeak }.allSatisfy { $0.verdict == .identical })
        expectEqual(same.rows.filter { $0.metric.kind == .loadPeak }.count, 3)
        let lower = try baseline(result, arm: 1, key: "load.re_requests.peak", .int(0))
        let report = try CheckComparison.compare(baseline: lower, baselinePath: "b", now: result, spreads: [])
        let row = try #require(report.rows.first { $0.arm == "on" && $0.metric.key == "load.re_requests.peak" })
        // Worse only when the peak passes z·√2 (the baseline's peak of 0 counts as 1) and the margin.
        expectEqual(row.verdict, (peak > CheckComparison.z * 2.squareRoot() ? .worse : .within))
    }

    @Test func aBaselineWithoutTheLoadObjectOrOfAnotherBinSkipsThePeaks() throws {
        let result = Simulator.run(try commuters())
        let without = try baseline(result, arm: 1, key: "load.re_requests.peak", nil)
        #expect(without.arms[1].values["load.re_requests.peak"] == nil)
        let report = try CheckComparison.compare(baseline: without, baselinePath: "b", now: result, spreads: [])
        #expect(!report.rows.contains { $0.arm == "on" && $0.metric.key == "load.re_requests.peak" })
        #expect(report.rows.contains { $0.arm == "on" && $0.metric.key == "load.pushes_sent.peak" })

        var scenario = try commuters()
        scenario.loadBin = SimTime(microseconds: 300 * SimTime.second)
        let coarse = try CheckSnapshot(json: Simulator.run(scenario).json, source: "coarse")
        #expect(coarse.arms.allSatisfy { $0.loadBinSeconds == 300 })
        let across = try CheckComparison.compare(baseline: coarse, baselinePath: "b", now: result, spreads: [])
        #expect(!across.rows.contains { $0.metric.kind == .loadPeak })
    }

    /// A minute unless the run is longer than 100 000 of them; then the first round width that
    /// holds it, and for runs of centuries whole days.
    @Test func theDefaultBinWidensOnlyForVeryLongRuns() {
        let minute = 60 * SimTime.second, day = SimTime.day
        func bin(_ end: Int64) -> Int64 { Scenario.defaultLoadBin(end: SimTime(microseconds: end)).microseconds }
        expectEqual(bin(7 * day), minute)
        expectEqual(bin(100_000 * minute), minute)
        expectEqual(bin(100_000 * minute + 1), 5 * minute)
        expectEqual(bin(365 * day), 15 * minute)
        #expect(bin(Int64.max) % day == 0 && Int64.max / bin(Int64.max) <= Scenario.maxDefaultLoadBins)
    }
}
