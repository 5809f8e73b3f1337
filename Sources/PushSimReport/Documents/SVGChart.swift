// A chart drawn as SVG by hand: series of means over categories or numbers, each with its interval, on a linear or log axis.
import Foundation

/// A chart with one series per line or set of points over the categories (the values of a
/// sweep axis; ``XAxis`` says how they are placed), each mean with its interval from `low` to
/// `high`: a shaded band along a line, a bar at a point alone or at a category. The y axis is
/// linear or, over more than two decades, logarithmic (``YAxis``). Self-contained SVG 1.1
/// text: opens in any browser, no script, no external font or stylesheet.
package struct SVGChart {
    package struct Series {
        package var name: String
        /// One per category; nil where the series has no value.
        package var values: [Double?]
        package var low: [Double?]
        package var high: [Double?]
        package var dashed: Bool
        /// The palette entry drawn, when it is not the series' place (a segment's two arms share one).
        package var color: Int?
        /// Points with their intervals, never a line from one to the next (candidates picked
        /// out of several, as optimize's within δ and beyond it).
        package var pointsOnly = false
        package init(name: String, values: [Double?], low: [Double?], high: [Double?], dashed: Bool = false, color: Int? = nil) {
            self.name = name; self.values = values; self.low = low; self.high = high; self.dashed = dashed; self.color = color
        }
    }

    /// A shaded horizontal band across the plot, behind the series, named in the legend:
    /// optimize's indifference zone, from the chosen value (0) to δ.
    package struct Zone: Sendable {
        package var low: Double
        package var high: Double
        package var name: String
        package init(low: Double, high: Double, name: String) { self.low = low; self.high = high; self.name = name }
    }
    package var zone: Zone?

    /// How the y axis is scaled: `.automatic` draws it logarithmic when the means drawn are
    /// none below 0 and the positive ones span more than two decades (the largest more than
    /// 100 times the smallest), so 6 % and 0.001 % are both readable, and linear otherwise;
    /// `.linear` always linear (a time series of counts, where 0 is the common state).
    package enum YAxis: Sendable { case automatic, linear }
    package var yAxis = YAxis.automatic
    /// A linear value axis over this range whatever the series hold (a zoomed panel); the
    /// caller leaves out what lies beyond it.
    package var yLimits: (low: Double, high: Double)?

    package var title: String
    package var subtitle: String
    package var xLabel: String
    package var yLabel: String
    package var categories: [String]
    package var series: [Series]
    /// Tick labels as percentages (values are fractions).
    package var percent: Bool
    /// How the x axis reads its categories: `.evenly` (in the order given, equally spaced: a
    /// time series' bins), or `.byValue`, where categories that are all numbers are placed in
    /// proportion to their values (0, 1, 2, 5, 50 spaced as numbers are) and categories that
    /// are names (designs, channels) are drawn as categories: a point with its interval each,
    /// no line from one to the next.
    package enum XAxis: Sendable { case evenly, byValue }
    package var xAxis = XAxis.evenly
    /// The style for a paper: no title and subtitle (the caption says them), text 25 % larger.
    package var plain = false
    var fontScale: Double { plain ? 1.25 : 1 }

    /// The categories' values when the axis places them by value and every one is a number,
    /// strictly increasing; nil otherwise.
    var numericPositions: [Double]? {
        guard xAxis == .byValue, categories.count > 1 else { return nil }
        let values = categories.compactMap { Double($0) }
        guard values.count == categories.count, values.allSatisfy(\.isFinite),
              zip(values, values.dropFirst()).allSatisfy({ $0 < $1 }) else { return nil }
        return values
    }

    /// Whether the categories are names, drawn without a line between them.
    var isCategorical: Bool { xAxis == .byValue && categories.count > 1 && numericPositions == nil }

    package init(title: String, subtitle: String, xLabel: String, yLabel: String, categories: [String],
                series: [Series], percent: Bool) {
        self.title = title; self.subtitle = subtitle; self.xLabel = xLabel; self.yLabel = yLabel
        self.categories = categories; self.series = series; self.percent = percent
    }

    static let palette = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                          "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"]

    /// Where everything goes, in pixels. The plot keeps its size; the canvas grows to the right
    /// for a wide legend (a two-axis sweep names the second axis's value in each entry) and
    /// downwards for a long one or for subtitle lines, so no text is ever cut off and the legend
    /// never overlaps the plot (docs/research.md, "Charts").
    struct Layout {
        static let left = 90.0, plotWidth = 470.0, plotHeight = 318.0
        static let titleSize = 17.0, subtitleSize = 12.0, legendSize = 12.0, noteSize = 11.0, tickSize = 12.0
        /// From the first category's tick to the last's (`x(i)` in ``SVGChart/svg``).
        static let categoryAxisWidth = plotWidth - 48
        var subtitleLines: [String]
        var top: Double
        var right: Double { Layout.left + Layout.plotWidth }
        var bottom: Double { top + Layout.plotHeight }
        var legendX: Double { right + 24 }
        var width: Double
        var height: Double

        init(title: String, subtitle: String, legend: [String], legendNote: String, plain: Bool = false) {
            let scale = plain ? 1.25 : 1
            subtitleLines = plain ? [] : subtitle.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            top = plain ? 24 : 48 + 16 * Double(max(subtitleLines.count - 1, 0)) + 24
            let legendText = max(legend.map { SVGText.estimatedWidth($0, fontSize: Layout.legendSize * scale) }.max() ?? 0,
                                 SVGText.estimatedWidth(legendNote, fontSize: Layout.noteSize * scale) - 36)
            let heading = plain ? 0 : max(SVGText.estimatedWidth(title, fontSize: Layout.titleSize, bold: true),
                              subtitleLines.map { SVGText.estimatedWidth($0, fontSize: Layout.subtitleSize) }.max() ?? 0)
            width = (max(Layout.left + Layout.plotWidth + 24 + 36 + legendText, Layout.left + heading) + 20).rounded(.up)
            let legendBottom = top + 6 + 22 * Double(legend.count) + 8 + 12
            height = (max(top + Layout.plotHeight + 80, legendBottom + 16)).rounded(.up)
        }
    }

    static let legendNote = "line: mean; band: 95 % CI"
    /// The line under the legend; a chart of single values (no replications) says so.
    public var note = SVGChart.legendNote

    package var svg: String {
        let note = isCategorical && self.note == SVGChart.legendNote ? "point: mean; bar: 95 % CI" : self.note
        let layout = Layout(title: title, subtitle: subtitle, legend: series.map(\.name) + (zone.map { [$0.name] } ?? []),
                            legendNote: note, plain: plain)
        let scale = fontScale
        func size(_ points: Double) -> String { plain ? f(points * scale) : String(Int(points)) }
        let left = Layout.left, right = layout.right, top = layout.top, bottom = layout.bottom
        let vertical = yScaleFor(top: top, bottom: bottom)
        let y = vertical.y
        let n = categories.count
        let positions = numericPositions, categorical = isCategorical
        func x(_ i: Int) -> Double {
            if let positions, let first = positions.first, let last = positions.last {
                return left + 24 + (positions[i] - first) / (last - first) * Layout.categoryAxisWidth
            }
            return n <= 1 ? (left + right) / 2 : left + 24 + Double(i) * Layout.categoryAxisWidth / Double(n - 1)
        }
        var out = SVGText.documentStart(width: Int(layout.width), height: Int(layout.height), title: title, fontSize: plain ? 15 : 12) + """
        <rect x="0" y="0" width="\(Int(layout.width))" height="\(Int(layout.height))" fill="#ffffff"/>

        """
        if !plain { out += "<text x=\"\(f(left))\" y=\"28\" font-size=\"17\" font-weight=\"bold\">\(SVGText.escape(title))</text>\n" }
        for (i, line) in layout.subtitleLines.enumerated() {
            out += "<text x=\"\(f(left))\" y=\"\(f(48 + 16 * Double(i)))\" font-size=\"12\" fill=\"#555555\">\(SVGText.escape(line))</text>\n"
        }
        out += "<rect class=\"plot-area\" x=\"\(f(left))\" y=\"\(f(top))\" width=\"\(f(right - left))\" height=\"\(f(bottom - top))\" fill=\"none\"/>\n"
        // Grid and y ticks; on a log axis, lighter lines at 2 and 5 of each decade.
        for minor in vertical.minorTicks {
            out += "<line class=\"minor\" x1=\"\(f(left))\" y1=\"\(f(y(minor)))\" x2=\"\(f(right))\" y2=\"\(f(y(minor)))\" stroke=\"#f0f0f0\"/>\n"
        }
        for tick in vertical.ticks {
            out += SVGText.gridLine(y: y(tick), left: left, right: right, label: vertical.tickLabel(tick))
        }
        if vertical.hasZeroRow { out += SVGText.axisBreak(left: left, bottom: bottom) }
        // Axes, x ticks and axis labels.
        out += SVGText.axes(left: left, right: right, top: top, bottom: bottom)
        // Every category has its tick; on a proportional axis, labels that would touch the one
        // before are left out (the last is always labelled, dropping the one before it instead).
        var labelled: [Int] = []
        for i in categories.indices {
            let half = SVGText.estimatedWidth(categories[i], fontSize: Layout.tickSize * scale) / 2
            let clear = { (j: Int) in x(j) + SVGText.estimatedWidth(self.categories[j], fontSize: Layout.tickSize * scale) / 2 + 4 <= x(i) - half }
            if positions == nil || labelled.last.map(clear) ?? true {
                labelled.append(i)
            } else if i == categories.count - 1 {
                labelled.removeLast()
                if labelled.last.map(clear) ?? true { labelled.append(i) }
            }
        }
        for (i, category) in categories.enumerated() {
            out += "<line x1=\"\(f(x(i)))\" y1=\"\(f(bottom))\" x2=\"\(f(x(i)))\" y2=\"\(f(bottom + 5))\" stroke=\"#333333\"/>\n"
            if labelled.contains(i) {
                out += "<text x=\"\(f(x(i)))\" y=\"\(f(bottom + 20))\" text-anchor=\"middle\">\(SVGText.escape(category))</text>\n"
            }
        }
        out += "<text class=\"x-label\" x=\"\(f((left + right) / 2))\" y=\"\(f(bottom + 48))\" text-anchor=\"middle\" font-size=\"\(size(13))\">\(SVGText.escape(xLabel))</text>\n"
        let yMid = (top + bottom) / 2
        let yTitle = vertical.isLog ? yLabel + ", log scale" : yLabel
        out += "<text class=\"y-label\" x=\"22\" y=\"\(f(yMid))\" text-anchor=\"middle\" font-size=\"\(size(13))\" transform=\"rotate(-90 22 \(f(yMid)))\">\(SVGText.escape(yTitle))</text>\n"
        if let zone {
            let upper = y(max(zone.low, zone.high)), lower = y(min(zone.low, zone.high))
            out += "<rect class=\"zone\" x=\"\(f(left))\" y=\"\(f(upper))\" width=\"\(f(right - left))\" height=\"\(f(max(lower - upper, 1)))\" fill=\"#2ca02c\" fill-opacity=\"0.15\" stroke=\"#2ca02c\" stroke-opacity=\"0.6\" stroke-dasharray=\"4 3\"/>\n"
        }
        // Bands first, then lines over them, so no band hides a line.
        for (s, series) in series.enumerated() where !categorical && !series.pointsOnly {
            let color = Self.palette[(series.color ?? s) % Self.palette.count]
            for segment in segments(series) where segment.count > 0 {
                let upper = segment.map { "\(f(x($0))),\(f(y(series.high[$0] ?? series.values[$0] ?? 0)))" }
                let lower = segment.reversed().map { "\(f(x($0))),\(f(y(series.low[$0] ?? series.values[$0] ?? 0)))" }
                out += "<polygon class=\"band\" data-series=\"\(SVGText.escape(series.name))\" points=\"\((upper + lower).joined(separator: " "))\" fill=\"\(color)\" fill-opacity=\"0.18\" stroke=\"none\"/>\n"
            }
        }
        for (s, series) in series.enumerated() {
            let color = Self.palette[(series.color ?? s) % Self.palette.count]
            out += "<g class=\"series\" data-series=\"\(SVGText.escape(series.name))\">\n"
            // Categories side by side: each series a little apart, so intervals do not hide each other.
            let shift = categorical ? (Double(s) - Double(self.series.count - 1) / 2) * 8 : 0
            let apart = categorical || series.pointsOnly
            for segment in segments(series) {
                // A point alone (a one-point sweep, a value between gaps) has no band to show its
                // interval: it gets a bar, as categories do.
                if apart || segment.count == 1 {
                    for i in segment {
                        let lo = series.low[i] ?? series.values[i] ?? 0, hi = series.high[i] ?? series.values[i] ?? 0
                        out += "<line class=\"interval\" x1=\"\(f(x(i) + shift))\" y1=\"\(f(y(lo)))\" x2=\"\(f(x(i) + shift))\" y2=\"\(f(y(hi)))\" stroke=\"\(color)\" stroke-width=\"2\"/>\n"
                    }
                } else {
                    let points = segment.map { "\(f(x($0))),\(f(y(series.values[$0] ?? 0)))" }.joined(separator: " ")
                    out += "<polyline points=\"\(points)\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\"\(series.dashed ? " stroke-dasharray=\"6 4\"" : "")/>\n"
                }
                for i in segment {
                    let value = series.values[i] ?? 0
                    var tip = "\(series.name), \(categories[i]): \(vertical.valueLabel(value))"
                    if let lo = series.low[i], let hi = series.high[i] {
                        tip += " (\(intervalName) \(vertical.valueLabel(lo)) – \(vertical.valueLabel(hi)))"
                    }
                    out += "<circle cx=\"\(f(x(i) + shift))\" cy=\"\(f(y(value)))\" r=\"3.5\" fill=\"\(color)\"><title>\(SVGText.escape(tip))</title></circle>\n"
                }
            }
            out += "</g>\n"
        }
        // Legend, to the right of the plot.
        var ly = top + 6
        let lx = layout.legendX
        out += "<g class=\"legend\">\n"
        for (s, series) in series.enumerated() {
            let color = Self.palette[(series.color ?? s) % Self.palette.count]
            if categorical || series.pointsOnly {
                out += "<line x1=\"\(f(lx + 14))\" y1=\"\(f(ly - 9))\" x2=\"\(f(lx + 14))\" y2=\"\(f(ly + 5))\" stroke=\"\(color)\" stroke-width=\"2\"/>\n"
                out += "<circle cx=\"\(f(lx + 14))\" cy=\"\(f(ly - 2))\" r=\"3.5\" fill=\"\(color)\"/>\n"
            } else {
                out += "<rect x=\"\(f(lx))\" y=\"\(f(ly - 9))\" width=\"28\" height=\"14\" fill=\"\(color)\" fill-opacity=\"0.18\"/>\n"
                out += "<line x1=\"\(f(lx))\" y1=\"\(f(ly - 2))\" x2=\"\(f(lx + 28))\" y2=\"\(f(ly - 2))\" stroke=\"\(color)\" stroke-width=\"2\"\(series.dashed ? " stroke-dasharray=\"6 4\"" : "")/>\n"
            }
            out += "<text x=\"\(f(lx + 36))\" y=\"\(f(ly + 2))\">\(SVGText.escape(series.name))</text>\n"
            ly += 22
        }
        if let zone {
            out += "<rect x=\"\(f(lx))\" y=\"\(f(ly - 9))\" width=\"28\" height=\"14\" fill=\"#2ca02c\" fill-opacity=\"0.15\" stroke=\"#2ca02c\" stroke-opacity=\"0.6\" stroke-dasharray=\"4 3\"/>\n"
            out += "<text x=\"\(f(lx + 36))\" y=\"\(f(ly + 2))\">\(SVGText.escape(zone.name))</text>\n"
            ly += 22
        }
        out += "<text x=\"\(f(lx))\" y=\"\(f(ly + 8))\" fill=\"#555555\" font-size=\"\(size(11))\">\(SVGText.escape(note))</text>\n"
        out += "</g>\n</svg>\n"
        return out
    }

    /// Runs of consecutive categories where the series has a value.
    func segments(_ series: Series) -> [[Int]] {
        var result: [[Int]] = []
        var current: [Int] = []
        for i in categories.indices {
            if i < series.values.count, series.values[i] != nil { current.append(i) } else if !current.isEmpty {
                result.append(current); current = []
            }
        }
        if !current.isEmpty { result.append(current) }
        return result
    }

    /// The pixels of the plot's height that `share` of its value axis takes.
    static func thinZoneShare(_ share: Double) -> Double { share * Layout.plotHeight }

    /// What the tooltip calls a point's interval.
    package var intervalName = "95 % CI"

    /// The height of the row under a log axis where values of 0 (and interval ends clipped to
    /// 0) are drawn, below a break in the axis.
    static let zeroRow = 22.0

    /// The y axis as drawn: where a value goes, its ticks and their labels.
    struct YScale {
        /// `zero`: a value or an interval's end is 0, so the log axis has a row for it.
        enum Kind { case linear(min: Double, max: Double, step: Double), log(lowDecade: Int, highDecade: Int, zero: Bool) }
        var kind: Kind
        var top: Double
        var bottom: Double
        var percent: Bool

        var isLog: Bool { if case .log = kind { return true } else { return false } }
        var hasZeroRow: Bool { if case .log(_, _, true) = kind { return true } else { return false } }

        func y(_ v: Double) -> Double {
            switch kind {
            case let .linear(yMin, yMax, _):
                return bottom - (v - yMin) / (yMax - yMin) * (bottom - top)
            case let .log(low, high, zero):
                // 0 and below sit on the zero row; a positive value under the lowest decade
                // (an interval's end) is held at that decade's line.
                guard v > 0, v.isFinite else { return bottom }
                let decades = Double(high - low), base = bottom - (zero ? SVGChart.zeroRow : 0)
                let t = min(max((log10(v) - Double(low)) / decades, 0), 1)
                return base - t * (base - top)
            }
        }

        var ticks: [Double] {
            switch kind {
            case let .linear(yMin, yMax, step):
                var out: [Double] = []
                var tick = yMin
                while tick <= yMax + step / 1000 { out.append(tick); tick += step }
                return out
            case let .log(low, high, zero):
                return (zero ? [0] : []) + (low...high).map { pow(10, Double($0)) }
            }
        }

        var minorTicks: [Double] {
            guard case let .log(low, high, _) = kind, low < high else { return [] }
            return (low..<high).flatMap { k in [2.0, 5.0].map { $0 * pow(10, Double(k)) } }
        }

        func tickLabel(_ value: Double) -> String {
            switch kind {
            case let .linear(_, _, step): return SVGChart.label(value, step: step, percent: percent)
            case .log:
                guard value > 0 else { return percent ? "0 %" : "0" }
                let exponent = Int(floor(log10(value) + 1e-9)) + (percent ? 2 : 0)
                let scaled = percent ? value * 100 : value
                return String(format: "%.\(max(0, -exponent))f", scaled) + (percent ? " %" : "")
            }
        }

        /// A value as a tooltip gives it: as precise as the axis, three significant digits on a log axis.
        func valueLabel(_ value: Double) -> String {
            switch kind {
            case let .linear(_, _, step): return SVGChart.label(value, step: step / 100, percent: percent)
            case .log:
                let scaled = percent ? value * 100 : value
                guard scaled != 0, scaled.isFinite else { return percent ? "0 %" : "0" }
                let decimals = max(0, min(9, 2 - Int(floor(log10(abs(scaled))))))
                return String(format: "%.\(decimals)f", scaled) + (percent ? " %" : "")
            }
        }
    }

    /// Whether the y axis is drawn logarithmic (``YAxis``), and its decades: from the one at
    /// or below the smallest positive mean (an interval's lower end may take it one further)
    /// to the one at or above the highest value drawn.
    func logDecades() -> (low: Int, high: Int, zero: Bool)? {
        guard yAxis == .automatic, yLimits == nil else { return nil }
        var means: [Double] = [], all: [Double] = []
        for s in series {
            means += s.values.compactMap { $0 }.filter(\.isFinite)
            all += (s.values + s.low + s.high).compactMap { $0 }.filter(\.isFinite)
        }
        if let zone { all += [zone.low, zone.high] }
        return Self.logDecades(means: means, all: all)
    }

    /// The log axis's rule, for any chart: none of `all` (means, interval ends, anything drawn)
    /// below 0 and the positive `means` spanning more than two decades; then the decades from
    /// the one at or below the smallest positive mean (an interval's lower end may take it one
    /// further) to the one at or above the highest value, and whether a value is 0 (its own
    /// row under a break in the axis). Nil: a linear axis.
    static func logDecades(means: [Double], all: [Double]) -> (low: Int, high: Int, zero: Bool)? {
        guard !all.contains(where: { $0 < 0 }) else { return nil }
        let positive = means.filter { $0 > 0 }
        guard let smallest = positive.min(), let largest = positive.max(), largest > 100 * smallest,
              let highest = all.max() else { return nil }
        let lowestMean = Int(floor(log10(smallest) + 1e-9))
        let lowestEnd = all.filter { $0 > 0 }.min().map { Int(floor(log10($0) + 1e-9)) } ?? lowestMean
        let low = max(lowestEnd, lowestMean - 1)
        return (low, max(Int(ceil(log10(highest) - 1e-9)), low + 1), all.contains { $0 <= 0 })
    }

    func yScaleFor(top: Double, bottom: Double) -> YScale {
        if let (low, high, zero) = logDecades() {
            return YScale(kind: .log(lowDecade: low, highDecade: high, zero: zero), top: top, bottom: bottom, percent: percent)
        }
        let (yMin, yMax, step) = yScale()
        return YScale(kind: .linear(min: yMin, max: yMax, step: step), top: top, bottom: bottom, percent: percent)
    }

    /// A y range from 0 (or the lowest value, if negative) to a round number above the highest
    /// band, with a 1-2-5 tick step.
    func yScale() -> (Double, Double, Double) {
        var values: [Double] = []
        for s in series { values += (s.values + s.low + s.high).compactMap { $0 }.filter(\.isFinite) }
        if let zone { values += [zone.low, zone.high] }
        if let yLimits { values = [yLimits.low, yLimits.high] }
        let low = min(0, values.min() ?? 0)
        var high = max(values.max() ?? 1, low)
        if high - low <= 0 { high = low + (percent ? 0.01 : 1) }
        let raw = (high - low) / 5
        let magnitude = pow(10, floor(log10(raw)))
        let step = [1.0, 2, 2.5, 5, 10].map { $0 * magnitude }.first { $0 >= raw } ?? 10 * magnitude
        return (floor(low / step) * step, ceil(high / step) * step, step)
    }

    /// A tick or value label, with as many decimals as the step needs.
    static func label(_ value: Double, step: Double, percent: Bool) -> String {
        let scaled = percent ? value * 100 : value
        let scaledStep = percent ? step * 100 : step
        guard scaledStep > 0, scaledStep.isFinite else { return String(format: "%.2f", scaled) + (percent ? " %" : "") }
        let exponent = floor(log10(scaledStep))
        let mantissa = scaledStep / pow(10, exponent)
        let decimals = max(0, min(6, Int(-exponent) + (abs(mantissa - 2.5) < 1e-9 ? 1 : 0)))
        return String(format: "%.\(decimals)f", scaled) + (percent ? " %" : "")
    }

    func f(_ v: Double) -> String { String(format: "%.1f", v) }
}

