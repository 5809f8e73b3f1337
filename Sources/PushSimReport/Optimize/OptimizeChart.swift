// optimize.svg: each candidate's paired difference from the chosen one, with its Bonferroni interval, against the indifference zone δ.
import Foundation
import PushSimExperiment

extension OptimizeResult {
    /// The decision as a picture: for every candidate, the mean of (candidate − chosen) over
    /// the replications both have, with its simultaneous interval (the chosen one sits at 0),
    /// over the indifference zone from 0 to δ, shaded. A candidate whose interval reaches into
    /// the zone cannot be told apart from the chosen by more than δ and is drawn as within δ;
    /// one whose interval lies wholly above it is worse beyond the indifference zone. Points,
    /// never a line: candidates are choices, and one axis of numbers is spaced by value.
    package var chart: SVGChart {
        let categories = points.map { point in
            point.settings.isEmpty ? "base" : point.settings.map(\.value).joined(separator: ", ")
        }
        let delta = settings.delta
        var within = SVGChart.Series(name: "within δ of the chosen", values: [], low: [], high: [], color: 2)
        var beyond = SVGChart.Series(name: "worse by more than δ", values: [], low: [], high: [], color: 1)
        for i in points.indices {
            var value: Double?, low: Double?, high: Double?
            if i == selection.best {
                value = 0; low = 0; high = 0
            } else if let d = differences.first(where: { $0.system == i }) {
                value = d.mean
                low = d.halfWidth.map { d.mean - $0 }
                high = d.halfWidth.map { d.mean + $0 }
            }
            let isWithin = value.map { (low ?? $0) <= delta } ?? false
            within.values.append(isWithin ? value : nil); within.low.append(isWithin ? low : nil); within.high.append(isWithin ? high : nil)
            beyond.values.append(isWithin ? nil : value); beyond.low.append(isWithin ? nil : low); beyond.high.append(isWithin ? nil : high)
        }
        within.pointsOnly = true
        beyond.pointsOnly = true
        let confidence = JSONValue.format((1 - settings.alpha) * 100)
        let runs = selection.replications.reduce(0, +)
        var subtitle = "\(scenario) · chosen \(chosen.label) · \(runs) runs"
        if let fixed = fixedSampleReplications { subtitle += " (a fixed sample of the same guarantee: \(fixed * points.count))" }
        subtitle += "\nPushSim \(PushSimVersion.current) · seed \(seeds.first.map(String.init) ?? "?") · objective \(settings.metric)"
        var chart = SVGChart(title: "Which value? Each candidate against the chosen one", subtitle: subtitle,
                             xLabel: axes.map { SweepCharts.axisLabel($0.path) }.joined(separator: " × "),
                             yLabel: "\(settings.metric), candidate − chosen", categories: categories,
                             series: [within, beyond].filter { $0.values.contains { $0 != nil } }, percent: false)
        chart.zone = SVGChart.Zone(low: 0, high: delta, name: "indifference zone, 0 to δ = \(JSONValue.format(delta))")
        // One axis of numbers is spaced by value; several axes' combinations are categories.
        chart.xAxis = axes.count == 1 ? .byValue : .evenly
        chart.note = "bar: Bonferroni \(confidence) % (simultaneous)"
        chart.intervalName = "Bonferroni \(confidence) %"
        return chart
    }
}

extension OptimizeResult {
    /// The zone is thin when it takes less than this share of the chart's value axis: then a
    /// reader cannot see which candidates lie inside it, and a zoomed panel is drawn below.
    static let thinZone = 1.0 / 20

    /// Whether the chart's indifference zone is too thin to read (``thinZone``), measured as drawn.
    var zoneIsThin: Bool {
        let chart = self.chart
        guard let zone = chart.zone else { return false }
        let scale = chart.yScaleFor(top: 0, bottom: SVGChart.Layout.plotHeight)
        return abs(scale.y(zone.low) - scale.y(zone.high)) < SVGChart.thinZoneShare(Self.thinZone)
    }

    /// The zoomed panel, when the zone is thin: the same candidates on a linear axis from −δ to
    /// 3δ (higher when a candidate within δ has its mean above that), so the zone fills about a
    /// quarter of it; a candidate whose mean lies beyond the panel is left out of it, its
    /// interval cut at the panel's edges, and the panel's note counts them.
    package var zoomChart: SVGChart? {
        guard zoneIsThin else { return nil }
        var chart = self.chart
        let delta = settings.delta
        let withinMeans = chart.series.filter { $0.name == "within δ of the chosen" }.flatMap { $0.values.compactMap { $0 } }
        let high = max(3 * delta, (withinMeans.max() ?? 0) * 1.1), low = -delta
        var off = 0
        chart.series = chart.series.map { series in
            var copy = series
            for i in copy.values.indices {
                guard let v = copy.values[i] else { continue }
                if v < low || v > high {
                    off += 1
                    copy.values[i] = nil; copy.low[i] = nil; copy.high[i] = nil
                } else {
                    copy.low[i] = copy.low[i].map { min(max($0, low), high) }
                    copy.high[i] = copy.high[i].map { min(max($0, low), high) }
                }
            }
            return copy
        }.filter { $0.values.contains { $0 != nil } }
        chart.yLimits = (low, high)
        chart.title = "Zoomed to δ: which candidates lie within it"
        chart.subtitle = "the same candidates, the value axis from \(JSONValue.format(low)) to \(JSONValue.format(high)) (−δ to \(high == 3 * delta ? "3δ" : "the highest within δ"))"
        if off > 0 { chart.note += "; \(off) beyond this panel" }
        return chart
    }

    /// optimize.svg: the chart, with the zoomed panel under it when the zone is thin.
    package var svg: String {
        guard let zoom = zoomChart else { return chart.svg }
        return SVGText.stacked([chart.svg, zoom.svg], title: chart.title)
    }
}
