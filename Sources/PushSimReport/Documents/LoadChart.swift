// load.svg: a run's load over simulated time, with a time axis people can read and the worst bins marked.
import Foundation
import PushSimCore
import PushSimExperiment

/// A line chart over time (docs/model.md §14): ticks at whole minutes, hours or days, spaced so
/// that no two labels meet (label widths estimated from the font size and the text, as every
/// chart here does), lines of the queue arm's letters in, pushes sent and re-requests, and the
/// worst bins marked on the plot and listed beside it.
package struct LoadChart {
    static let left = 90.0, plotWidth = 640.0, plotHeight = 300.0, top = 88.0
    static let tickSize = 12.0, legendSize = 12.0
    /// The most points a line has: longer series show each point as the largest of its bins.
    static let maxPoints = 640
    static let quantities: [LoadQuantity] = [.lettersIn, .pushesSent, .reRequests]

    package var title: String
    package var subtitle: String
    /// Per quantity drawn, its count per bin.
    var lines: [(name: String, values: [Int])]
    /// The bins' width and the run's span, in µs.
    var bin: Int64
    var end: Int64
    /// The quantity whose worst bins are marked.
    var marked: Int

    package init(_ result: RunResult) {
        let arm = result.arms.last { $0.arm == .on } ?? result.arms.last
        let frame = result.loadFrame
        let bins = max(frame.runBins, arm?.ledger.load.bins ?? 0, 1)
        bin = frame.bin
        end = max(frame.end, SimTime.binStart(bins, bin: frame.bin))
        lines = LoadChart.quantities.map { q in (q.label, (0..<bins).map { arm?.ledger.load.count(bin: $0, q) ?? 0 }) }
        marked = lines[2].values.contains { $0 > 0 } ? 2 : 1
        title = "\(result.scenario): load per \(SimTime(microseconds: frame.bin))"
        subtitle = "queue \(arm?.name ?? "—") arm, counts per bin"
            + (bins > LoadChart.maxPoints ? "; each point the largest of \((bins + LoadChart.maxPoints - 1) / LoadChart.maxPoints) bins" : "")
    }

    /// The worst bins of the marked quantity: up to three, each at least a fiftieth of the run from the others.
    var worst: [(bin: Int, count: Int)] {
        let values = lines[marked].values
        let apart = max(1, values.count / 50)
        var chosen: [(bin: Int, count: Int)] = []
        for b in values.indices.sorted(by: { values[$0] != values[$1] ? values[$0] > values[$1] : $0 < $1 })
        where values[b] > 0 && chosen.allSatisfy({ abs($0.bin - b) >= apart }) {
            chosen.append((b, values[b]))
            if chosen.count == 3 { break }
        }
        return chosen
    }

    /// A year of simulated time: 365 days (the model has no calendar).
    static let year = 365 * SimTime.day

    /// The label of the instant t (µs from the start): years where the step is whole years,
    /// else days, then the time of day where the step is below a day.
    static func timeLabel(_ t: Int64, step: Int64) -> String {
        if step >= year && step % year == 0 { return "year \(t / year)" }
        let day = t / SimTime.day, rest = t % SimTime.day
        if step >= SimTime.day && step % SimTime.day == 0 { return "day \(day)" }
        return String(format: "d%lld %02lld:%02lld", day, rest / SimTime.hour, (rest % SimTime.hour) / SimTime.minute)
    }

    /// The steps a tick may take: minutes, hours, days, then 1, 2, 5 × 10ⁿ years up to the clock's end.
    static let steps: [Int64] = {
        var steps: [Int64] = [1, 2, 5, 10, 15, 30].map { $0 * SimTime.minute } + [1, 2, 3, 6, 12].map { $0 * SimTime.hour }
            + [1, 2, 7, 14, 28, 56, 112, 364].map { $0 * SimTime.day }
        var years: Int64 = 1
        while SimTime.saturatingProduct(years, year) < Int64.max {
            for k: Int64 in [1, 2, 5] where SimTime.saturatingProduct(k * years, year) < Int64.max {
                steps.append(k * years * year)
            }
            years *= 10
        }
        return steps
    }()

    /// The most ticks the axis takes.
    static let maxTicks: Int64 = 40

    /// The tick step: the smallest whole step whose labels, at their estimated width plus a gap,
    /// fit between ticks; at most ``maxTicks`` ticks whatever the span (a run of centuries
    /// takes steps of years).
    static func tickStep(span: Int64) -> Int64 {
        for step in steps {
            let ticks = span / step + 1
            guard ticks <= maxTicks else { continue }
            let widest = (0...ticks).map { SVGText.estimatedWidth(timeLabel(SimTime.saturatingProduct($0, step), step: step), fontSize: tickSize) }.max() ?? 0
            if Double(step) / Double(max(span, 1)) * plotWidth >= widest + 12 { return step }
        }
        // No step's labels fit (only near the clock's end): the fewest ticks.
        return steps.last { span / $0 + 1 >= 2 } ?? steps.last ?? SimTime.day
    }

    /// The count axis: logarithmic by the sweep charts' rule (SVGChart.logDecades: the positive
    /// counts spanning more than two decades, a row for 0 under a break when a bin counts 0),
    /// so a flow of a few re-requests a bin shows beside thousands of letters; else linear from
    /// 0 to a round number above the highest count, in 1-2-2.5-5 steps.
    static func valueAxis(_ columns: [[Int]], top: Double, bottom: Double) -> SVGChart.YScale {
        let values = columns.flatMap { $0 }.map(Double.init)
        if let (low, high, zero) = SVGChart.logDecades(means: values, all: values) {
            // Counts are whole: no decade below 1.
            return SVGChart.YScale(kind: .log(lowDecade: max(low, 0), highDecade: max(high, max(low, 0) + 1), zero: zero),
                                   top: top, bottom: bottom, percent: false)
        }
        let highest = max(1, values.max() ?? 1)
        let raw = highest / 5
        let magnitude = pow(10, floor(log10(max(raw, 1))))
        let yStep = [1.0, 2, 2.5, 5, 10].map { $0 * magnitude }.first { $0 >= raw } ?? 10 * magnitude
        let yMax = max(yStep, ceil(highest / yStep) * yStep)
        return SVGChart.YScale(kind: .linear(min: 0, max: yMax, step: yStep), top: top, bottom: bottom, percent: false)
    }

    package var svg: String {
        let left = LoadChart.left, right = left + LoadChart.plotWidth, top = LoadChart.top, bottom = top + LoadChart.plotHeight
        let names = lines.map(\.name)
        let worstBins = worst
        let notes = worstBins.map { "\(LoadChart.timeLabel(SimTime.binStart($0.bin, bin: bin), step: SimTime.minute)): \($0.count) \(lines[marked].name)" }
        let legendWidth = (names + notes + ["worst bins:"]).map { SVGText.estimatedWidth($0, fontSize: LoadChart.legendSize) }.max() ?? 0
        let width = (max(right + 24 + 36 + legendWidth, left + SVGText.estimatedWidth(title, fontSize: 17, bold: true),
                         left + SVGText.estimatedWidth(subtitle, fontSize: 12)) + 20).rounded(.up)
        let height = (bottom + 70).rounded(.up)
        let n = lines.first?.values.count ?? 1
        let group = max(1, (n + LoadChart.maxPoints - 1) / LoadChart.maxPoints)
        let points = (n + group - 1) / group
        func column(_ values: [Int]) -> [Int] {
            (0..<points).map { p in values[(p * group)..<min(n, (p + 1) * group)].max() ?? 0 }
        }
        let columns = lines.map { column($0.values) }
        let vertical = LoadChart.valueAxis(columns, top: top, bottom: bottom)
        func x(_ t: Int64) -> Double { left + Double(t) / Double(max(end, 1)) * (right - left) }
        let y = vertical.y
        func f(_ v: Double) -> String { String(format: "%.1f", v) }
        var out = SVGText.documentStart(width: Int(width), height: Int(height), title: title, fontSize: 12) + """
        <rect x="0" y="0" width="\(Int(width))" height="\(Int(height))" fill="#ffffff"/>
        <text x="\(f(left))" y="28" font-size="17" font-weight="bold">\(SVGText.escape(title))</text>
        <text x="\(f(left))" y="48" font-size="12" fill="#555555">\(SVGText.escape(subtitle))</text>

        """
        for minor in vertical.minorTicks {
            out += "<line class=\"minor\" x1=\"\(f(left))\" y1=\"\(f(y(minor)))\" x2=\"\(f(right))\" y2=\"\(f(y(minor)))\" stroke=\"#f0f0f0\"/>\n"
        }
        for tick in vertical.ticks {
            out += SVGText.gridLine(y: y(tick), left: left, right: right, label: vertical.isLog ? vertical.tickLabel(tick) : SVGNumber.text(tick))
        }
        if vertical.hasZeroRow { out += SVGText.axisBreak(left: left, bottom: bottom) }
        out += SVGText.axes(left: left, right: right, top: top, bottom: bottom)
        let step = LoadChart.tickStep(span: end)
        // Counted, not stepped past the end: `t += step` would pass the clock's end.
        for i in 0...(end / step) {
            let t = i * step
            out += "<line x1=\"\(f(x(t)))\" y1=\"\(f(bottom))\" x2=\"\(f(x(t)))\" y2=\"\(f(bottom + 5))\" stroke=\"#333333\"/>\n"
            out += "<text class=\"tick\" x=\"\(f(x(t)))\" y=\"\(f(bottom + 20))\" text-anchor=\"middle\">\(SVGText.escape(LoadChart.timeLabel(t, step: step)))</text>\n"
        }
        let axis = step >= LoadChart.year && step % LoadChart.year == 0 ? "years of 365 days" : "day and time of day"
        out += "<text class=\"x-label\" x=\"\(f((left + right) / 2))\" y=\"\(f(bottom + 48))\" text-anchor=\"middle\" font-size=\"13\">simulated time (\(axis))</text>\n"
        let yMid = (top + bottom) / 2
        out += "<text class=\"y-label\" x=\"22\" y=\"\(f(yMid))\" text-anchor=\"middle\" font-size=\"13\" transform=\"rotate(-90 22 \(f(yMid)))\">count per bin\(vertical.isLog ? ", log scale" : "")</text>\n"
        for (s, values) in columns.enumerated() {
            let color = SVGChart.palette[s % SVGChart.palette.count]
            let polyline = values.enumerated().map { p, v in "\(f(x(Int64(p * group) * bin))),\(f(y(Double(v))))" }.joined(separator: " ")
            out += "<polyline data-series=\"\(SVGText.escape(lines[s].name))\" points=\"\(polyline)\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"1.5\"/>\n"
        }
        for w in worstBins {
            out += "<circle class=\"worst\" cx=\"\(f(x(Int64(w.bin) * bin)))\" cy=\"\(f(y(Double(w.count))))\" r=\"5\" fill=\"none\" stroke=\"#000000\" stroke-width=\"1.5\"/>\n"
        }
        var ly = top + 6
        let lx = right + 24
        out += "<g class=\"legend\">\n"
        for (s, name) in names.enumerated() {
            let color = SVGChart.palette[s % SVGChart.palette.count]
            out += "<line x1=\"\(f(lx))\" y1=\"\(f(ly - 4))\" x2=\"\(f(lx + 28))\" y2=\"\(f(ly - 4))\" stroke=\"\(color)\" stroke-width=\"2\"/>\n"
            out += "<text x=\"\(f(lx + 36))\" y=\"\(f(ly))\">\(SVGText.escape(name))</text>\n"
            ly += 22
        }
        if !notes.isEmpty {
            out += "<circle cx=\"\(f(lx + 14))\" cy=\"\(f(ly - 4))\" r=\"5\" fill=\"none\" stroke=\"#000000\" stroke-width=\"1.5\"/>\n"
            out += "<text x=\"\(f(lx + 36))\" y=\"\(f(ly))\">worst bins:</text>\n"
            for note in notes {
                ly += 20
                out += "<text x=\"\(f(lx + 36))\" y=\"\(f(ly))\">\(SVGText.escape(note))</text>\n"
            }
        }
        out += "</g>\n</svg>\n"
        return out
    }
}
