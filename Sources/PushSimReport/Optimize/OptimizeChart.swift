// optimize.svg: each candidate's paired difference from the chosen one, with its Bonferroni interval, against the indifference zone δ.
import PushSimExperiment

extension OptimizeResult {
    /// The decision as a picture: for every candidate, the mean of (candidate − chosen) over
    /// the replications both have, with its simultaneous interval (the chosen one sits at 0),
    /// and a dashed line at δ. A candidate whose band lies above the line is worse beyond the
    /// indifference zone; one whose band reaches below it cannot be told apart from the chosen.
    package var chart: SVGChart {
        let categories = points.map { point in
            point.settings.isEmpty ? "base" : point.settings.map(\.value).joined(separator: ", ")
        }
        var values: [Double?] = [], low: [Double?] = [], high: [Double?] = []
        for i in points.indices {
            if i == selection.best {
                values.append(0); low.append(0); high.append(0)
            } else if let d = differences.first(where: { $0.system == i }) {
                values.append(d.mean)
                low.append(d.halfWidth.map { d.mean - $0 })
                high.append(d.halfWidth.map { d.mean + $0 })
            } else {
                values.append(nil); low.append(nil); high.append(nil)
            }
        }
        let confidence = JSONValue.format((1 - settings.alpha) * 100)
        let series = [
            SVGChart.Series(name: "candidate − chosen (paired)", values: values, low: low, high: high),
            SVGChart.Series(name: "indifference zone δ", values: points.map { _ in settings.delta },
                            low: points.map { _ in nil }, high: points.map { _ in nil }, dashed: true),
        ]
        let runs = selection.replications.reduce(0, +)
        var subtitle = "\(scenario) · chosen \(chosen.label) · \(runs) runs"
        if let fixed = fixedSampleReplications { subtitle += " (a fixed sample of the same guarantee: \(fixed * points.count))" }
        subtitle += "\nPushSim \(PushSimVersion.current) · seed \(seeds.first.map(String.init) ?? "?") · objective \(settings.metric)"
        var chart = SVGChart(title: "Which value? Each candidate against the chosen one", subtitle: subtitle,
                             xLabel: axes.map { SweepCharts.axisLabel($0.path) }.joined(separator: " × "),
                             yLabel: "\(settings.metric), candidate − chosen", categories: categories,
                             series: series, percent: false)
        chart.note = "band: Bonferroni \(confidence) % (simultaneous)"
        return chart
    }
}
