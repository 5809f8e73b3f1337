// sweep.md: the table a person reads, how it was made, and (in the file) the charts linked in.
import Foundation
import PushSimCore
import PushSimScenarioFile
import PushSimExperiment

extension SweepResult {
    /// sweep.md as written to the results folder, charts linked.
    package var markdown: String { markdown(charts: true) }

    /// The headline metrics of every point and arm as mean ± 95 % half-width, then how the
    /// sweep was made, then (`charts`) the charts as image links, which only make sense in the
    /// folder beside them. Every other metric is in sweep.csv and sweep.json.
    package func markdown(charts: Bool) -> String {
        let n = seeds.count
        var out = "# Sweep · \(scenario)\n\n"
        out += "\(points.count) point\(points.count == 1 ? "" : "s") × \(n) replication\(n == 1 ? "" : "s")"
        out += " (seeds \(seeds.map(String.init).joined(separator: ", "))); the same seeds at every point.\n"
        if !axes.isEmpty {
            out += "Axes: " + axes.map { "`\($0.path)` ∈ {\($0.values.joined(separator: ", "))}" }.joined(separator: " × ") + ".\n"
        }
        out += "Cells: mean ± half-width of the 95 % confidence interval (Student t, \(max(n - 1, 0)) df), the half-width to two "
            + "significant digits and the mean to the same decimal place; a cell without ± had the same value in every replication"
        out += n > 1 ? ".\n\n" : " (one replication gives no interval).\n\n"
        let columns = tableColumns
        out += table(columns, prefix: "") { points[$0].summaries }
        out += designMarkdown
        out += loadMarkdown
        out += comparisonMarkdown(columns, prefix: "")
        for segment in segments {
            let prefix = "segments.\(segment)."
            out += "\n## Segment `\(segment)`\n\nThe same metrics on the segment's own devices.\n\n"
            out += table(columns, prefix: prefix) { points[$0].summaries }
            out += comparisonMarkdown(columns, prefix: prefix)
        }
        out += "\n## How this was made\n\n" + provenanceLine + ". The base scenario of every point, resolved (every key, "
            + "defaults included, overrides applied; `pushsim validate FILE --print` prints the same):\n\n```yaml\n"
            + ScenarioPrinter.yaml(resolvedScenario) + "```\n"
        if charts {
            out += "\n## Charts\n\n"
            for spec in writtenChartSpecs { out += "![\(spec.title)](\(spec.file))\n" }
        }
        return out
    }
}

extension SweepResult {
    /// The harm and cost set of every design (``DesignMetrics``), one row per point and arm.
    var designMarkdown: String {
        var rows: [(labels: [String], summary: ArmSummary)] = []
        for point in points {
            let settings = axes.map { axis in point.point.settings.first { $0.path == axis.path }?.value ?? "" }
            for arm in point.summaries { rows.append((settings + [arm.queue], arm)) }
        }
        return "\n## Harms and costs, every design on the same footing\n\n" + SweepMarkdown.designIntroduction
            + SweepMarkdown.designTable(headers: axes.map { "`\($0.path)`" } + ["queue"], rows: rows)
    }

    /// Whether the sweep carries the load metrics (`--fleet`, `--load-bin`: ``SweepLoad``).
    var hasLoadFigures: Bool { points.contains { SweepMarkdown.carriesLoad($0.summaries) } }

    /// The load an arm puts on XIVA and APNs (``SweepLoad``), per 1 000 phones and at the fleet,
    /// a table per scale, one row per point and arm; nothing for a sweep run without it.
    var loadMarkdown: String {
        SweepMarkdown.loadTables(headers: axes.map { "`\($0.path)`" } + ["queue"], rows: points.flatMap { point in
            let settings = axes.map { axis in point.point.settings.first { $0.path == axis.path }?.value ?? "" }
            return point.summaries.map { (labels: settings + [$0.queue], summary: $0) }
        })
    }

    /// Whether any point has a finite XIVA capacity's figures (the share answered in time).
    var hasCapacityFigures: Bool {
        points.contains { $0.summaries.contains { $0.metrics[SweepMarkdown.inTimeShare] != nil } }
    }

