// sweep.md: the table a person reads, with the charts linked in.

extension SweepResult {
    /// The headline metrics of every point and arm as mean ± 95 % half-width, then the charts.
    /// Every other metric is in sweep.csv and sweep.json.
    public var markdown: String {
        let n = seeds.count
        var out = "# Sweep · \(scenario)\n\n"
        out += "\(points.count) point\(points.count == 1 ? "" : "s") × \(n) replication\(n == 1 ? "" : "s")"
        out += " (seeds \(seeds.map(String.init).joined(separator: ", "))); the same seeds at every point.\n"
        if !axes.isEmpty {
            out += "Axes: " + axes.map { "`\($0.path)` ∈ {\($0.values.joined(separator: ", "))}" }.joined(separator: " × ") + ".\n"
        }
        out += "Cells: mean ± half-width of the 95 % confidence interval (Student t, \(max(n - 1, 0)) df)"
        out += n > 1 ? ".\n\n" : "; one replication gives no interval.\n\n"
        let columns: [(String, String, Bool)] = [
            ("loss rate", "loss_rate", true), ("duplicate rate", "duplicate_rate", true),
            ("summarized", "summarized_rate", true), ("summaries / letter", "summaries_per_letter", false),
            ("re-requests / letter", "re_requests_per_letter", false), ("re-sent / letter", "resent_per_letter", false),
            ("latency p90 (s)", "latency_s.p90", false), ("latency p99 (s)", "latency_s.p99", false),
            ("logs' loss estimate", "telemetry.estimated_loss_rate", true),
        ]
        out += "| " + (axes.map { "`\($0.path)`" } + ["queue"] + columns.map(\.0)).joined(separator: " | ") + " |\n"
        out += "|" + String(repeating: " --- |", count: axes.count + 1 + columns.count) + "\n"
        for point in points {
            let settings = axes.map { axis in point.point.settings.first { $0.path == axis.path }?.value ?? "" }
            for arm in point.summaries {
                let cells = columns.map { column in
                    arm.metrics[column.1].map { SweepMarkdown.cell($0, percent: column.2) } ?? "—"
                }
                out += "| " + (settings + [arm.queue] + cells).joined(separator: " | ") + " |\n"
            }
        }
        out += "\n"
        for spec in Self.chartSpecs {
            out += "![\(spec.title)](\(spec.file))\n"
        }
        return out
    }
}

enum SweepMarkdown {
    static func cell(_ metric: MetricSummary, percent: Bool) -> String {
        let scale = percent ? 100.0 : 1.0
        let mean = metric.mean * scale
        let digits = significantDecimals(mean, metric.ci95.map { $0 * scale })
        var text = String(format: "%.\(digits)f", mean)
        if let ci = metric.ci95 { text += String(format: " ± %.\(digits)f", ci * scale) }
        return text + (percent ? " %" : "")
    }

    /// Enough decimals to show the interval's width with two significant digits (at most 6).
    static func significantDecimals(_ value: Double, _ ci: Double?) -> Int {
        let reference = (ci ?? 0) > 0 ? ci ?? 0 : abs(value)
        guard reference > 0, reference.isFinite else { return 2 }
        return max(0, min(6, 1 - Int(floor(log10(reference)))))
    }
}

import Foundation
