// The charts of a sweep: chosen metrics against the first axis, one line per arm and combination.
import Foundation
import PushSimCore
import PushSimExperiment

/// A metric a sweep draws, and how.
package struct SweepChartSpec: Sendable {
    package var file: String
    package var metric: String
    package var title: String
    package var yLabel: String
    package var percent: Bool
}

extension SweepResult {
    /// The charts every sweep writes: the study's trade-off, loss against its prices.
    package static let chartSpecs: [SweepChartSpec] = [
        SweepChartSpec(file: "loss_rate.svg", metric: "loss_rate", title: "Letters lost",
                       yLabel: "loss rate (% of letters)", percent: true),
        SweepChartSpec(file: "duplicate_rate.svg", metric: "duplicate_rate", title: "Duplicate notifications",
                       yLabel: "duplicates (% of letters)", percent: true),
        SweepChartSpec(file: "summaries_per_letter.svg", metric: "summaries_per_letter",
                       title: "Summary notifications (\"N missed messages\")",
                       yLabel: "summaries per letter", percent: false),
        SweepChartSpec(file: "summarized_rate.svg", metric: "summarized_rate", title: "Letters known only from a summary",
                       yLabel: "summarized (% of letters)", percent: true),
        SweepChartSpec(file: "resent_per_letter.svg", metric: "resent_per_letter", title: "XIVA re-send load",
                       yLabel: "pushes re-sent per letter", percent: false),
        SweepChartSpec(file: "latency_p99.svg", metric: "latency_s.p99", title: "Latency to first delivery, p99",
                       yLabel: "p99 latency (s)", percent: false),
    ]

    /// The charts of a sweep with a finite XIVA capacity (docs/model.md §6), written only when
    /// its points have the figures, so other sweeps keep their files.
    package static let capacityChartSpecs: [SweepChartSpec] = [
        SweepChartSpec(file: "in_time_share.svg", metric: SweepMarkdown.inTimeShare,
                       title: "Re-requests answered before the extension's deadline",
                       yLabel: "answered in time (% of re-requests)", percent: true),
        SweepChartSpec(file: "extension_timeouts.svg", metric: SweepMarkdown.timeoutsPerReRequest,
                       title: "Extension time-outs", yLabel: "time-outs (% of re-requests)", percent: true),
        SweepChartSpec(file: "xiva_errors.svg", metric: SweepMarkdown.errorsPerReRequest,
                       title: "XIVA errors (outage, queue time-out)", yLabel: "errors (% of re-requests)", percent: true),
        SweepChartSpec(file: "xiva_max_wait.svg", metric: "xiva.max_wait_s", title: "Longest wait at XIVA",
                       yLabel: "longest wait in a partition's queue (s)", percent: false),
        SweepChartSpec(file: "xiva_max_queue.svg", metric: "xiva.max_queue", title: "Largest XIVA queue",
                       yLabel: "most re-requests waiting in a partition", percent: false),
    ]

    /// The charts of a sweep run with `--fleet` or `--load-bin` (``SweepLoad``): per quantity,
    /// its mean, busiest second and busiest minute per 1 000 phones a second. `metric` names the
    /// figures' common prefix (``loadChart(_:)``).
    package static let loadChartSpecs: [SweepChartSpec] = SweepLoad.quantities.map { q in
        SweepChartSpec(file: "load_\(q.key).svg", metric: SweepLoad.name(q, scale: "per_1000", ""),
                       title: "Load: \(q.label)", yLabel: "per 1 000 phones, a second", percent: false)
    }

    /// The charts this sweep draws: every sweep's, then the capacity charts when it has the
    /// figures, each segment's, then the load charts (of the totals) when it carries the load.
    package var writtenChartSpecs: [SweepChartSpec] {
        let whole = Self.chartSpecs + (hasCapacityFigures ? Self.capacityChartSpecs : [])
        let load = hasLoadFigures ? Self.loadChartSpecs : []
        guard chartsPerSegment else { return whole + load }
        return whole + segments.enumerated().flatMap { index, segment in
            whole.map { Self.segmentSpec($0, segment: segment, index: index) }
        } + load
    }

    /// A chart of one segment's figures: the metric under `segments.NAME.`, in a file named by
    /// the segment's place and name (`segment1-subway-loss_rate.svg`; characters a file name
    /// should not hold become `_`, and the place keeps two names that read alike apart).
    static func segmentSpec(_ spec: SweepChartSpec, segment: String, index: Int) -> SweepChartSpec {
        var copy = spec
        copy.file = segmentFilePrefix(segment, index: index) + spec.file
        copy.metric = "segments.\(segment).\(spec.metric)"
        copy.title = "\(spec.title) · segment \(segment)"
        return copy
    }