/// Escaping for text and attribute values in SVG (XML), and how wide a text will be.
enum SVGText {
    /// A horizontal grid line across the plot at height `y`, and its label left of the axis.
    static func gridLine(y: Double, left: Double, right: Double, label: String) -> String {
        let f = { (v: Double) in String(format: "%.1f", v) }
        return "<line x1=\"\(f(left))\" y1=\"\(f(y))\" x2=\"\(f(right))\" y2=\"\(f(y))\" stroke=\"#e4e4e4\"/>\n"
            + "<text x=\"\(f(left - 8))\" y=\"\(f(y + 4))\" text-anchor=\"end\">\(escape(label))</text>\n"
    }

    /// Two short strokes across the y axis between a log axis's row for 0 and its lowest decade.
    static func axisBreak(left: Double, bottom: Double) -> String {
        let f = { (v: Double) in String(format: "%.1f", v) }
        let gap = bottom - SVGChart.zeroRow / 2
        return "<path class=\"axis-break\" d=\"M\(f(left - 5)) \(f(gap + 1)) L\(f(left + 5)) \(f(gap - 3)) M\(f(left - 5)) \(f(gap + 5)) L\(f(left + 5)) \(f(gap + 1))\" stroke=\"#333333\" fill=\"none\"/>\n"
    }