    /// The headline columns (title, metric, unit): the same in the table and the comparison.
    var tableColumns: [(String, String, SweepMarkdown.Unit)] {
        var columns: [(String, String, SweepMarkdown.Unit)] = [
            ("loss rate", "loss_rate", .percent), ("duplicate rate", "duplicate_rate", .percent),
            ("summarized", "summarized_rate", .percent), ("summaries / letter", "summaries_per_letter", .plain),
            ("re-requests / letter", "re_requests_per_letter", .plain), ("re-sent / letter", "resent_per_letter", .plain),
            ("latency p90", "latency_s.p90", .duration), ("latency p99", "latency_s.p99", .duration),
            ("logs' loss estimate", "telemetry.estimated_loss_rate", .percent),
        ]
        // Columns only a sweep whose points have the metric shows, right after the re-sends in
        // this order: other sweeps keep their columns.
        var place = (columns.firstIndex { $0.1 == "resent_per_letter" } ?? columns.count - 1) + 1
        for column in SweepMarkdown.optionalColumns
        where points.contains(where: { $0.summaries.contains { $0.metrics[column.1] != nil } }) {
            columns.insert(column, at: place)
            place += 1
        }
        // A finite XIVA capacity's figures, at the end, only in a sweep that has them.
        if hasCapacityFigures { columns += SweepMarkdown.capacityColumns }
        return columns
    }

    /// One table: a row per point and arm, the columns' metrics under `prefix` (`""` for the
    /// totals, `segments.NAME.` for a segment) from the arm summaries `arms` gives for a point's index; `cell` is
    /// the cell of a point (by index), arm and column.
    func table(_ columns: [(String, String, SweepMarkdown.Unit)], prefix: String,
               cell: (Int, MetricSummary, SweepMarkdown.Unit) -> String = { _, metric, unit in SweepMarkdown.cell(metric, unit: unit) },
               _ arms: (Int) -> [ArmSummary]) -> String {
        var out = MarkdownTable.row(axes.map { "`\($0.path)`" } + ["queue"] + columns.map(\.0))
        out += "|" + String(repeating: " --- |", count: axes.count + 1 + columns.count) + "\n"
        for (index, point) in points.enumerated() {
            let settings = axes.map { axis in point.point.settings.first { $0.path == axis.path }?.value ?? "" }
            for arm in arms(index) {
                let cells = columns.map { column in arm.metrics[prefix + column.1].map { cell(index, $0, column.2) } ?? "—" }
                out += MarkdownTable.row(settings + [arm.queue] + cells)
            }
        }
        return out
    }

    /// The paired comparison with the reference, in the table's columns, or nothing without one.
    func comparisonMarkdown(_ columns: [(String, String, SweepMarkdown.Unit)], prefix: String) -> String {
        guard let comparison, comparison.reference < points.count else { return "" }
        let reference = points[comparison.reference].point
        let why: String
        switch comparison.choice {
        case .named: why = "named with --reference"
        case .file: why = "the file's own value"
        case .best: why = "no point is the file's own, so the lowest mean loss rate of the queue arm"
        }
        let n = seeds.count
        var out = "\n" + (prefix.isEmpty ? "## " : "### ") + "Compared with `\(reference.label)`, seed by seed\n\n"
        out += "Reference: `\(reference.label)` (\(why)). Cells: the mean over the \(n) seeds of (point − reference), "
            + "both run on the same seed, ± the half-width of its 95 % confidence interval (Student t on the per-seed "
            + "differences, \(n - 1) df); rates in percentage points. **Bold**: the interval excludes 0, a difference "
            + "real at that level. Common random numbers make these intervals narrower than the table's own "
            + "(docs/research.md, Paired comparisons).\n\n"
        out += table(columns, prefix: prefix, cell: { index, metric, unit in
            index == comparison.reference ? "reference" : SweepMarkdown.differenceCell(metric, unit: unit)
        }) { index in index < comparison.differences.count ? comparison.differences[index] : [] }
        return out
    }
}

