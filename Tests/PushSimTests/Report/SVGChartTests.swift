// Tests of the SVG charts: well-formed XML (Foundation's parser), the expected series, labels.
import Foundation
@testable import PushSimCore
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import PushSimExperiment
@testable import PushSimReport

/// Collects what a test wants to know about an SVG document while XMLParser reads it.
final class SVGProbe: NSObject, XMLParserDelegate {
    var root: String?
    var series: [String] = []
    var bands: [String] = []
    var classedText: [String: String] = [:]
    var title = ""
    var circles = 0
    private var path: [String] = []
    private var currentClass: String?
    private var text = ""

    /// Parses `svg`; nil when it is not well-formed XML.
    static func parse(_ svg: String) -> SVGProbe? { parseXML(svg, into: SVGProbe()) }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        if root == nil { root = name }
        if name == "g", attributes["class"] == "series", let s = attributes["data-series"] { series.append(s) }
        if name == "polygon", attributes["class"] == "band", let s = attributes["data-series"] { bands.append(s) }
        if name == "circle" { circles += 1 }
        currentClass = attributes["class"]
        path.append(name)
        text = ""
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if name == "title" && path.count == 2 { title = text }
        if name == "text", let c = currentClass { classedText[c] = text }
        currentClass = nil
        path.removeLast()
    }
}

/// Runs `probe` over `svg`; nil when it is not well-formed XML.
func parseXML<Probe: NSObject & XMLParserDelegate>(_ svg: String, into probe: Probe) -> Probe? {
    let parser = XMLParser(data: Data(svg.utf8))
    parser.delegate = probe
    return parser.parse() ? probe : nil
}

@Suite struct SVGChartTests {
    @Test func everySweepChartIsWellFormedSVGWithTitleLabelsAndOneSeriesPerArmAndCombination() throws {
        let result = SweepReportTests.result
        for (name, svg) in result.charts {
            let probe = try #require(SVGProbe.parse(svg), "\(name) is not well-formed XML")
            #expect(probe.root == "svg")
            #expect(!probe.title.isEmpty)
            #expect(probe.classedText["x-label"] == "queue.repeat_max_count: largest gap re-requested (letters)")
            #expect(probe.classedText["y-label"]?.isEmpty == false)
            #expect(probe.bands == probe.series, "\(name): a band for every line")
        }
        let loss = try #require(SVGProbe.parse(result.chart(SweepResult.chartSpecs[0]).svg))
        #expect(loss.series == ["queue off · apns.loss=0", "queue on · apns.loss=0",
                                "queue off · apns.loss=5%", "queue on · apns.loss=5%"])
        #expect(loss.classedText["y-label"] == "loss rate (% of letters)")
        #expect(loss.circles == 4 * 3)
        let summaries = try #require(SweepResult.chartSpecs.first { $0.metric == "summaries_per_letter" })
        #expect(try #require(SVGProbe.parse(result.chart(summaries).svg)).series
                == ["queue on · apns.loss=0", "queue on · apns.loss=5%"])
    }

    @Test func textIsEscaped() throws {
        let chart = SVGChart(title: "a < b & \"c\"", subtitle: "", xLabel: "x's", yLabel: "y", categories: ["<1>", "2"],
                             series: [.init(name: "s&t", values: [1, nil], low: [0.5, nil], high: [1.5, nil])], percent: false)
        let probe = try #require(SVGProbe.parse(chart.svg))
        #expect(probe.title == "a < b & \"c\"")
        #expect(probe.series == ["s&t"])
    }

    @Test func aFlatOrEmptyChartStillDraws() throws {
        let flat = SVGChart(title: "t", subtitle: "", xLabel: "x", yLabel: "y", categories: ["only"],
                            series: [.init(name: "zero", values: [0], low: [0], high: [0])], percent: true)
        #expect(SVGProbe.parse(flat.svg) != nil)
        let empty = SVGChart(title: "t", subtitle: "", xLabel: "x", yLabel: "y", categories: [], series: [], percent: false)
        #expect(SVGProbe.parse(empty.svg) != nil)
    }
}
