// A run's harm and cost set (DesignMetrics), as summary.json, summary.md and the terminal show it: the same figures as sweep's and optimize's.
import PushSimCore
import PushSimExperiment

package enum DesignReport {
    /// summary.json's `harms_and_costs`: per arm, its design, every figure by name,
    /// `not_applicable` (the figures its design cannot have, with the reason), and `load`, the
    /// costs a second (``DesignLoad``).
    package static func json(_ result: RunResult) -> JSONValue {
        .array(result.arms.map { arm in
            let measured = DesignMetrics.measure(arm)
            var members: [String: JSONValue] = ["queue": .string(arm.name),
                                                "design": .string(DesignMetrics.design(of: arm).rawValue)]
            for (name, value) in measured.values { members[name] = .double(value) }
            members["not_applicable"] = .object(measured.notApplicable.mapValues(JSONValue.string))
            // The costs as a load: per 1 000 phones a second, and at the fleet with --fleet.
            if result.totalDevices > 0 { members["load"] = DesignLoad.json(arm, frame: result.loadFrame, devices: result.totalDevices) }
            return .object(members)
        })
    }

    /// The figures as a Markdown table, one row per arm, `n/a [k]` with its reason below.
    package static func markdown(_ result: RunResult) -> String {
        let metrics = DesignMetrics.all
        var reasons: [String] = []
        var out = "## Harms and costs (docs/model.md §7, Harms and costs of every design)\n\n"
        out += MarkdownTable.row(["queue", "design"] + metrics.map { ($0.part ? "… " : "") + $0.title })
        out += "|" + String(repeating: " --- |", count: 2 + metrics.count) + "\n"
        for arm in result.arms {
            let measured = DesignMetrics.measure(arm)
            let cells = metrics.map { metric -> String in
                if let value = measured.values[metric.name] {
                    return metric.unit == .percent ? String(format: "%.3f %%", value * 100) : String(format: "%.4f", value)
                }
                let reason = measured.notApplicable[metric.name] ?? ""
                if !reasons.contains(reason) { reasons.append(reason) }
                return "n/a [\((reasons.firstIndex(of: reason) ?? 0) + 1)]"
            }
            out += MarkdownTable.row([arm.name, DesignMetrics.title(DesignMetrics.design(of: arm))] + cells)
        }
        if !reasons.isEmpty {
            out += "\n" + reasons.enumerated().map { "[\($0.offset + 1)] \($0.element)." }.joined(separator: " ") + "\n"
        }
        let load = DesignLoad.markdown(result)
        return load.isEmpty ? out : out + "\n" + load
    }
}
