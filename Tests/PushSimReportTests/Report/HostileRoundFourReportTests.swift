// The fourth hostile round, the readers' side: damaged parts, baselines and logs from other
// hands, and the checked arithmetic of instants and bins.
import Foundation
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
@testable import PushSimExperiment
@testable import PushSimReport
import PushSimTestSupport

@Suite struct HostileRoundFourReportTests {
    /// ⌈span / bin⌉ with `span + bin - 1` overflowing for a bin near the clock's end.
    @Test func binCountIsTheCeilingOfTheQuotientUpToTheClocksEnd() {
        let max = Int64.max
        for (span, bin) in [(Int64(0), Int64(1)), (1, 1), (59, 60), (60, 60), (61, 60), (max, 1), (max, max - 1), (max, max), (1, max), (max - 1, max)] {
            let count = SimTime.binCount(span: span, bin: bin)
            // The closed form: the fewest bins whose widths add up to at least the span.
            let (covered, past) = Int64(count).multipliedReportingOverflow(by: bin)
            #expect(past || covered >= span, "\(span) / \(bin)")
            #expect(count == 0 || Int64(count - 1) * bin < span, "\(span) / \(bin)")
        }
        expectEqual(SimTime.binStart(3, bin: max / 2), max)
        expectEqual(SimTime.binStart(3, bin: 7), 21)
        expectEqual(SimTime.saturatingProduct(-2, max), Int64.min)
        let frame = LoadFrame(bin: max - 1, warmup: max - 2, duration: max - 1, end: max)
        expectEqual(frame.runBins, 2)
        #expect(!frame.measuredBins.isEmpty)
    }

    /// The load chart's axis: at most 40 ticks whatever the span, in years past a few of them.
    @Test func theLoadChartsTicksStayFewUpToTheClocksEnd() {
        for span in [SimTime.hour, SimTime.day, 365 * SimTime.day, 100 * 365 * SimTime.day, 100_000_000 * SimTime.day, Int64.max] {
            let step = LoadChart.tickStep(span: span)
            #expect(span / step + 1 <= LoadChart.maxTicks, "\(span)")
            if span >= 100 * 365 * SimTime.day {
                #expect(step % LoadChart.year == 0 && LoadChart.timeLabel(step, step: step).hasPrefix("year "), "\(span)")
            }
        }
        // Spans the old steps served keep their step.
        expectEqual(LoadChart.tickStep(span: 7 * SimTime.day), SimTime.day)
    }

    /// An extension log whose gap sizes add past 2^63 - 1 killed calibrate (the summary's sums).
    @Test func aLogWhoseGapSizesOverflowIsRefusedAtTheRow() throws {
        let huge = Int.max / 2 + 1
        let text = "device,time_us,position,gap_found,gap_size,answer\n"
            + "0,1,\(Int.max),1,\(huge),answered\n" + "0,2,\(Int.max),1,\(huge),answered\n"
        #expect(throws: ScenarioError.self) { try ExtensionLogReader.read(bytes: Array(text.utf8), file: "log.csv") }
        do {
            _ = try ExtensionLogReader.read(bytes: Array(text.utf8), file: "log.csv")
        } catch let error as ScenarioError {
            #expect(error.description.hasPrefix("log.csv:3:"), "\(error)")
            #expect(error.description.contains("`gap_size`: the gap sizes of the log add up past \(Int.max)"), "\(error)")
            // The column of the fifth field.
            let column = "0,2,\(Int.max),1,".count + 1
            #expect(error.description.hasPrefix("log.csv:3:\(column):"), "\(error)")
        }
        // One such row is fine: the sum is the row's.
        let one = "device,time_us,position,gap_found,gap_size,answer\n0,1,\(Int.max),1,\(huge),answered\n"
        try expectEqual(ExtensionLogReader.read(bytes: Array(one.utf8), file: "log.csv").count, 1)
    }

    /// A part with `load_frame.bin_us` of 2^63 - 1 (forever) and its checksum recomputed killed merge.
    @Test func aPartWithAForeverBinIsRefusedNamingTheKey() throws {
        let parts = try HostileParts.parts()
        let forged = HostileParts.forge(parts[0], setting: .int(Int.max), at: ["load_frame", "bin_us"])
        let refusal = HostileParts.refusal([forged, parts[1].json.text])
        expectEqual(refusal?.contains("`load_frame.bin_us`: expected a bin width below 9223372036854775807 µs"), true, "\(refusal ?? "merged")")
        // The largest a run gives is read (its rows past its one bin are then refused, as damage).
        let wide = HostileParts.forge(parts[0], setting: .int(Int.max - 1), at: ["load_frame", "bin_us"])
        expectEqual(HostileParts.refusal([wide, parts[1].json.text])?.contains("expected a bin width below"), false)
    }

