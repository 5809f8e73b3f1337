// A line chart drawn as SVG by hand: series of means over categories, with confidence bands.
import Foundation

/// A line chart with one line per series over evenly spaced categories (the values of a sweep
/// axis in the order given), each with a shaded band from `low` to `high`. Self-contained SVG
/// 1.1 text: opens in any browser, no script, no external font or stylesheet.
public struct SVGChart {
    public struct Series {
        public var name: String
        /// One per category; nil where the series has no value.
        public var values: [Double?]
        public var low: [Double?]
        public var high: [Double?]
        public var dashed: Bool
        public init(name: String, values: [Double?], low: [Double?], high: [Double?], dashed: Bool = false) {
            self.name = name; self.values = values; self.low = low; self.high = high; self.dashed = dashed
        }
    }

    public var title: String
    public var subtitle: String
    public var xLabel: String
    public var yLabel: String
    public var categories: [String]
    public var series: [Series]
    /// Tick labels as percentages (values are fractions).
    public var percent: Bool

    public init(title: String, subtitle: String, xLabel: String, yLabel: String, categories: [String],
                series: [Series], percent: Bool) {
        self.title = title; self.subtitle = subtitle; self.xLabel = xLabel; self.yLabel = yLabel
        self.categories = categories; self.series = series; self.percent = percent
    }