enum SweepMarkdown {
    /// What the harm and cost table holds, above it in sweep.md and optimize.md.
    static let designIntroduction = "Shown twice: letters the user was told of twice (a duplicate presentation, a summary "
        + "then the letter's own push, a sync's notification then its own push), with its parts; costs per letter generated "
        + "(docs/model.md §7, Harms and costs of every design). `n/a`: the design cannot have it (reasons below), never 0.\n\n"

    /// The harm and cost set (``DesignMetrics``) as a table: a row per `rows` (its labels under
    /// `headers`, then each figure's mean ± half-width), `n/a [k]` with reason k listed below.
    /// Whether any of these arms carries the load metrics (`--fleet`, `--load-bin`: ``SweepLoad``).
    static func carriesLoad(_ arms: [ArmSummary]) -> Bool {
        arms.contains { arm in
            arm.metrics.keys.contains { $0.hasPrefix("load.") } || arm.notApplicable.keys.contains { $0.hasPrefix("load.") }
        }
    }

    /// "Load on XIVA and APNs": a table per 1 000 phones and, when the runs had `--fleet`, one at
    /// the fleet, a row per (leading cells, arm); empty when no arm carries the load. sweep.md and
    /// optimize.md both show it.
    static func loadTables(headers leading: [String], rows: [(labels: [String], summary: ArmSummary)]) -> String {
        guard carriesLoad(rows.map(\.summary)) else { return "" }
        let fleet = rows.contains { $0.summary.metrics.keys.contains { $0.contains(".fleet.") } }
        var out = "\n## Load on XIVA and APNs\n\nA second: the mean over the measured window, the busiest second, and the "
            + "busiest minute's count over 60 (a server is sized by the busiest second it must answer within its time-out: "
            + "docs/model.md §14). \(LoadReport.assumption.prefix(1).uppercased() + LoadReport.assumption.dropFirst()). "
            + "`n/a`: the runs' bins cannot give it, or the arm's design sends none (reasons below), never 0.\n\n"
        for scale in ["per_1000"] + (fleet ? ["fleet"] : []) {
            out += scale == "fleet" ? "At the fleet (`--fleet`), a second:\n\n" : "Per 1 000 phones, a second:\n\n"
            var headers = leading
            for q in SweepLoad.quantities { headers += DesignLoad.figures.map { "\(q.label): \($0.title)" } }
            out += MarkdownTable.row(headers)
            out += "|" + String(repeating: " --- |", count: headers.count) + "\n"
            var reasons: [String] = []
            for row in rows {
                var cells = row.labels
                for q in SweepLoad.quantities {
                    for figure in DesignLoad.figures {
                        let name = SweepLoad.name(q, scale: scale, figure.name)
                        if let value = row.summary.metrics[name] { cells.append(cell(value, unit: .plain)); continue }
                        guard let reason = row.summary.notApplicable[name] else { cells.append("—"); continue }
                        if !reasons.contains(reason) { reasons.append(reason) }
                        cells.append("n/a [\((reasons.firstIndex(of: reason) ?? 0) + 1)]")
                    }
                }
                out += MarkdownTable.row(cells)
            }
            if !reasons.isEmpty {
                out += "\n" + reasons.enumerated().map { "[\($0.offset + 1)] \($0.element)." }.joined(separator: " ") + "\n"
            }
            out += "\n"
        }
        return out
    }

    static func designTable(headers: [String], rows: [(labels: [String], summary: ArmSummary)]) -> String {
        let metrics = DesignMetrics.all
        var reasons: [String] = []
        var out = MarkdownTable.row(headers + metrics.map { ($0.part ? "… " : "") + $0.title })
        out += "|" + String(repeating: " --- |", count: headers.count + metrics.count) + "\n"
        for row in rows {
            let cells = metrics.map { metric -> String in
                let name = DesignMetrics.prefix + metric.name
                if let value = row.summary.metrics[name] { return cell(value, unit: metric.unit == .percent ? .percent : .plain) }
                guard let reason = row.summary.notApplicable[name] else { return "—" }
                if !reasons.contains(reason) { reasons.append(reason) }
                return "n/a [\((reasons.firstIndex(of: reason) ?? 0) + 1)]"
            }
            out += MarkdownTable.row(row.labels + cells)
        }
        if !reasons.isEmpty {
            out += "\n" + reasons.enumerated().map { "[\($0.offset + 1)] \($0.element)." }.joined(separator: " ") + "\n"
        }
        return out
    }

