// One figure per chart with a line per population (several sweeps) or per segment (one sweep).
import Foundation
import PushSimExperiment
import PushSimScenarioFile

/// Several sweeps of one axis drawn together: each chart once, with a colour per source (a
/// population's sweep, or one segment of a sweep) and its arms in it (the off arm dashed).
/// `pushsim report DIR DIR… --out OUT` draws the sweeps of several folders;
/// `pushsim sweep --segments-together` a sweep's segments.
package struct SweepOverlay {
    package struct Source {
        package var name: String
        package var result: SweepResult
        /// Put before each metric's name: `segments.NAME.` for a segment, empty for a whole sweep.
        package var prefix: String
        package init(name: String, result: SweepResult, prefix: String = "") {
            self.name = name; self.result = result; self.prefix = prefix
        }
    }

    package var sources: [Source]
    /// What the sources are, for the subtitle: "populations" or "segments".
    package var kind: String
    /// The file-name prefix of each chart (`segments-` beside a sweep's own charts; none in a folder of its own).
    package var filePrefix = ""

    package init(sources: [Source], kind: String) { self.sources = sources; self.kind = kind }

    /// Why these sweeps cannot share a figure, or nil: each has at most one axis, and all the same one.
    package var refusal: String? {
        guard let first = sources.first else { return "nothing to draw" }
        for source in sources where source.result.axes.count > 1 {
            return "'\(source.name)' varies \(source.result.axes.count) axes; a figure of several sweeps takes sweeps of one axis"
        }
        let path = first.result.axes.first?.path
        for source in sources where source.result.axes.first?.path != path {
            return "'\(source.name)' varies \(source.result.axes.first?.path ?? "nothing"), '\(first.name)' "
                + "\(path ?? "nothing"): the sweeps of one figure share their axis"
        }
        return nil
    }

    /// The x axis: every source's values, in order of their numbers when all are numbers.
    var categories: [String] {
        var values: [String] = []
        for source in sources {
            for value in source.result.axes.first?.values ?? ["base"] where !values.contains(value) { values.append(value) }
        }
        let numbers = values.compactMap(Double.init)
        guard numbers.count == values.count else { return values }
        return zip(values, numbers).sorted { $0.1 < $1.1 }.map(\.0)
    }

    /// The charts every source can draw (the capacity charts when all have their figures).
    var specs: [SweepChartSpec] {
        SweepResult.chartSpecs + (sources.allSatisfy(\.result.hasCapacityFigures) ? SweepResult.capacityChartSpecs : [])
    }

    package func chart(_ spec: SweepChartSpec) -> SVGChart {
        let categories = self.categories
        var series: [SVGChart.Series] = []
        for (s, source) in sources.enumerated() {
            let result = source.result
            let axis = result.axes.first
            let armNames = result.points.first?.summaries.map(\.queue) ?? []
            for (a, arm) in armNames.enumerated() {
                guard let (values, low, high) = SweepCharts.armLine(arm: a, armName: arm, metric: source.prefix + spec.metric,
                                                                    percent: spec.percent, categories: categories, point: { category in
                    result.points.first { point in
                        (axis.flatMap { a in point.point.settings.first { $0.path == a.path }?.value } ?? "base") == category
                    }
                }) else { continue }
                let design = axis?.path == SweepCharts.recoveryKey ? nil : result.baseRecovery
                series.append(SVGChart.Series(name: "\(source.name) · " + SweepCharts.armName(arm, design: design),
                                              values: values, low: low, high: high, dashed: arm == "off", color: s))
            }
        }
        let counts = Set(sources.map(\.result.seeds.count)).sorted()
        let n = counts.map(String.init).joined(separator: " or ")
        var subtitle = sources.map(\.name).joined(separator: ", ") + " (\(kind)) · \(n) replication\(counts == [1] ? "" : "s") per point · mean"
        subtitle += counts.allSatisfy({ $0 > 1 }) ? " with its 95 % confidence interval (Student t)" : " (one replication: no interval)"
        if kind == "segments" {
            subtitle += "\n" + sources[0].result.scenario + " · " + sources[0].result.provenanceLine
        } else {
            var seeds: [String] = []
            for seed in sources.compactMap({ $0.result.seeds.first }).map(String.init) where !seeds.contains(seed) { seeds.append(seed) }
            subtitle += "\nseed\(seeds.count == 1 ? "" : "s") \(seeds.joined(separator: ", ")) · drawn by PushSim \(PushSimVersion.current) from each folder's sweep.json"
        }
        let path = sources.first?.result.axes.first?.path
        var chart = SVGChart(title: "\(spec.title), by \(kind == "segments" ? "segment" : "population")", subtitle: subtitle,
                             xLabel: path.map(SweepCharts.axisLabel) ?? "scenario as written", yLabel: spec.yLabel,
                             categories: categories, series: series, percent: spec.percent)
        chart.xAxis = .byValue
        return chart
    }

    /// Every chart as (file name, SVG), in the plain style for a paper when `plain`.
    package func charts(plain: Bool) -> [(name: String, contents: String)] {
        specs.map { spec in
            var chart = chart(spec)
            chart.plain = plain
            return (filePrefix + spec.file, chart.svg)
        }
    }
}