    /// A load row at bin 99 999 of a run of a few bins was merged (totals one off the ledger).
    @Test func aLoadRowPastTheRunsBinsIsRefused() throws {
        let parts = try HostileParts.parts()
        let row: JSONValue = .array([.int(99_999)] + LoadQuantity.allCases.map { _ in .int(1) })
        let forged = HostileParts.forge(parts[0]) { top in
            var root = JSONValue.object(top)
            guard case .object(let o) = root, case .array(let arms)? = o["arms"], case .object(let arm) = arms[1],
                  case .array(let load)? = arm["load"] else { return }
            HostileParts.set(.array(load + [row]), at: ["arms", "1", "load"], in: &root)
            if case .object(let changed) = root { top = changed }
        }
        let refusal = HostileParts.refusal([forged, parts[1].json.text])
        expectEqual(refusal?.contains("`arms[1].load`: a row at bin 99999, past the run's"), true, "\(refusal ?? "merged")")
    }

    /// A part without `latency_seen` next to one with it was merged (seen p90 off the run's).
    @Test func aPartMissingTheSeenLatencyBesideOneWithItIsRefused() throws {
        let scenario = try ScenarioLoader.load(path: SmallScenarios.directory.appendingPathComponent("ios-today.yaml").path,
                                               overrides: ["devices=8", "duration=1d"])
        let parts = (0..<2).compactMap { ShardSpec(index: $0, count: 2) }.map { PartialResult.run(scenario, shard: $0) }
        guard case .object(let top) = parts[1].json, case .array(let arms)? = top["arms"], case .object(let arm) = arms[0],
              arm["latency_seen"] != nil else { Issue.record("the scenario no longer measures the seen latency"); return }
        let stripped = HostileParts.forge(parts[1], setting: .null, at: ["arms", "0", "latency_seen"])
        // `.null` at the key is read as a value; remove the key instead.
        let removed = HostileParts.forge(parts[1]) { top in
            guard case .array(var arms)? = top["arms"], case .object(var first) = arms[0] else { return }
            first["latency_seen"] = nil
            arms[0] = .object(first)
            top["arms"] = .array(arms)
        }
        #expect(HostileParts.refusal([parts[0].json.text, stripped]) != nil)
        let refusal = HostileParts.refusal([parts[0].json.text, removed])
        expectEqual(refusal?.contains("part-1: `arms[0].latency_seen`: missing, while part-0 has it"), true, "\(refusal ?? "merged")")
        #expect(HostileParts.refusal([parts[0].json.text, parts[1].json.text]) == nil)
    }

    /// `check --all` took `load.bin_s: -60` and `load: 5` as "identical".
    @Test func aBaselineWithADamagedLoadObjectIsRefused() throws {
        let result = Simulator.run(try SmallScenarios.load("quickstart", devices: 6))
        func damaged(_ change: (inout [String: JSONValue]) -> Void) -> String? {
            guard case .object(var top) = result.json, case .array(var runs)? = top["runs"], case .object(var fields) = runs[1] else { return "no runs" }
            change(&fields)
            runs[1] = .object(fields)
            top["runs"] = .array(runs)
            do { _ = try CheckSnapshot(json: .object(top), source: "b.json"); return nil } catch { return "\(error)" }
        }
        let negative = damaged { fields in
            guard case .object(var load)? = fields["load"] else { return }
            load["bin_s"] = .int(-60)
            fields["load"] = .object(load)
        }
        expectEqual(negative?.contains("b.json: runs[1] (queue on): 'load.bin_s' should be a width in seconds above 0, found -60"), true, "\(negative ?? "read")")
        let five = damaged { $0["load"] = .int(5) }
        expectEqual(five?.contains("b.json: runs[1] (queue on): 'load' should be an object (the load series), found a number"), true, "\(five ?? "read")")
        #expect(damaged { _ in } == nil)
    }
}

/// The round's own hunt, on the readers.
@Suite struct HostileRoundFourHuntReportTests {
    /// A part whose bin cuts its run into 10^18 bins made merge write a load.csv of that many rows.
    @Test func aPartWhoseBinCutsTheRunIntoTooManyBinsIsRefused() throws {
        let parts = try HostileParts.parts()
        let narrow = { (part: PartialResult) in
            HostileParts.forge(part) { top in
                var root = JSONValue.object(top)
                HostileParts.set(.int(1), at: ["load_frame", "bin_us"], in: &root)
                HostileParts.set(.int(Int.max / 2), at: ["size", "duration_us"], in: &root)
                if case .object(let changed) = root { top = changed }
            }
        }
        let refusal = HostileParts.refusal([narrow(parts[0]), narrow(parts[1])])
        expectEqual(refusal?.contains("more than the 10000000 a part's load series may hold"), true, "\(refusal ?? "merged")")
    }
}