    /// Several charts' documents one under the other in one document (each moved down by the
    /// heights of those above it, the canvas as wide as the widest).
    static func stacked(_ documents: [String], title: String) -> String {
        var parts: [(width: Int, height: Int, body: String)] = []
        for document in documents {
            guard let open = document.range(of: "<svg "), let close = document.range(of: ">", range: open.upperBound..<document.endIndex),
                  let end = document.range(of: "</svg>", options: .backwards) else { continue }
            let tag = document[open.lowerBound..<close.upperBound]
            func attribute(_ name: String) -> Int {
                guard let start = tag.range(of: " \(name)=\""), let stop = tag[start.upperBound...].firstIndex(of: "\"") else { return 0 }
                return Int(tag[start.upperBound..<stop]) ?? 0
            }
            parts.append((attribute("width"), attribute("height"), String(document[close.upperBound..<end.lowerBound])))
        }
        let width = parts.map(\.width).max() ?? 0, height = parts.map(\.height).reduce(0, +)
        var out = documentStart(width: width, height: height, title: title, fontSize: 12)
            + "<rect x=\"0\" y=\"0\" width=\"\(width)\" height=\"\(height)\" fill=\"#ffffff\"/>\n"
        var y = 0
        for part in parts {
            out += "<g class=\"panel\" transform=\"translate(0 \(y))\">" + part.body + "</g>\n"
            y += part.height
        }
        return out + "</svg>\n"
    }