extension SweepResult {
    /// The sweep's segments in one figure per chart (`segments-loss_rate.svg`, …).
    package var segmentOverlay: SweepOverlay {
        var overlay = SweepOverlay(sources: segments.map { SweepOverlay.Source(name: $0, result: self, prefix: "segments.\($0).") },
                                   kind: "segments")
        overlay.filePrefix = "segments-"
        return overlay
    }

    /// The files `--segments-together` may write, so a later sweep replaces or removes every one.
    package static var segmentOverlayFiles: [String] { (chartSpecs + capacityChartSpecs).map { "segments-" + $0.file } }

    /// A sweep read back from its sweep.json: the scenario, axes, seeds, the resolved base's
    /// recovery design, and each point's arms with every metric's mean and 95 % half-width
    /// (what the charts draw); nil when the document is not a sweep's.
    package init?(sweepJSON root: JSONValue) {
        guard case .object(let top) = root, case .string(let scenario)? = top["scenario"],
              case .array(let axes)? = top["axes"], case .array(let points)? = top["points"] else { return nil }
        func text(_ value: JSONValue) -> String? {
            switch value {
            case .string(let s): return s
            case .int(let i): return String(i)
            case .uint(let u): return String(u)
            case .double(let d): return JSONValue.format(d)
            case .bool(let b): return String(b)
            default: return nil
            }
        }
        var parsedAxes: [SweepAxis] = []
        for axis in axes {
            guard case .object(let members) = axis, case .string(let path)? = members["path"],
                  case .array(let values)? = members["values"] else { return nil }
            parsedAxes.append(SweepAxis(path: path, values: values.compactMap(text)))
        }
        var parsedPoints: [SweepPointResult] = []
        for point in points {
            guard case .object(let members) = point, case .object(let set)? = members["set"],
                  case .array(let runs)? = members["runs"] else { return nil }
            let settings = parsedAxes.compactMap { axis in set[axis.path].flatMap(text).map { SweepSetting(path: axis.path, value: $0) } }
            let summaries = runs.compactMap { run -> ArmSummary? in
                guard case .object(let arm) = run, case .string(let queue)? = arm["queue"] else { return nil }
                var metrics: [String: MetricSummary] = [:]
                SweepOverlay.collect(run, prefix: "", into: &metrics)
                return ArmSummary(queue: queue, metrics: metrics)
            }
            parsedPoints.append(SweepPointResult(point: SweepPoint(settings: settings), replications: [], summaries: summaries))
        }
        var seeds: [UInt64] = []
        if case .array(let list)? = top["seeds"] {
            for seed in list {
                if case .uint(let u) = seed { seeds.append(u) } else if case .int(let i) = seed, i >= 0 { seeds.append(UInt64(i)) }
            }
        }
        self.init(scenario: scenario, axes: parsedAxes, seeds: seeds, points: parsedPoints)
        if case .object(let resolved)? = top["resolved_scenario"], case .string(let recovery)? = resolved[SweepCharts.recoveryKey] {
            resolvedScenario = [ScenarioPrinter.Entry(SweepCharts.recoveryKey, .scalar(recovery))]
        }
    }
}

extension SweepOverlay {
    /// The largest magnitude a sweep's mean or interval can hold: 10^18, beyond the events any
    /// run finishes (30 000 years at 10 M events/s); a larger one is not a value PushSim wrote.
    package static let largestValue = 1e18

    /// The first mean or interval of `result` (read back from a sweep.json) that no sweep
    /// measures, named by its key path, or nil: the figures are drawn only from what a sweep can hold.
    package static func implausibleValue(in result: SweepResult) -> String? {
        for (i, point) in result.points.enumerated() {
            for (j, arm) in point.summaries.enumerated() {
                for name in arm.metrics.keys.sorted() {
                    guard let metric = arm.metrics[name] else { continue }
                    if !(abs(metric.mean) <= largestValue) {
                        return "`points[\(i)].runs[\(j)].\(name).mean` is \(metric.mean), beyond what a sweep measures (at most 1e18 in magnitude)"
                    }
                    if let ci = metric.ci95, !(0...largestValue).contains(ci) {
                        return "`points[\(i)].runs[\(j)].\(name).ci95` is \(ci), not a half-width a sweep measures (from 0 to 1e18)"
                    }
                }
            }
        }
        return nil
    }

    /// Every `{"mean", "ci95"}` leaf of an arm under its dotted name.
    static func collect(_ value: JSONValue, prefix: String, into metrics: inout [String: MetricSummary]) {
        guard case .object(let members) = value else { return }
        if let mean = members["mean"], members.count <= 2, members.keys.allSatisfy({ $0 == "mean" || $0 == "ci95" }) {
            let number: (JSONValue?) -> Double? = { v in
                switch v {
                case .double(let d)?: return d
                case .int(let i)?: return Double(i)
                case .uint(let u)?: return Double(u)
                default: return nil
                }
            }
            if let m = number(mean) { metrics[prefix] = MetricSummary(mean: m, ci95: number(members["ci95"]), count: 0) }
            return
        }
        for (key, member) in members { collect(member, prefix: prefix.isEmpty ? key : prefix + "." + key, into: &metrics) }
    }
}
