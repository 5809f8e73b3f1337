// The load series as reported: shards merge into the single run's bytes, the peak agrees with a
// count of the traces, the statistics and the chart (docs/model.md §14).
import Foundation
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
@testable import PushSimExperiment
@testable import PushSimReport
import PushSimTestSupport

@Suite struct LoadReportTests {
    /// 20 phones of the herd (two partitions of 10), back online together at 1d12h.
    func herd() throws -> Scenario {
        try ScenarioLoader.load(path: SmallScenarios.path("thundering-herd"),
                                overrides: ["devices=20", "xiva.partitions=2", "duration=1d13h", "drain=1h"])
    }

    @Test func shardsMergeIntoTheSingleRunsSeriesByteForByte() throws {
        for scenario in [try herd(), try SmallScenarios.load("commuters", devices: 30)] {
            let single = Simulator.run(scenario, jobs: 1)
            let parts = (0..<2).compactMap { ShardSpec(index: $0, count: 2) }.map { PartialResult.run(scenario, shard: $0) }
            let merged = try PartialResult.merge(try parts.reversed().flatMap { try PartialResult.read($0.json.text, source: "p") })
            expectEqual(LoadReport.csv(merged), LoadReport.csv(single))
            expectEqual(LoadChart(merged).svg, LoadChart(single).svg)
            expectEqual(merged.json.text, single.json.text)
            expectEqual(merged.loadFrame, single.loadFrame)
        }
    }

    /// Every bin of the run's series equals a count of the devices' traces: letters created, and
    /// re-requests sent (answered, queued, or sent into an outage), minute by minute.
    @Test func peakAndItsTimeAgreeWithATraceBasedCount() throws {
        let scenario = try herd()
        let run = Simulator.run(scenario, jobs: 1)
        guard let on = run.arms.first(where: { $0.arm == .on }) else { Issue.record("no queue arm"); return }
        var letters: [Int: Int] = [:], reRequests: [Int: Int] = [:]
        for device in 0..<scenario.devices {
            for entry in Simulator.trace(scenario, device: device, arm: .on).entries {
                let minute = Int(entry.time / SimTime.minute)
                switch entry.event {
                case .letterCreated: letters[minute, default: 0] += 1
                case .reRequestSent, .reRequestQueued, .reRequestSentDuringOutage: reRequests[minute, default: 0] += 1
                default: break
                }
            }
        }
        let load = on.ledger.load
        for b in 0..<max(load.bins, (letters.keys.max() ?? 0) + 1) {
            expectEqual(load.count(bin: b, .lettersIn), letters[b, default: 0], "letters in minute \(b)")
            expectEqual(load.count(bin: b, .reRequests), reRequests[b, default: 0], "re-requests in minute \(b)")
        }
        let stats = LoadStatistics(load, .reRequests, frame: run.loadFrame)
        let tracePeak = reRequests.max { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }
        #expect(stats.peak == tracePeak?.value && stats.peakBin == tracePeak?.key)
        // The herd comes back at 1d12h: its re-requests peak in that minute.
        expectEqual(stats.peakBin, Int((SimTime.day + 12 * SimTime.hour) / SimTime.minute))
        #expect(stats.peak > 0 && load.total(.reRequests) == on.ledger.reRequests)
    }

    @Test func statisticsAreOverTheMeasuredWindowAndScale() {
        var series = LoadSeries()
        for b in 0..<100 { series.add(b == 42 ? 50 : 2, bin: b, .reRequests) }
        series.add(7, bin: 130, .reRequests)       // in the drain: only the peak sees it
        let frame = LoadFrame(bin: SimTime.minute, warmup: 0, duration: 100 * SimTime.minute, end: 140 * SimTime.minute)
        let s = LoadStatistics(series, .reRequests, frame: frame)
        expectEqual(s.total, 2 * 99 + 50 + 7)
        #expect(abs(s.mean - Double(2 * 99 + 50) / 100) < 1e-12)
        expectEqual(s.p99, 2)
        expectEqual(s.p999, 50)
        expectEqual(s.peak, 50)
        expectEqual(s.peakBin, 42)
        let arm = ArmResult(.on, ledger: { var l = Ledger(); l.load = series; return l }())
        guard case .object(let load) = LoadReport.json(arm, frame: frame, devices: 500, fleet: 2_000_000),
              case .object(let r)? = load["re_requests"], case .object(let per)? = r["per_1000_devices"],
              case .object(let fleet)? = r["fleet"] else { Issue.record("no load object"); return }
        expectEqual(per["peak"], .double(100))
        #expect(fleet["peak"] == .double(200_000) && fleet["peak_per_s"] == .double(200_000.0 / 60))
        expectEqual(load["assumption"], .string(LoadReport.assumption))
    }