    static func segmentFilePrefix(_ segment: String, index: Int) -> String {
        let slug = String(segment.unicodeScalars.map { scalar -> Character in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || scalar == "-" || scalar == "_") ? Character(scalar) : "_"
        })
        return "segment\(index + 1)-\(slug.prefix(40))-"
    }

    /// Every chart as (file name, SVG text).
    package var charts: [(name: String, svg: String)] {
        charts(plain: false).map { (name: $0.name, svg: $0.contents) }
    }

    /// The same, in the plain style for a paper when `plain` (SVGChart.plain).
    package func charts(plain: Bool) -> [(name: String, contents: String)] {
        writtenChartSpecs.map { spec in
            var chart = chart(spec)
            chart.plain = plain
            return (spec.file, chart.svg)
        }
    }

    /// One chart: x is the first axis (numbers in proportion to their values, names as
    /// categories: SVGChart.XAxis.byValue); each arm that has the metric is a series (queue off
    /// dashed), and every combination of the other axes' values gets series of its own.
    package func chart(_ spec: SweepChartSpec) -> SVGChart {
        if spec.metric.hasPrefix("load."), spec.metric.hasSuffix(".") { return loadChart(spec) }
        let xAxis = axes.first
        let categories = xAxis?.values ?? ["base"]
        func xValue(_ point: SweepPoint) -> String { xAxis.flatMap { a in point.settings.first { $0.path == a.path }?.value } ?? "base" }
        func rest(_ point: SweepPoint) -> [SweepSetting] { Array(point.settings.dropFirst(xAxis == nil ? 0 : 1)) }
        var combinations: [[SweepSetting]] = []
        for point in points where !combinations.contains(rest(point.point)) { combinations.append(rest(point.point)) }
        let armNames = points.first?.summaries.map(\.queue) ?? []
        let designOnAxis = xAxis?.path == SweepCharts.recoveryKey
        var series: [SVGChart.Series] = []
        for (c, combination) in combinations.enumerated() {
            // The design is named in the arm's name, so the rest of the combination names the series.
            let design = combination.first { $0.path == SweepCharts.recoveryKey }?.value ?? baseRecovery
            let others = combination.filter { $0.path != SweepCharts.recoveryKey }
            for (a, arm) in armNames.enumerated() {
                guard let (values, low, high) = SweepCharts.armLine(arm: a, armName: arm, metric: spec.metric, percent: spec.percent,
                                                                    categories: categories, point: { category in
                    points.first { xValue($0.point) == category && rest($0.point) == combination }
                }) else { continue }
                var name = SweepCharts.armName(arm, design: designOnAxis ? nil : design)
                if !others.isEmpty { name += " · " + others.map(\.override).joined(separator: ", ") }
                // The off arm runs without recovery whatever the design: drawn once, not once per design.
                if arm == "off", series.contains(where: { $0.name == name && $0.values == values }) { continue }
                // Each arm keeps its colour whether or not the other is drawn.
                series.append(SVGChart.Series(name: name, values: values, low: low, high: high, dashed: arm == "off",
                                              color: c * armNames.count + a))
            }
        }
        let n = seeds.count
        let subtitle = "\(scenario) · \(n) replication\(n == 1 ? "" : "s") per point · mean"
            + (n > 1 ? " with its 95 % confidence interval (Student t)" : " (one replication: no interval)")
            + "\n" + provenanceLine
        var chart = SVGChart(title: spec.title, subtitle: subtitle,
                             xLabel: xAxis.map { SweepCharts.axisLabel($0.path) } ?? "scenario as written",
                             yLabel: spec.yLabel, categories: categories, series: series, percent: spec.percent)
        chart.xAxis = .byValue
        return chart
    }
}

extension SweepResult {
    /// A load chart: each figure of ``DesignLoad/figures`` (under `spec.metric`) drawn as
    /// ``chart(_:)`` draws one metric, its series named for the figure too. What is n/a (a
    /// figure the runs' bins cannot give, re-requests of a design that sends none) draws nothing
    /// and is named under the title with its reason, each reason once with the figures it stands for.
    func loadChart(_ spec: SweepChartSpec) -> SVGChart {
        var combined: SVGChart?
        var series: [SVGChart.Series] = []
        var missing: [(reason: String, figures: [String])] = []
        for figure in DesignLoad.figures {
            var one = spec
            one.metric = spec.metric + figure.name
            let chart = chart(one)
            if combined == nil { combined = chart }
            for var line in chart.series {
                line.name += " · " + (figure.name == "peak_per_s_1m" ? "busiest minute (its count / 60)" : figure.title)
                line.color = series.count
                series.append(line)
            }
            for point in points {
                for reason in point.summaries.compactMap({ $0.notApplicable[one.metric] }) {
                    if let i = missing.firstIndex(where: { $0.reason == reason }) {
                        if !missing[i].figures.contains(figure.title) { missing[i].figures.append(figure.title) }
                    } else {
                        missing.append((reason, [figure.title]))
                    }
                }
            }
        }
        var chart = combined ?? SVGChart(title: spec.title, subtitle: "", xLabel: "", yLabel: spec.yLabel, categories: [],
                                         series: [], percent: false)
        chart.title = spec.title
        chart.series = series
        for entry in missing { chart.subtitle += "\nn/a (\(entry.figures.joined(separator: ", "))): \(entry.reason)" }
        return chart
    }
}

