// sweep.csv: the tidy table of a sweep, one row per point × arm × replication plus summary rows.
import PushSimExperiment

extension SweepResult {
    /// Every metric name any arm of any point has, sorted (the CSV's metric columns).
    package var metricNames: [String] {
        var names: Set<String> = []
        for point in points { for arm in point.summaries { names.formUnion(arm.metrics.keys) } }
        return names.sorted()
    }

    /// Columns: `kind` (`run` for one replication, `mean` and `ci95` for the summary rows that
    /// follow an arm's runs), `point` (index in grid order), one column per axis path (its value
    /// at the point), `queue` (off/on), `replication` and `seed` (empty on summary rows), then
    /// one column per metric, sorted by name. A metric an arm lacks (the queue's counts in the
    /// off arm) and `ci95` with one replication are empty cells; one its design cannot have (the
    /// harm and cost set, ``DesignMetrics``) reads `n/a`. With replications, `diff_mean`
    /// and `diff_ci95` rows follow: the paired difference from the reference point (sweep.json's
    /// `reference`), seed by seed. RFC 4180 quoting.
    package var csv: String {
        let metrics = metricNames
        var lines = [(["kind", "point"] + axes.map(\.path) + ["queue", "replication", "seed"] + metrics)
            .map(SweepCSV.field).joined(separator: ",")]
        for (index, point) in points.enumerated() {
            let settings = axes.map { axis in point.point.settings.first { $0.path == axis.path }?.value ?? "" }
            for (a, summary) in point.summaries.enumerated() {
                func line(_ kind: String, _ replication: String, _ seed: String, _ cell: (String) -> String) -> String {
                    ([kind, String(index)] + settings + [summary.queue, replication, seed] + metrics.map(cell))
                        .map(SweepCSV.field).joined(separator: ",")
                }
                // A metric the arm's design cannot have reads `n/a` (sweep.json and sweep.md say why).
                let na = { (name: String) in summary.notApplicable[name] != nil ? "n/a" : "" }
                for run in point.replications where a < run.arms.count {
                    lines.append(line("run", String(run.replication), String(run.seed)) { name in
                        run.arms[a].values[name].map(SweepCSV.number) ?? na(name)
                    })
                }
                lines.append(line("mean", "", "") { summary.metrics[$0].map { SweepCSV.number($0.mean) } ?? na($0) })
                lines.append(line("ci95", "", "") { name in summary.metrics[name].map { $0.ci95.map(SweepCSV.number) ?? "" } ?? na(name) })
                if let comparison, index < comparison.differences.count, a < comparison.differences[index].count {
                    let differences = comparison.differences[index][a]
                    lines.append(line("diff_mean", "", "") { differences.metrics[$0].map { SweepCSV.number($0.mean) } ?? "" })
                    lines.append(line("diff_ci95", "", "") { differences.metrics[$0]?.ci95.map(SweepCSV.number) ?? "" })
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

enum SweepCSV {
    /// Whole numbers without a fraction; others in the shortest round-trip form.
    static func number(_ x: Double) -> String {
        if x.isFinite && x == x.rounded() && abs(x) < 1e15 { return String(Int64(x)) }
        return JSONValue.format(x)
    }

    /// Quotes a field that holds a comma, a quote or a line break.
    static func field(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

import Foundation
