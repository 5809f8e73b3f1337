// The report of a check: a table a person reads, the same as JSON data, and a one-line summary.
import Foundation

package struct CheckReport: Sendable {
    package var scenario: String
    package var baselinePath: String
    package var baselineSeed: UInt64?
    package var seed: UInt64
    package var rows: [CheckRow]
    /// How the noise was measured: paired with the baseline's replay, or independent (why).
    package var pairing: CheckPairing
    /// The resolved scenario's keys that differ from the baseline's (old → new).
    package var scenarioChanges: [ScenarioChange] = []
    /// The client that made the baseline and the one that decided now, when they differ
    /// ("client MailGapClient 1.3 (protocol 1) → MailGapClient 1.4 (protocol 1)").
    package var clientChange: String?
    /// The PushSim versions of the baseline (nil: not named) and of this run.
    package var baselineVersion: String?
    package var version: String = PushSimVersion.current
    /// Another minor version, or none named: said in the report, never a failure.
    package var versionWarning: String?
    /// Set for `pushsim ab`: the two variants compared (what A and B are), in place of a
    /// baseline and this run.
    package var variants: (a: String, b: String)?
    /// Replications pooled (`pushsim ab --replications`).
    package var replications = 1

    package init(scenario: String, baselinePath: String, baselineSeed: UInt64?, seed: UInt64, rows: [CheckRow],
                 pairing: CheckPairing = .independent("the baseline was not replayed")) {
        self.scenario = scenario; self.baselinePath = baselinePath
        self.baselineSeed = baselineSeed; self.seed = seed; self.rows = rows; self.pairing = pairing
    }

    package var worse: [CheckRow] { rows.filter { $0.verdict == .worse } }
    package var better: [CheckRow] { rows.filter { $0.verdict == .better } }

    package var outcome: CheckOutcome {
        if rows.allSatisfy({ $0.verdict == .identical }) { return .identical }
        return worse.isEmpty ? .pass : .regression
    }

    /// One line for `check --all`.
    package var summaryLine: String {
        switch outcome {
        case .identical:
            return "\(scenario): identical to \(baselinePath)"
        case .pass:
            let moved = rows.filter { $0.verdict != .identical }.count
            let improved = better.isEmpty ? "" : "; better: " + better.map(\.name).joined(separator: ", ")
            return "\(scenario): ok — \(moved) metric\(moved == 1 ? "" : "s") moved, none worse beyond tolerance\(improved)"
        case .regression:
            let changes = scenarioChanges.map(\.text) + (clientChange.map { [$0] } ?? [])
            let changed = changes.isEmpty ? "" : " [changed: " + changes.joined(separator: ", ") + "]"
            return "\(scenario): WORSE\(changed) — " + worse.map { row in
                "\(row.name) \(CheckReport.format(row.baseline, row.metric)) → \(CheckReport.format(row.now, row.metric)) (tolerance \(CheckReport.format(row.tolerance ?? 0, row.metric)))"
            }.joined(separator: "; ")
        }
    }

    /// The table: metric, baseline, now, change, tolerance, verdict; then the outcome.
    package var text: String {
        var out: String
        if let variants {
            out = "pushsim ab · \(scenario) · seed \(seed)" + (replications > 1 ? " and \(replications - 1) derived seeds" : "") + " · PushSim \(version)\n"
            out += "A: \(variants.a)\nB: \(variants.b)\n"
        } else {
            out = "pushsim check · \(scenario) · baseline \(baselinePath)"
            if let baselineSeed, baselineSeed != seed { out += " (seed \(baselineSeed)) · this run seed \(seed)" } else { out += " · seed \(seed)" }
            if replications > 1 { out += " and \(replications - 1) derived seeds, pooled" }
            out += "\n"
            out += "PushSim \(baselineVersion ?? "(unnamed)") → \(version)" + (versionWarning.map { " · warning: " + $0 } ?? "") + "\n"
        }
        if !scenarioChanges.isEmpty {
            out += "what changed in the scenario:\n" + scenarioChanges.map { "  " + $0.text + "\n" }.joined()
        }
        if let clientChange { out += "what changed in the extension: \(clientChange)\n" }
        out += "noise: " + pairing.description + "\n"
        let header = ["metric", variants == nil ? "baseline" : "A", variants == nil ? "now" : "B", "change", "tolerance", "detects", "verdict"]
        var lines: [[String]] = []
        var sections: [Int: String] = [:]
        var currentArm = ""
        for row in rows {
            if row.arm != currentArm {
                currentArm = row.arm
                sections[lines.count] = "queue \(row.arm)"
            }
            var tolerance: String
            if let t = row.tolerance {
                let shown = CheckReport.isCount(row.metric) ? t.rounded(.down) : t
                tolerance = "±" + CheckReport.format(shown, row.metric)
                if row.margin > 0 {
                    let noise: Double = CheckReport.isCount(row.metric) ? row.noise.rounded(.down) : row.noise
                    let given: String = row.toleranceSource == "statistical+given" ? ", given)" : ")"
                    let noiseText: String = CheckReport.format(noise, row.metric)
                    let marginText: String = CheckReport.format(row.margin, row.metric)
                    tolerance += " (noise \(noiseText) + margin \(marginText)\(given)"
                }
            } else {
                tolerance = "—"
            }
            let change = row.verdict == .identical ? "=" : CheckReport.signed(row.change, row.metric) + CheckReport.relative(row)
            let detects = row.detectable.map { CheckReport.format(CheckReport.isCount(row.metric) ? $0.rounded(.up) : $0, row.metric) } ?? "—"
            lines.append(["  " + row.metric.key, CheckReport.format(row.baseline, row.metric), CheckReport.format(row.now, row.metric),
                          change, tolerance, detects, CheckReport.verdictText(row)])
        }
        let widths = header.indices.map { c in ([header] + lines).map { $0[c].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { i, cell in
                let pad = String(repeating: " ", count: max(0, widths[i] - cell.count))
                return i == 0 || i == cells.count - 1 ? cell + pad : pad + cell
            }.joined(separator: "   ").replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
        }
        out += "\n" + line(header) + "\n"
        for (i, cells) in lines.enumerated() {
            if let section = sections[i] { out += section + "\n" }
            out += line(cells) + "\n"
        }
        out += "\ndetects: the smallest change in the worse direction this check catches four times in five at this size.\n"
        if let sizeParagraph { out += sizeParagraph + "\n" }
        out += "\n" + verdictParagraph + "\n"
        return out
    }

    /// The metrics whose margin this scenario is too small to see, and how many times the
    /// devices would: nil when every margin is within sight.
    package var sizeParagraph: String? {
        let blind = rows.filter(\.tooSmallForMargin)
        guard !blind.isEmpty else { return nil }
        let items = blind.map { row in
            "\(row.name) (margin \(CheckReport.format(row.margin, row.metric)), detects from \(CheckReport.format(row.detectable ?? 0, row.metric)); about \(CheckReport.factor(row.devicesFactorForMargin))× the devices would see the margin)"
        }
        return "too small to see a change of the margin: " + items.joined(separator: "; ") + "."
    }

    static func factor(_ value: Double) -> String {
        guard value.isFinite else { return "∞" }
        return value < 10 ? String(format: "%.1f", value) : ReportTable.grouped(Int(min(value, 1e15).rounded(.up)))
    }

    /// The closing words: the outcome, and what to do about it.
    package var verdictParagraph: String {
        if variants != nil {
            switch outcome {
            case .identical: return "identical: B gives exactly A's numbers."
            case .pass:
                return "ok: B is nowhere worse than A beyond its tolerance"
                    + (better.isEmpty ? "" : "; B is better in: " + better.map(\.name).joined(separator: ", ")) + "."
            case .regression:
                return "WORSE: B is worse than A beyond tolerance in: " + worse.map(\.name).joined(separator: ", ") + "."
                    + (better.isEmpty ? "" : "\nB is better in: " + better.map(\.name).joined(separator: ", ") + ".")
            }
        }
        switch outcome {
        case .identical:
            return "identical: every metric is exactly the baseline's."
        case .pass:
            var text = "ok: nothing got worse beyond its tolerance"
            if !better.isEmpty { text += "; better: " + better.map(\.name).joined(separator: ", ") }
            return text + "."
        case .regression:
            return "REGRESSION: worse beyond tolerance: " + worse.map(\.name).joined(separator: ", ")
                + ".\nIf this change is intended, rewrite the baseline with --update and commit it; "
                + "to accept a metric's change for now, pass --tolerance METRIC=VALUE."
        }
    }

    /// The same report as data (sorted keys).
    package var json: JSONValue {
        var arms: [JSONValue] = []
        var currentArm: String?
        var metrics: [JSONValue] = []
        func flush() {
            if let currentArm { arms.append(.object(["queue": .string(currentArm), "metrics": .array(metrics)])) }
            metrics = []
        }
        for row in rows {
            if row.arm != currentArm { flush(); currentArm = row.arm }
            let metric: [String: JSONValue] = [
                "metric": .string(row.metric.key),
                "baseline": CheckReport.number(row.baseline, row.metric), "now": CheckReport.number(row.now, row.metric),
                "change": CheckReport.number(row.change, row.metric),
                "tolerance": row.tolerance.map { .double($0) } ?? .null,
                "tolerance_source": row.toleranceSource.map { .string($0) } ?? .null,
                "noise": row.tolerance == nil ? .null : .double(row.noise),
                "margin": row.tolerance == nil ? .null : .double(row.margin),
                "detectable": row.detectable.map { .double($0) } ?? .null,
                "too_small_for_margin": .bool(row.tooSmallForMargin),
                "direction": .string(row.metric.direction.rawValue),
                "verdict": .string(row.verdict.rawValue),
            ]
            metrics.append(.object(metric))
        }
        flush()
        let changes: [JSONValue] = scenarioChanges.map { change in
            .object(["key": .string(change.key), "baseline": change.old.map { .string($0) } ?? .null,
                     "now": change.new.map { .string($0) } ?? .null])
        }
        let fields: [String: JSONValue] = [
            "scenario": .string(scenario),
            "baseline": .string(baselinePath),
            "baseline_seed": baselineSeed.map { .uint($0) } ?? .null,
            "seed": .uint(seed),
            "outcome": .string(outcome.rawValue),
            "worse": .array(worse.map { .string($0.name) }),
            "better": .array(better.map { .string($0.name) }),
            "arms": .array(arms),
            "pairing": .object(["paired": .bool(pairing.isPaired), "description": .string(pairing.description)]),
            "scenario_changes": .array(changes),
            "client_change": clientChange.map { .string($0) } ?? .null,
            "baseline_version": baselineVersion.map { .string($0) } ?? .null,
            "version": .string(version),
            "version_warning": versionWarning.map { .string($0) } ?? .null,
            "replications": .int(replications),
        ]
        let variantFields: [String: JSONValue] = variants.map { ["a": .string($0.a), "b": .string($0.b)] } ?? [:]
        return .object(fields.merging(variantFields) { first, _ in first })
    }

    /// Counts as JSON integers (as `run --json` writes them), everything else as doubles.
    static func number(_ value: Double, _ metric: CheckMetric) -> JSONValue {
        if isCount(metric), value == value.rounded(), abs(value) < 9e15 { return .int(Int(value)) }
        return .double(value)
    }

    static func verdictText(_ row: CheckRow) -> String {
        switch row.verdict {
        case .identical: return "identical"
        case .within: return "ok"
        case .better: return "better"
        case .worse: return "WORSE"
        case .changed: return "(reported)"
        }
    }

    static func isCount(_ metric: CheckMetric) -> Bool {
        switch metric.kind {
        case .count, .work, .loadPeak: return true
        default: return false
        }
    }

    static func format(_ value: Double, _ metric: CheckMetric) -> String {
        switch metric.kind {
        case .count, .work, .loadPeak:
            return value == value.rounded() && abs(value) < 1e15 ? ReportTable.grouped(Int(value)) : String(format: "%.1f", value)
        case .rate where metric.key.hasSuffix("_per_letter"):
            // A cost per letter: a plain ratio (2 pushes a letter is not 200 %).
            return String(format: "%.4f", value)
        case .rate, .share:
            return String(format: "%.4f %%", value * 100)
        case .latencyQuantile, .latencyMax:
            return String(format: "%.3f s", value)
        }
    }

    static func signed(_ value: Double, _ metric: CheckMetric) -> String {
        (value > 0 ? "+" : value < 0 ? "−" : "") + format(abs(value), metric)
    }

    static func relative(_ row: CheckRow) -> String {
        guard row.baseline != 0 else { return "" }
        let percent = row.change / abs(row.baseline) * 100
        return " (" + (percent > 0 ? "+" : percent < 0 ? "−" : "") + String(format: "%.1f %%", abs(percent)) + ")"
    }
}

/// The reports of `check --all`: one line per scenario and an overall verdict.
package struct CheckSuiteReport: Sendable {
    /// Per scenario file: its report, or why it could not be checked.
    package var entries: [(file: String, report: CheckReport?, error: String?)] = []

    package init() {}

    /// What a whole suite says; the command line turns it into its exit status.
    package enum Verdict: String, Sendable {
        /// Every scenario checked, none worse (the text's `ok:`).
        case pass = "ok"
        /// Every scenario checked, some worse.
        case regression
        /// Some scenario could not be checked: an incomplete check vouches for nothing.
        case error
    }

    package var verdict: Verdict {
        if entries.contains(where: { $0.error != nil }) { return .error }
        return entries.contains { $0.report?.outcome == .regression } ? .regression : .pass
    }

    package var text: String {
        var out = ""
        for entry in entries {
            if let report = entry.report { out += report.summaryLine + "\n" }
            if let error = entry.error { out += "\(entry.file): ERROR — \(error)\n" }
        }
        return out + verdictLine + "\n"
    }

    /// The overall verdict in one line.
    package var verdictLine: String {
        let regressed = entries.filter { $0.report?.outcome == .regression }.count
        let failed = entries.filter { $0.error != nil }.count
        switch verdict {
        case .pass: return "ok: \(entries.count) scenario\(entries.count == 1 ? "" : "s") checked, none worse"
        case .regression: return "REGRESSION: \(regressed) of \(entries.count) scenarios got worse"
        case .error: return "ERROR: \(failed) of \(entries.count) scenarios could not be checked" + (regressed > 0 ? ", \(regressed) got worse" : "")
        }
    }

    package var json: JSONValue {
        .object([
            "outcome": .string(verdict.rawValue),
            "scenarios": .array(entries.map { entry in
                var object: [String: JSONValue] = ["file": .string(entry.file)]
                if let report = entry.report { object["report"] = report.json }
                if let error = entry.error { object["error"] = .string(error) }
                return .object(object)
            }),
        ])
    }
}