extension SweepResult {
    /// `PushSim 2.0.0 · seed 7 · --set apns.expiration=1h`: two sweeps of one file with other
    /// overrides never carry the same subtitle.
    package var provenanceLine: String {
        var line = "PushSim \(PushSimVersion.current) · seed \(seeds.first.map(String.init) ?? "?")"
        let sets = overrides.filter { !$0.hasPrefix("seed=") }
        line += sets.isEmpty ? " · the file as written" : " · --set " + sets.joined(separator: " --set ")
        return line
    }
}

extension SweepResult {
    /// The base scenario's recovery design (`recovery`, docs/scenarios.md), `queue` when not known.
    var baseRecovery: String {
        guard let entry = resolvedScenario.first(where: { $0.key == SweepCharts.recoveryKey }),
              case .scalar(let value) = entry.value else { return "queue" }
        return value
    }
}

enum SweepCharts {
    static let recoveryKey = "recovery"

    /// One arm's means and 95 % intervals at each category (`point` finds the category's
    /// point), or nil when the arm has no value there or cannot have one: what only the queue
    /// does (summaries, re-sends) draws no off-arm line at 0, unless something in it did give a value.
    static func armLine(arm a: Int, armName: String, metric name: String, percent: Bool, categories: [String],
                        point: (String) -> SweepPointResult?) -> (values: [Double?], low: [Double?], high: [Double?])? {
        var values: [Double?] = [], low: [Double?] = [], high: [Double?] = []
        for category in categories {
            let metric = point(category).flatMap { a < $0.summaries.count ? $0.summaries[a].metrics[name] : nil }
            values.append(metric?.mean)
            // Every charted metric is a count, rate or time, and a percentage a share of a
            // whole: a band below 0 or above 100 % would only stretch the axis to values that
            // cannot happen.
            low.append(metric.map { max(0, $0.mean - ($0.ci95 ?? 0)) })
            high.append(metric.map { percent ? min(1, $0.mean + ($0.ci95 ?? 0)) : $0.mean + ($0.ci95 ?? 0) })
        }
        guard values.contains(where: { $0 != nil }) else { return nil }
        let queueOnly = queueOnlyMetrics.contains { name == $0 || name.hasSuffix("." + $0) }
        if armName == "off" && queueOnly && values.allSatisfy({ ($0 ?? 0) == 0 }) && high.allSatisfy({ ($0 ?? 0) == 0 }) { return nil }
        return (values, low, high)
    }

    /// What an arm is, for a legend: the off arm runs without recovery; the on arm is the
    /// design (`recovery`), or, with `design` nil (the designs are the x axis), each design
    /// named under its point.
    static func armName(_ arm: String, design: String?) -> String {
        guard arm == "on" else { return arm == "off" ? "no recovery (off arm)" : "arm \(arm)" }
        guard let design else { return "each design (on arm)" }
        let names = ["queue": "push queue", "catch_up": "client catch-up", "background_sync": "background-push sync",
                     "none": "recovery: none"]
        return "\(names[design] ?? design) (on arm)"
    }

    /// Metrics only the queue arm can have: summaries and re-sends.
    static let queueOnlyMetrics: Set<String> = ["summaries_per_letter", "summarized_rate", "resent_per_letter"]

    /// An axis title with its unit, for the keys whose unit the value does not carry itself.
    static func axisLabel(_ path: String) -> String {
        let units: [String: String] = [
            "queue.repeat_max_count": "largest gap re-requested (letters)",
            "devices": "devices", "mail.rate": "letters per device (rate)",
            "xiva.drop": "probability", "apns.loss": "probability", "xiva.request_error": "probability",
            "device.alerts_off": "probability",
        ]
        if let unit = units[path] { return "\(path): \(unit)" }
        return path
    }
}

extension SweepResult {
    /// The files of a sweep's set (every chart it can draw included): a set write replaces
    /// these, so charts of an earlier sweep never stay beside new tables, and keeps the
    /// folder's others (a run's summary).
    /// The tables every sweep writes (checked before it runs; its charts when they are written).
    package static let alwaysWritten: Set<String> = ["sweep.csv", "sweep.json", "sweep.md"]

    package static var family: Set<String> { family(segments: []) }

    /// The files a sweep of a scenario with these segments may write, so a later sweep
    /// replaces every one of them (segment charts included) or removes it.
    package static func family(segments: [String]) -> Set<String> {
        let specs = chartSpecs + capacityChartSpecs
        let perSegment = segments.enumerated().flatMap { index, segment in specs.map { segmentSpec($0, segment: segment, index: index).file } }
        return Set(["sweep.csv", "sweep.json", "sweep.md", HTMLReport.name] + specs.map(\.file) + perSegment + segmentOverlayFiles
                   + loadChartSpecs.map(\.file))
    }
}