    /// Each text of the chart as a box: its width estimated from the font size and the length
    /// of the string (SVGText.estimatedWidth), its height the font size; no two boxes meet.
    static func textBoxes(_ svg: String) -> [(text: String, x0: Double, x1: Double, y0: Double, y1: Double)] {
        var boxes: [(text: String, x0: Double, x1: Double, y0: Double, y1: Double)] = []
        for line in svg.split(separator: "\n") where line.hasPrefix("<text") && !line.contains("rotate(") {
            func attribute(_ name: String) -> String? {
                guard let r = line.range(of: " \(name)=\"") else { return nil }
                return line[r.upperBound...].split(separator: "\"", maxSplits: 1).first.map(String.init)
            }
            guard let x = attribute("x").flatMap(Double.init), let y = attribute("y").flatMap(Double.init),
                  let open = line.firstIndex(of: ">"), let close = line.range(of: "</text>") else { continue }
            let text = String(line[line.index(after: open)..<close.lowerBound])
                .replacingOccurrences(of: "&amp;", with: "&").replacingOccurrences(of: "&lt;", with: "<")
            let size = attribute("font-size").flatMap(Double.init) ?? 12
            let width = SVGText.estimatedWidth(text, fontSize: size, bold: line.contains("bold"))
            let x0: Double
            switch attribute("text-anchor") {
            case "middle": x0 = x - width / 2
            case "end": x0 = x - width
            default: x0 = x
            }
            boxes.append((text, x0, x0 + width, y - size, y + size * 0.25))
        }
        return boxes
    }

    func overlaps(_ svg: String) -> [String] {
        let boxes = LoadReportTests.textBoxes(svg)
        var found: [String] = []
        for i in boxes.indices {
            for j in boxes.indices where j > i {
                let a = boxes[i], b = boxes[j]
                if a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1 { found.append("'\(a.text)' meets '\(b.text)'") }
            }
        }
        return found
    }

    @Test(arguments: [SimTime.hour, SimTime.day, 2 * SimTime.day + 6 * SimTime.hour, 9 * SimTime.day, 90 * SimTime.day])
    func theChartsTextsNeverOverlapAndTicksFallOnWholeHoursOrDays(span: Int64) {
        var series = LoadSeries()
        let bins = Int(span / SimTime.minute)
        for b in stride(from: 0, to: bins, by: 7) { series.add(b % 13 + 1, bin: b, .reRequests); series.add(3, bin: b, .lettersIn) }
        let result = RunResult(scenario: "a-scenario-with-a-long-name", seed: 1,
                               arms: [ArmResult(.on, ledger: { var l = Ledger(); l.load = series; return l }())],
                               devices: 0..<10, totalDevices: 10,
                               loadFrame: LoadFrame(bin: SimTime.minute, warmup: 0, duration: span, end: span))
        let svg = LoadChart(result).svg
        let boxes = LoadReportTests.textBoxes(svg)
        #expect(boxes.count > 8)
        expectEqual(overlaps(svg), [], "overlapping labels at a span of \(SimTime(microseconds: span))")
        let step = LoadChart.tickStep(span: span)
        #expect(step % SimTime.hour == 0 || (SimTime.hour % step == 0), "tick step \(step) µs is not a whole part of an hour or a multiple of one")
        // Every text inside the canvas.
        let width = Double(svg.split(separator: "\"")[7]) ?? 0
        #expect(boxes.allSatisfy { $0.x0 >= 0 && $0.x1 <= width }, "a text runs off the canvas of width \(width)")
    }

    @Test func theTableAndTheTelemetrySayTheirCaveats() throws {
        let scenario = try SmallScenarios.load("commuters", devices: 30)
        var result = Simulator.run(scenario, jobs: 1)
        result.loadFrame.fleet = 2_000_000
        let table = ReportTable(result, scenario: scenario).text
        #expect(table.contains("load per 1m of simulated time"))
        #expect(table.contains("at 2,000,000 devices, per second"))
        #expect(table.contains(LoadReport.assumption))
    }
}