    static let palette = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                          "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"]

    // Layout, in pixels.
    static let width = 780.0, height = 470.0
    static let left = 90.0, top = 72.0, right = 560.0, bottom = 390.0

    public var svg: String {
        let (yMin, yMax, step) = yScale()
        let n = categories.count
        func x(_ i: Int) -> Double {
            n <= 1 ? (Self.left + Self.right) / 2 : Self.left + 24 + Double(i) * (Self.right - Self.left - 48) / Double(n - 1)
        }
        func y(_ v: Double) -> Double { Self.bottom - (v - yMin) / (yMax - yMin) * (Self.bottom - Self.top) }
        var out = """
        <?xml version="1.0" encoding="UTF-8"?>
        <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(Self.width))" height="\(Int(Self.height))" \
        viewBox="0 0 \(Int(Self.width)) \(Int(Self.height))" font-family="Helvetica, Arial, sans-serif" font-size="12">
        <title>\(SVGText.escape(title))</title>
        <rect x="0" y="0" width="\(Int(Self.width))" height="\(Int(Self.height))" fill="#ffffff"/>
        <text x="\(f(Self.left))" y="28" font-size="17" font-weight="bold">\(SVGText.escape(title))</text>
        <text x="\(f(Self.left))" y="48" font-size="12" fill="#555555">\(SVGText.escape(subtitle))</text>

        """
        // Grid and y ticks.
        var tick = yMin
        while tick <= yMax + step / 1000 {
            out += "<line x1=\"\(f(Self.left))\" y1=\"\(f(y(tick)))\" x2=\"\(f(Self.right))\" y2=\"\(f(y(tick)))\" stroke=\"#e4e4e4\"/>\n"
            out += "<text x=\"\(f(Self.left - 8))\" y=\"\(f(y(tick) + 4))\" text-anchor=\"end\">\(SVGText.escape(label(tick, step: step)))</text>\n"
            tick += step
        }
        // Axes, x ticks and axis labels.
        out += "<line x1=\"\(f(Self.left))\" y1=\"\(f(Self.bottom))\" x2=\"\(f(Self.right))\" y2=\"\(f(Self.bottom))\" stroke=\"#333333\"/>\n"
        out += "<line x1=\"\(f(Self.left))\" y1=\"\(f(Self.top))\" x2=\"\(f(Self.left))\" y2=\"\(f(Self.bottom))\" stroke=\"#333333\"/>\n"
        for (i, category) in categories.enumerated() {
            out += "<line x1=\"\(f(x(i)))\" y1=\"\(f(Self.bottom))\" x2=\"\(f(x(i)))\" y2=\"\(f(Self.bottom + 5))\" stroke=\"#333333\"/>\n"
            out += "<text x=\"\(f(x(i)))\" y=\"\(f(Self.bottom + 20))\" text-anchor=\"middle\">\(SVGText.escape(category))</text>\n"
        }
        out += "<text class=\"x-label\" x=\"\(f((Self.left + Self.right) / 2))\" y=\"\(f(Self.bottom + 48))\" text-anchor=\"middle\" font-size=\"13\">\(SVGText.escape(xLabel))</text>\n"
        let yMid = (Self.top + Self.bottom) / 2
        out += "<text class=\"y-label\" x=\"22\" y=\"\(f(yMid))\" text-anchor=\"middle\" font-size=\"13\" transform=\"rotate(-90 22 \(f(yMid)))\">\(SVGText.escape(yLabel))</text>\n"
        // Bands first, then lines over them, so no band hides a line.
        for (s, series) in series.enumerated() {
            let color = Self.palette[s % Self.palette.count]
            for segment in segments(series) where segment.count > 0 {
                let upper = segment.map { "\(f(x($0))),\(f(y(series.high[$0] ?? series.values[$0] ?? 0)))" }
                let lower = segment.reversed().map { "\(f(x($0))),\(f(y(series.low[$0] ?? series.values[$0] ?? 0)))" }
                out += "<polygon class=\"band\" data-series=\"\(SVGText.escape(series.name))\" points=\"\((upper + lower).joined(separator: " "))\" fill=\"\(color)\" fill-opacity=\"0.18\" stroke=\"none\"/>\n"
            }
        }
        for (s, series) in series.enumerated() {
            let color = Self.palette[s % Self.palette.count]
            out += "<g class=\"series\" data-series=\"\(SVGText.escape(series.name))\">\n"
            for segment in segments(series) {
                let points = segment.map { "\(f(x($0))),\(f(y(series.values[$0] ?? 0)))" }.joined(separator: " ")
                out += "<polyline points=\"\(points)\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\"\(series.dashed ? " stroke-dasharray=\"6 4\"" : "")/>\n"
                for i in segment {
                    let value = series.values[i] ?? 0
                    var tip = "\(series.name), \(categories[i]): \(label(value, step: step / 100))"
                    if let lo = series.low[i], let hi = series.high[i] {
                        tip += " (95 % CI \(label(lo, step: step / 100)) – \(label(hi, step: step / 100)))"
                    }
                    out += "<circle cx=\"\(f(x(i)))\" cy=\"\(f(y(value)))\" r=\"3.5\" fill=\"\(color)\"><title>\(SVGText.escape(tip))</title></circle>\n"
                }
            }
            out += "</g>\n"
        }
        // Legend.
        var ly = Self.top + 6
        out += "<g class=\"legend\">\n"
        for (s, series) in series.enumerated() {
            let color = Self.palette[s % Self.palette.count]
            let lx = Self.right + 24
            out += "<rect x=\"\(f(lx))\" y=\"\(f(ly - 9))\" width=\"28\" height=\"14\" fill=\"\(color)\" fill-opacity=\"0.18\"/>\n"
            out += "<line x1=\"\(f(lx))\" y1=\"\(f(ly - 2))\" x2=\"\(f(lx + 28))\" y2=\"\(f(ly - 2))\" stroke=\"\(color)\" stroke-width=\"2\"\(series.dashed ? " stroke-dasharray=\"6 4\"" : "")/>\n"
            out += "<text x=\"\(f(lx + 36))\" y=\"\(f(ly + 2))\">\(SVGText.escape(series.name))</text>\n"
            ly += 22
        }
        out += "<text x=\"\(f(Self.right + 24))\" y=\"\(f(ly + 8))\" fill=\"#555555\" font-size=\"11\">line: mean; band: 95 % CI</text>\n"
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

    /// A y range from 0 (or the lowest value, if negative) to a round number above the highest
    /// band, with a 1-2-5 tick step.
    func yScale() -> (Double, Double, Double) {
        var values: [Double] = []
        for s in series { values += (s.values + s.low + s.high).compactMap { $0 }.filter(\.isFinite) }
        let low = min(0, values.min() ?? 0)
        var high = max(values.max() ?? 1, low)
        if high - low <= 0 { high = low + (percent ? 0.01 : 1) }
        let raw = (high - low) / 5
        let magnitude = pow(10, floor(log10(raw)))
        let step = [1.0, 2, 2.5, 5, 10].map { $0 * magnitude }.first { $0 >= raw } ?? 10 * magnitude
        return (floor(low / step) * step, ceil(high / step) * step, step)
    }

    /// A tick or value label, with as many decimals as the step needs.
    func label(_ value: Double, step: Double) -> String {
        let scaled = percent ? value * 100 : value
        let scaledStep = percent ? step * 100 : step
        guard scaledStep > 0 else { return String(format: "%.2f", scaled) + (percent ? " %" : "") }
        let exponent = floor(log10(scaledStep))
        let mantissa = scaledStep / pow(10, exponent)
        let decimals = max(0, min(6, Int(-exponent) + (abs(mantissa - 2.5) < 1e-9 ? 1 : 0)))
        return String(format: "%.\(decimals)f", scaled) + (percent ? " %" : "")
    }

    func f(_ v: Double) -> String { String(format: "%.1f", v) }
}

/// Escaping for text and attribute values in SVG (XML).
enum SVGText {
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