    /// The plot's two axes: along its bottom and up its left side.
    static func axes(left: Double, right: Double, top: Double, bottom: Double) -> String {
        let f = { (v: Double) in String(format: "%.1f", v) }
        return "<line x1=\"\(f(left))\" y1=\"\(f(bottom))\" x2=\"\(f(right))\" y2=\"\(f(bottom))\" stroke=\"#333333\"/>\n"
            + "<line x1=\"\(f(left))\" y1=\"\(f(top))\" x2=\"\(f(left))\" y2=\"\(f(bottom))\" stroke=\"#333333\"/>\n"
    }

    /// The opening every chart shares: the XML declaration, the `svg` element of the canvas's
    /// size in the project's fonts, and its title (what a viewer shows for the file).
    static func documentStart(width: Int, height: Int, title: String, fontSize: Int) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" \
        viewBox="0 0 \(width) \(height)" font-family="Helvetica, Arial, sans-serif" font-size="\(fontSize)">
        <title>\(escape(title))</title>

        """
    }

    /// A generous estimate of a text's width in Helvetica or Arial: 0.6 em a character (the
    /// widest common letters; digits and lower case are narrower), 0.65 em in bold. Layouts
    /// reserve this much, so a text never runs off the canvas whatever font stands in.
    static func estimatedWidth(_ text: String, fontSize: Double, bold: Bool = false) -> Double {
        Double(text.count) * fontSize * (bold ? 0.65 : 0.6)
    }

    static func escape(_ s: String) -> String {
        var out = ""
        for ch in s.unicodeScalars {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default:
                // Control characters are not allowed in XML 1.0 at all.
                if ch.value < 0x20 && ch != "\n" && ch != "\t" { out += " " } else { out.unicodeScalars.append(ch) }
            }
        }
        return out
    }
}