    /// A paired difference: signed, percentages as percentage points, bold when its interval
    /// excludes 0.
    static func differenceCell(_ metric: MetricSummary, unit: Unit) -> String {
        if metric.mean == 0 && (metric.ci95 ?? 0) == 0 { return "0" }
        var text = cell(metric, unit: unit)
        if unit == .percent { text = String(text.dropLast(2)) + " pp" }
        if metric.mean > 0 { text = "+" + text }
        return metric.excludesZero ? "**\(text)**" : text
    }

    /// How a column's numbers read: percentages, plain ratios, or durations in the run
    /// table's units (seconds, hours from an hour up).
    enum Unit { case percent, plain, duration }

    /// Columns of mechanisms most sweeps do not have: the binary interface's rewrites
    /// (docs/model.md §11), a catch-up's fetches (§7), app reinstalls' drops and false gaps (§8),
    /// and the expected cost `--cost` states (docs/research.md, A stated cost).
    static let optionalColumns: [(String, String, Unit)] = [
        ("rewrites / letter", "rewrites_per_letter", .plain),
        ("fetches / letter", "fetches_per_letter", .plain),
        ("reinstall drops / letter", "reinstall_drops_per_letter", .plain),
        ("false gaps / letter", "false_gaps_per_letter", .plain),
        ("expected cost / letter", SweepCost.metric, .plain),
    ]

    /// The sweep metrics of a finite XIVA capacity per re-request the queue arm sent: extension
    /// time-outs (timing rule 6, docs/model.md §1) and XIVA's errors (an outage, a queue time-out).
    static let timeoutsPerReRequest = "extension_timeouts_per_re_request"
    static let errorsPerReRequest = "xiva_errors_per_re_request"
    /// The share answered in time (docs/model.md §6, "Answered in time"), as the JSON names it.
    static let inTimeShare = XivaCapacityCounters.group.jsonPath(of: XivaCapacityCounters.group.shares[0])

    /// The columns of a sweep with a finite XIVA capacity (docs/model.md §6): what an SRE sizes
    /// a partition's capacity by.
    static let capacityColumns: [(String, String, Unit)] = [
        ("answered in time", inTimeShare, .percent),
        ("time-outs / re-request", timeoutsPerReRequest, .percent),
        ("XIVA errors / re-request", errorsPerReRequest, .percent),
        ("longest wait at XIVA", "xiva.max_wait_s", .duration),
        ("largest queue", "xiva.max_queue", .plain),
    ]

    static func cell(_ metric: MetricSummary, unit: Unit) -> String {
        var scale = 1.0, suffix = ""
        switch unit {
        case .percent: scale = 100; suffix = " %"
        case .plain: break
        case .duration:
            if abs(metric.mean) >= 3600 { scale = 1.0 / 3600; suffix = " h" } else { suffix = " s" }
        }
        let mean = metric.mean * scale
        guard let ci = metric.ci95.map({ $0 * scale }), ci > 0, ci.isFinite else {
            // No spread to show: three significant digits, and a plain 0 for nothing at all.
            if mean == 0 { return "0" + suffix }
            return String(format: "%.\(decimals(mean, significant: 3))f", mean) + suffix
        }
        let digits = decimals(ci, significant: 2)
        return String(format: "%.\(digits)f ± %.\(digits)f", mean, ci) + suffix
    }

    /// The decimals that show `value` to `significant` significant digits (none for large values).
    static func decimals(_ value: Double, significant: Int) -> Int {
        guard value != 0, value.isFinite else { return 0 }
        return max(0, min(12, significant - 1 - Int(floor(log10(abs(value))))))
    }
}
