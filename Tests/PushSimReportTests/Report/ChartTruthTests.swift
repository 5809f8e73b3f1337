// Charts that tell the truth, checked on the SVG: a numeric axis places its points in proportion
// to their values, names are drawn as categories (points with intervals, no line across them),
// a point alone still shows its interval, and no two texts overlap.
import Foundation
import Testing
@testable import PushSimReport
import PushSimTestSupport

@Suite struct ChartTruthTests {
    static func chart(_ categories: [String], axis: SVGChart.XAxis = .byValue, series: Int = 2) -> String {
        var chart = SVGChart(title: "Letters lost", subtitle: "a test", xLabel: "x", yLabel: "loss rate", categories: categories,
                             series: (0..<series).map { s in
                                 let values = categories.indices.map { Optional(0.01 * Double($0 + 1 + s)) }
                                 return SVGChart.Series(name: "arm \(s)", values: values, low: values.map { $0.map { $0 - 0.004 } },
                                                        high: values.map { $0.map { $0 + 0.004 } }, dashed: s == 0)
                             }, percent: true)
        chart.xAxis = axis
        return chart.svg
    }

    /// The x of every point of the first series, in order.
    static func pointXs(_ svg: String, series: String = "arm 0") -> [Double] {
        guard let group = svg.range(of: "<g class=\"series\" data-series=\"\(series)\">"),
              let end = svg.range(of: "</g>", range: group.upperBound..<svg.endIndex) else { return [] }
        let body = String(svg[group.upperBound..<end.lowerBound])
        let regex = try! NSRegularExpression(pattern: #"<circle cx="([0-9.]+)""#)
        return regex.matches(in: body, range: NSRange(body.startIndex..., in: body)).compactMap {
            Range($0.range(at: 1), in: body).flatMap { Double(body[$0]) }
        }
    }

    @Test func aNumericAxisIsProportionalToItsValues() throws {
        let values = [0.0, 1, 2, 3, 5, 8, 13, 20, 30, 40, 50]
        let svg = Self.chart(values.map { String(Int($0)) })
        let xs = Self.pointXs(svg)
        try #require(xs.count == values.count)
        for (x, v) in zip(xs, values) {
            // Positions are written to 0.1 px over 422 px.
            #expect(abs((x - xs[0]) / (xs.last! - xs[0]) - v / 50) < 0.001, "\(v) at \(x)")
        }
        #expect(svg.contains("<polyline"))
        #expect(SVGTextBoxes.overlaps(svg)?.isEmpty == true, "\(SVGTextBoxes.overlaps(svg) ?? [])")
        // Every tick is drawn, and the first and last values are labelled.
        #expect(svg.components(separatedBy: "y2=\"").count - 1 >= values.count)
        #expect(svg.contains(">0</text>") && svg.contains(">50</text>"))
    }

    @Test func namesAreCategoriesWithoutALineAcross() throws {
        let svg = Self.chart(["queue", "catch_up", "background_sync", "none"])
        #expect(!svg.contains("<polyline"), "a line across designs")
        #expect(!svg.contains("class=\"band\""))
        #expect(svg.components(separatedBy: "class=\"interval\"").count - 1 == 8, "an interval for every point of both arms")
        let first = Self.pointXs(svg, series: "arm 0"), second = Self.pointXs(svg, series: "arm 1")
        try #require(first.count == 4 && second.count == 4)
        // Evenly spaced categories, the two arms side by side at each.
        for i in 1..<4 { #expect(abs((first[i] - first[i - 1]) - (first[1] - first[0])) < 0.2) }
        for i in 0..<4 { #expect(second[i] > first[i] && second[i] - first[i] < 20) }
        #expect(svg.contains("point: mean; bar: 95 % CI"))
        #expect(SVGTextBoxes.overlaps(svg)?.isEmpty == true)
    }

    @Test func aPointAloneShowsItsInterval() {
        let svg = Self.chart(["10"], series: 1)
        #expect(svg.components(separatedBy: "class=\"interval\"").count - 1 == 1)
    }

    @Test func anAxisInTheOrderGivenStaysEven() throws {
        // Time bins and other series drawn in order keep their even spacing and their line.
        let svg = Self.chart(["0", "1", "10", "100"], axis: .evenly)
        let xs = Self.pointXs(svg)
        try #require(xs.count == 4)
        #expect(abs((xs[2] - xs[1]) - (xs[1] - xs[0])) < 0.2)
        #expect(svg.contains("<polyline"))
    }

    @Test func thePlainStyleHasNoTitleAndLargerText() throws {
        var chart = SVGChart(title: "Letters lost", subtitle: "quickstart · 5 replications", xLabel: "x", yLabel: "loss rate",
                             categories: ["0", "1", "2", "5", "50"],
                             series: [SVGChart.Series(name: "queue on", values: [0.1, 0.05, 0.02, 0.01, 0.01], low: [0.09, 0.04, 0.01, 0, 0],
                                                      high: [0.11, 0.06, 0.03, 0.02, 0.02])], percent: true)
        chart.xAxis = .byValue
        let styled = chart.svg
        chart.plain = true
        let plain = chart.svg
        #expect(styled.contains(">Letters lost</text>") && !plain.contains(">Letters lost</text>"))
        #expect(!plain.contains("quickstart · 5 replications"))
        #expect(plain.contains("font-size=\"15\"") && plain.contains("font-size=\"16.2\""))
        #expect(SVGTextBoxes.overlaps(plain)?.isEmpty == true, "\(SVGTextBoxes.overlaps(plain) ?? [])")
    }
}
