// Tests of sweep.md's cells: two significant digits of the interval, run-table units, no false precision.
import Testing
@testable import PushSimExperiment
@testable import PushSimReport
@testable import PushSimCore
import PushSimTestSupport

@Suite struct SweepMarkdownTests {
    private func cell(_ mean: Double, _ ci: Double?, _ unit: SweepMarkdown.Unit) -> String {
        SweepMarkdown.cell(MetricSummary(mean: mean, ci95: ci, count: 2), unit: unit)
    }

    @Test func theIntervalHasTwoSignificantDigitsAndTheMeanItsDecimalPlace() {
        expectEqual(cell(0.028941, 0.00052, .percent), "2.894 ± 0.052 %")
        expectEqual(cell(0.000111, 0.000011, .plain), "0.000111 ± 0.000011")
        expectEqual(cell(1994.04, 8.7, .duration), "1994.0 ± 8.7 s")
    }

    @Test func noSpreadMeansNoPlusMinusAndNoRunOfZeros() {
        expectEqual(cell(0, 0, .percent), "0 %")
        expectEqual(cell(0, nil, .plain), "0")
        expectEqual(cell(0.0123456, 0, .plain), "0.0123")
        #expect(cell(1e-9, 1e-15, .plain).contains("±"))
        for text in [cell(0, 0, .percent), cell(0.5, 0, .plain), cell(3, nil, .duration)] {
            #expect(!text.contains("± 0.0"), "false precision in \(text)")
        }
    }

    @Test func latenciesTakeTheRunTablesUnits() {
        expectEqual(cell(2.341, 0.011, .duration), "2.341 ± 0.011 s")
        expectEqual(cell(7200, 36, .duration), "2.000 ± 0.010 h")
        expectEqual(cell(6876, nil, .duration), "1.91 h")
    }

    @Test func theTerminalGetsNoImageLinksAndTheFileStillHasThem() {
        let result = SweepReportTests.result
        #expect(!result.markdown(charts: false).contains("]("))
        #expect(result.markdown.contains("![Letters lost](loss_rate.svg)"))
        #expect(result.markdown.contains("## How this was made"))
    }

    /// The binary interface's re-send load gets a column right after the queue's, only in a sweep that has it.
    @Test func optionalColumnsFollowTheReSendsInTheirOrder() throws {
        var result = SweepReportTests.result
        let header = { (r: SweepResult) in r.markdown(charts: false).split(separator: "\n").first { $0.hasPrefix("| `") } ?? "" }
        #expect(!header(result).contains("false gaps / letter") && !header(result).contains("reinstall drops / letter"))
        result.points[0].summaries[0].metrics["false_gaps_per_letter"] = MetricSummary(mean: 0.001, ci95: 0.0002, count: 2)
        result.points[0].summaries[0].metrics["fetches_per_letter"] = MetricSummary(mean: 0.1, ci95: 0.01, count: 2)
        result.points[0].summaries[0].metrics["reinstall_drops_per_letter"] = MetricSummary(mean: 0.002, ci95: 0.0003, count: 2)
        #expect(header(result).contains("| re-sent / letter | fetches / letter | reinstall drops / letter | false gaps / letter | latency p90 |"))
    }

    @Test func rewritesHaveAColumnOnlyWhereAPointHasThem() throws {
        var result = SweepReportTests.result
        let header = { (r: SweepResult) in r.markdown(charts: false).split(separator: "\n").first { $0.hasPrefix("| `") } ?? "" }
        #expect(!header(result).contains("rewrites / letter"))
        result.points[0].summaries[0].metrics["rewrites_per_letter"] = MetricSummary(mean: 0.0463, ci95: 0.0019, count: 2)
        #expect(header(result).contains("| re-sent / letter | rewrites / letter |"))
        #expect(result.markdown(charts: false).contains("0.0463 ± 0.0019"))
    }
}
