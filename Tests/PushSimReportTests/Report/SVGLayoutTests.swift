// Tests of chart layout: every text inside the canvas, legends clear of the plot, losses drawn last.
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
@testable import PushSimExperiment
@testable import PushSimReport
import PushSimTestSupport

/// The geometry of an SVG document: canvas, plot area, each text's box by estimated width.
final class SVGLayoutProbe: NSObject, XMLParserDelegate {
    struct Box { var text: String; var minX, maxX, minY, maxY: Double; var inLegend: Bool }
    var width = 0.0, height = 0.0
    var plot: (x: Double, y: Double, width: Double, height: Double)?
    var boxes: [Box] = []
    var eventFills: [String] = []
    private var legendDepth = 0
    private var depth = 0
    private var open: (attributes: [String: String], text: String)?

    static func parse(_ svg: String) -> SVGLayoutProbe? { parseXML(svg, into: SVGLayoutProbe()) }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes a: [String: String] = [:]) {
        depth += 1
        func n(_ key: String) -> Double { Double(a[key] ?? "") ?? 0 }
        switch name {
        case "svg": width = n("width"); height = n("height")
        case "rect" where a["class"] == "plot-area": plot = (n("x"), n("y"), n("width"), n("height"))
        case "g" where a["class"] == "legend": legendDepth = depth
        case "circle" where a["class"] == "event": eventFills.append(a["fill"] ?? "")
        case "text": open = (a, "")
        default: break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { open?.text += string }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if name == "text", let (a, text) = open {
            let size = Double(a["font-size"] ?? "") ?? 12
            let w = SVGText.estimatedWidth(text, fontSize: size, bold: a["font-weight"] == "bold")
            let x = Double(a["x"] ?? "") ?? 0, y = Double(a["y"] ?? "") ?? 0
            var box: Box
            switch a["text-anchor"] {
            case "middle": box = Box(text: text, minX: x - w / 2, maxX: x + w / 2, minY: y - size, maxY: y + size * 0.25, inLegend: false)
            case "end": box = Box(text: text, minX: x - w, maxX: x, minY: y - size, maxY: y + size * 0.25, inLegend: false)
            default: box = Box(text: text, minX: x, maxX: x + w, minY: y - size, maxY: y + size * 0.25, inLegend: false)
            }
            if a["transform"]?.hasPrefix("rotate(-90") == true {
                // Turned a quarter: its length runs up and down around (x, y).
                box = Box(text: text, minX: x - size, maxX: x + size * 0.25, minY: y - w / 2, maxY: y + w / 2, inLegend: false)
            }
            box.inLegend = legendDepth > 0
            boxes.append(box)
            open = nil
        }
        if name == "g" && depth == legendDepth { legendDepth = 0 }
        depth -= 1
    }

    /// The texts that stick out of the canvas.
    var outside: [String] { boxes.filter { $0.minX < 0 || $0.maxX > width || $0.minY < 0 || $0.maxY > height }.map(\.text) }

    /// Legend texts whose box meets the plot area.
    var legendOverPlot: [String] {
        guard let p = plot else { return ["no plot area"] }
        return boxes.filter(\.inLegend).filter { b in
            b.maxX > p.x && b.minX < p.x + p.width && b.maxY > p.y && b.minY < p.y + p.height
        }.map(\.text)
    }
}

@Suite struct SVGLayoutTests {
    /// A two-axis sweep names the second axis's value in every legend entry: the case that used to be cut off.
    static let twoAxisResult: SweepResult = {
        let axes = [SweepFixture.axis, SweepAxis(path: "connectivity.windows", values: ["[{start: 8h, end: 9h}]", "[{start: 8h, end: 8h40m, every: 1d}]"])]
        guard let plan = try? SweepFixture.plan(axes, replications: 2) else {
            return SweepResult(scenario: "", axes: [], seeds: [], points: [])
        }
        var result = SweepRunner.run(plan)
        result.overrides = ["apns.expiration=1h", "xiva.retention=forever"]
        return result
    }()

    @Test func everyChartTextIsInsideTheCanvasAndTheLegendClearOfThePlot() throws {
        #expect(!Self.twoAxisResult.points.isEmpty)
        for (name, svg) in Self.twoAxisResult.charts + SweepReportTests.result.charts {
            let probe = try #require(SVGLayoutProbe.parse(svg), "\(name) is not well-formed")
            #expect(probe.boxes.filter(\.inLegend).count >= 3, "\(name): legend entries and the note")
            #expect(probe.outside.isEmpty, "\(name): text outside the canvas: \(probe.outside)")
            #expect(probe.legendOverPlot.isEmpty, "\(name): legend over the plot: \(probe.legendOverPlot)")
        }
    }

    @Test func chartSubtitlesSayHowTheSweepWasMade() throws {
        let svg = try #require(Self.twoAxisResult.charts.first?.svg)
        #expect(svg.contains("PushSim \(PushSimVersion.current) · seed 5 · --set apns.expiration=1h --set xiva.retention=forever"))
        let other = SweepReportTests.result.charts.first?.svg ?? ""
        #expect(other.contains("the file as written"))
    }

    @Test func aLongTitleWidensTheCanvasInsteadOfRunningOff() throws {
        let chart = SVGChart(title: String(repeating: "a very long title ", count: 8), subtitle: "one\ntwo\nthree",
                             xLabel: "x", yLabel: "y", categories: ["1", "2"],
                             series: [SVGChart.Series(name: String(repeating: "long legend ", count: 10), values: [1, 2], low: [1, 2], high: [1, 2])],
                             percent: false)
        let probe = try #require(SVGLayoutProbe.parse(chart.svg))
        #expect(probe.outside.isEmpty, "\(probe.outside)")
        #expect(probe.legendOverPlot.isEmpty)
        // Three subtitle lines push the plot down below them.
        let subtitleBottom = probe.boxes.filter { $0.text == "three" }.map(\.maxY).max() ?? 0
        #expect((probe.plot?.y ?? 0) > subtitleBottom)
    }

    @Test func traceSVGDrawsLossesLastHasALegendAndKeepsTextInside() throws {
        let scenario = try TraceFixture.scenario()
        let (entries, _) = Simulator.trace(scenario, device: 0, arm: .off)
        let svg = TraceSVG(title: "trace · t", entries: entries, from: 0, to: scenario.end.microseconds, onlineAtStart: true).svg
        let probe = try #require(SVGLayoutProbe.parse(svg))
        let red = "#d62728"
        let firstRed = try #require(probe.eventFills.firstIndex(of: red), "the fixture loses letters in its offline window")
        #expect(probe.eventFills[firstRed...].allSatisfy { $0 == red }, "a loss drawn under another dot")
        let legend = probe.boxes.filter(\.inLegend).map(\.text)
        #expect(legend.contains("a copy lost") && legend.contains("device offline") && legend.contains("shown to the user"))
        #expect(probe.outside.isEmpty, "\(probe.outside)")
        #expect(probe.legendOverPlot.isEmpty)
    }

    @Test func traceTickLabelsHaveThePrecisionOfTheirStep() {
        let t = SimTime.day + 7 * SimTime.hour
        expectEqual(TraceSVG.tickLabel(t, step: SimTime.hour), "d1 07:00")
        expectEqual(TraceSVG.tickLabel(t + 5 * SimTime.second, step: SimTime.second), "d1 07:00:05")
        expectEqual(TraceSVG.tickLabel(t + 5 * SimTime.millisecond, step: 100 * SimTime.millisecond), "d1 07:00:00.005")
    }
}
