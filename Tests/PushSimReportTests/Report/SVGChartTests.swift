// Tests of the SVG charts: well-formed XML (Foundation's parser), the expected series, labels.
import Foundation
@testable import PushSimCore
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import PushSimExperiment
@testable import PushSimReport
import PushSimTestSupport

@Suite struct SVGChartTests {
    @Test func everySweepChartIsWellFormedSVGWithTitleLabelsAndOneSeriesPerArmAndCombination() throws {
        let result = SweepReportTests.result
        for (name, svg) in result.charts {
            let probe = try #require(SVGProbe.parse(svg), "\(name) is not well-formed XML")
            expectEqual(probe.root, "svg")
            #expect(!probe.title.isEmpty)
            expectEqual(probe.classedText["x-label"], "queue.repeat_max_count: largest gap re-requested (letters)")
            expectEqual(probe.classedText["y-label"]?.isEmpty, false)
            expectEqual(probe.bands, probe.series, "\(name): a band for every line")
        }
        let loss = try #require(SVGProbe.parse(result.chart(SweepResult.chartSpecs[0]).svg))
        #expect(loss.series == ["no recovery (off arm) · apns.loss=0", "push queue (on arm) · apns.loss=0",
                                "no recovery (off arm) · apns.loss=5%", "push queue (on arm) · apns.loss=5%"])
        expectEqual(loss.classedText["y-label"], "loss rate (% of letters)")
        expectEqual(loss.circles, 4 * 3)
        let summaries = try #require(SweepResult.chartSpecs.first { $0.metric == "summaries_per_letter" })
        #expect(try #require(SVGProbe.parse(result.chart(summaries).svg)).series
                == ["push queue (on arm) · apns.loss=0", "push queue (on arm) · apns.loss=5%"])
    }

    @Test func textIsEscaped() throws {
        let chart = SVGChart(title: "a < b & \"c\"", subtitle: "", xLabel: "x's", yLabel: "y", categories: ["<1>", "2"],
                             series: [.init(name: "s&t", values: [1, nil], low: [0.5, nil], high: [1.5, nil])], percent: false)
        let probe = try #require(SVGProbe.parse(chart.svg))
        expectEqual(probe.title, "a < b & \"c\"")
        expectEqual(probe.series, ["s&t"])
    }

    @Test func aFlatOrEmptyChartStillDraws() throws {
        let flat = SVGChart(title: "t", subtitle: "", xLabel: "x", yLabel: "y", categories: ["only"],
                            series: [.init(name: "zero", values: [0], low: [0], high: [0])], percent: true)
        #expect(SVGProbe.parse(flat.svg) != nil)
        let empty = SVGChart(title: "t", subtitle: "", xLabel: "x", yLabel: "y", categories: [], series: [], percent: false)
        #expect(SVGProbe.parse(empty.svg) != nil)
    }
}
