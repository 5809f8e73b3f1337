// Hostile round three, the input side: many segments in linear time, tiny profile weights, sub-bit bandwidths, a `|` in a name, messages that blame the right thing.
import Foundation
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
@testable import PushSimExperiment
@testable import PushSimReport
import PushSimTestSupport

@Suite struct HostileInputRoundThreeTests {
    private func parse(_ text: String, _ overrides: [String] = []) throws -> Scenario {
        try ScenarioLoader.parse(text: text, file: "h.yaml", overrides: overrides)
    }
    private func error(_ text: String, _ overrides: [String] = []) -> ScenarioError? {
        do { _ = try parse(text, overrides); return nil } catch { return error as? ScenarioError }
    }
    private let base = "name: h\nduration: 1d\ndevices: 4\n"

    /// Duplicate names are found by look-up: 10^5 segments read in linear time (they took 21 s
    /// when each name was compared with every earlier one). The ceiling only catches a hang.
    @Test func aHundredThousandSegmentsReadQuicklyAndADuplicateIsStillFound() throws {
        let count = 100_000
        var text = base + "segments:\n"
        for i in 0..<count { text += "  - {name: s\(i), share: 0.00001}\n" }
        let started = Date()
        let scenario = try parse(text)
        expectEqual(scenario.segments.count, count)
        #expect(Date().timeIntervalSince(started) < 60)
        let duplicate = error(text + "  - {name: s7, share: 0}\n")
        expectEqual(duplicate?.message.contains("duplicate segment name `s7` (first at line 12, column "), true)
        expectEqual(duplicate?.location?.line, count + 5)
    }

    /// Weights whose mean underflows still put the mail where they say: `[5e-324, 0, …]` is all
    /// of it in hour 0, as `[1, 0, …]` is (it used to spread over the whole day).
    @Test func profileWeightsTooSmallToAverageKeepTheirShape() throws {
        let tiny = DailyProfile(weights: [Double.leastNonzeroMagnitude] + Array(repeating: 0, count: 23))
        let plain = DailyProfile(weights: [1] + Array(repeating: 0, count: 23))
        expectEqual(tiny.factor, plain.factor)
        // 5e-324 in the plain digits the reader takes (it reads no exponent).
        let smallest = "0." + String(repeating: "0", count: 323) + "5"
        let profile = "[" + ([smallest] + Array(repeating: "0", count: 23)).joined(separator: ", ") + "]"
        let scenario = try parse(base + "mail:\n  rate: 200/d\n  daily_profile: \(profile)\n")
        var instants: [Int64] = [], scratch: [BurstLetter] = []
        MailTraffic.instants(scenario, device: 0, into: &instants, scratch: &scratch)
        #expect(instants.count > 50)
        #expect(instants.allSatisfy { $0 % SimTime.day <= SimTime.hour })
        // Ordinary weights are divided exactly as before (no result moves).
        let weights: [Double] = [1, 1, 1, 1, 1, 1, 2, 4, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 5, 4, 3, 2, 1, 1]
        let mean = weights.reduce(0, +) / 24
        expectEqual(DailyProfile(weights: weights).factor, weights.map { $0 / mean })
    }

    /// A bandwidth is held in whole bits per second: under one it is refused (it was simulated
    /// as 1 bit/s and printed as `0bit/s`, which does not read back), at one it reads back.
    @Test func bandwidthsUnderOneBitPerSecondAreRefusedAndOneReadsBack() throws {
        for value in ["0.4bit/s", "uniform(0.4bit/s, 2bit/s)", "exponential(0.0001kbit/s)"] {
            let refused = error(base, ["extension.media={share: 0.3, size: 1KB, bandwidth: \(value)}"])
            expectEqual(refused?.message.contains("expected at least 1bit/s, found `"), true, "\(value): \(String(describing: refused))")
        }
        let scenario = try parse(base, ["extension.media={share: 0.3, size: 1KB, bandwidth: 1bit/s}"])
        let printed = ScenarioPrinter.yaml(scenario)
        #expect(printed.contains("bandwidth: 1bit/s"))
        let again = try ScenarioLoader.parse(text: printed, file: "printed.yaml")
        expectEqual(again.extension.media?.bandwidth, scenario.extension.media?.bandwidth)
    }

    /// A `|` in a segment's name is a literal bar in summary.md, not a new column.
    @Test func aBarInASegmentNameKeepsTheMarkdownTableWhole() throws {
        let scenario = try parse(base + "segments:\n  - {name: \"a|b\", share: 50%}\n  - {name: c, share: 50%}\n")
        let markdown = ReportTable(Simulator.run(scenario), size: RunSize(scenario)).markdown
        let rows = markdown.split(separator: "\n").filter { $0.hasPrefix("|") }
        let columns = { (row: Substring) in row.replacingOccurrences(of: "\\|", with: "").count { $0 == "|" } }
        #expect(rows.count > 10)
        expectEqual(Set(rows.map(columns)).count, 1, "\(rows.filter { columns($0) != columns(rows[0]) })")
        #expect(markdown.contains("segment a\\|b"))
        expectEqual(MarkdownTable.cell("x|y\nz"), "x\\|y z")
    }

    /// A parameter written above zero that the clock holds as zero is named as such.
    @Test func aMedianThatRoundsToZeroSaysSo() {
        let refused = error(base, ["apns.latency=lognormal(0.001us, 1us)"])
        expectEqual(refused?.message.contains("(`0.001us` is 0 in whole microseconds, the clock's unit)"), true, "\(String(describing: refused))")
        let plain = error(base, ["apns.latency=lognormal(0, 1us)"])
        expectEqual(plain?.message.contains("is 0 in whole"), false)
    }

    /// A spread that alone carries a repeating window past the clock's end is blamed, not `every`.
    @Test func aSpreadPastTheClocksEndIsBlamedOnTheSpread() {
        let spread = error(base + "connectivity:\n  windows:\n    - {start: 1h, end: 2h, every: 1000000d, spread: 106000000d}\n")
        expectEqual(spread?.message.hasPrefix("`connectivity.windows[0].spread`: shifting the window"), true, "\(String(describing: spread))")
        expectEqual(spread?.location?.column, 53)
        let every = error(base + "connectivity:\n  windows:\n    - {start: 1h, end: 2h, every: 106751990d}\n")
        expectEqual(every?.message.hasPrefix("`connectivity.windows[0].every`"), true, "\(String(describing: every))")
    }
}
