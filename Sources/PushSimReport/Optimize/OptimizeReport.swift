// optimize.json and optimize.md: the chosen value, the guarantee in words, each system's replications and elimination, the paired differences with the chosen one.
import Foundation
import PushSimCore
import PushSimExperiment
import PushSimScenarioFile

extension OptimizeRunner {
    /// Runs the selection measuring each arm as a sweep does (its contract JSON, segments
    /// included); `cost` (`--cost`) adds `expected_cost`, so it can be the objective.
    /// `store` (the finished runs kept for `--resume`) makes and keeps each run when given.
    package static func run(_ plan: SweepPlan, settings: OptimizeSettings, jobs: Int = 1, cost: SweepCost? = nil,
                            load: SweepLoad? = nil, store: RunStore? = nil, shouldStop: @escaping () -> Bool = { false },
                            progress: ((Int, Int, Int) -> Void)? = nil) throws -> OptimizeResult {
        try run(plan, settings: settings, jobs: jobs, measure: SweepMetricNames.measuring(cost, load: load), simulate: store.map { store in { try store.run($0, jobs: jobs) } }, shouldStop: shouldStop, progress: progress)
    }
}

extension OptimizeResult {
    /// The files `optimize` writes (and replaces, whole).
    package static let files: Set<String> = ["optimize.json", "optimize.md", "optimize.svg", HTMLReport.name]

    package var chosen: SweepPoint { points[selection.best] }

    /// The guarantee as a sentence: what holds, and when it does not.
    package var guarantee: String {
        let confidence = JSONValue.format((1 - settings.alpha) * 100)
        if selection.stopped {
            return "Stopped by Ctrl-C after \(selection.replications.reduce(0, +)) runs with \(selection.survivors.count) candidates "
                + "still in contention: the chosen value has the lowest sample mean of them, and the \(confidence) % guarantee "
                + "does NOT hold. Run it again to finish (the same seed gives the same runs)."
        }
        if selection.finished {
            return "With probability ≥ \(confidence) % (1 − α, α = \(JSONValue.format(settings.alpha))) the chosen value's mean "
                + "`\(settings.metric)` is within δ = \(JSONValue.format(settings.delta)) of the best candidate's "
                + "(Kim and Nelson's KN procedure on common random numbers; it assumes normal observations, "
                + "and a replication's metric is an average over many letters)."
        }
        return "The procedure stopped at --max-replications \(settings.maxReplications) with "
            + "\(selection.survivors.count) candidates still in contention: the chosen value has the lowest sample mean of them, "
            + "and the \(confidence) % guarantee does NOT hold. Raise --max-replications or widen --indifference."
    }

    /// The numeric axes whose chosen value is the grid's smallest or largest: the best may lie beyond.
    package var gridEdges: [GridEdge] { GridEdge.edges(axes: axes, chosen: chosen) }

    /// The candidates the comparisons with the best show within δ of the best, in system order.
    package var withinDelta: [Int] { ComparisonsWithTheBest.withinDelta(comparisonsWithTheBest, delta: settings.delta) }

    /// The candidates whose sample mean is within δ of the chosen one's but whose comparison
    /// with the best is too wide to show it (too few replications, typically eliminated early).
    package var withinDeltaUnshown: [Int] {
        let shown = Set(withinDelta)
        let best = selection.means[selection.best]
        return points.indices.filter { !shown.contains($0) && selection.means[$0] - best <= settings.delta }
    }

    /// The sentence naming the candidates within δ of the best, for both files and the terminal.
    package var withinDeltaText: String {
        func list(_ systems: [Int]) -> String { systems.map { "`\(points[$0].label)`" }.joined(separator: ", ") }
        let delta = JSONValue.format(settings.delta)
        var text = withinDelta.isEmpty
            ? "No candidate is shown within δ = \(delta) of the best by the comparisons with the best"
            : "Within δ = \(delta) of the best (the comparisons with the best: upper bound ≤ δ), practically as good as one another: " + list(withinDelta)
        if !withinDeltaUnshown.isEmpty {
            text += "; within δ by their sample means but not shown with the replications taken: " + list(withinDeltaUnshown)
        }
        return text + "."
    }

    /// The reason each system left, or nil when it survived.
    func elimination(_ system: Int) -> SelectionResult.Elimination? {
        selection.eliminations.first { $0.system == system }
    }

    package var json: JSONValue {
        let systems: [JSONValue] = points.indices.map { i in
            var members: [String: JSONValue] = [
                "set": .object(Dictionary(points[i].settings.map { ($0.path, JSONValue.string($0.value)) }, uniquingKeysWith: { a, _ in a })),
                "label": .string(points[i].label),
                "replications": .int(selection.replications[i]),
                "mean": .double(selection.means[i]),
                "observations": .array(observations[i].map(JSONValue.double)),
                "chosen": .bool(i == selection.best),
                "survived": .bool(selection.survivors.contains(i)),
            ]
            if let out = elimination(i) {
                members["eliminated"] = .object(["after_replications": .int(out.replications), "by": .string(points[out.by].label)])
            } else {
                members["eliminated"] = .null
            }
            if let d = differences.first(where: { $0.system == i }) {
                members["difference_from_chosen"] = .object([
                    "mean": .double(d.mean), "half_width": d.halfWidth.map(JSONValue.double) ?? .null,
                    "replications": .int(d.replications),
                ])
            } else {
                members["difference_from_chosen"] = .null
            }
            if let m = comparisonsWithTheBest.first(where: { $0.system == i }) {
                members["versus_best_of_others"] = .object(["lower": Self.bound(m.lower), "upper": Self.bound(m.upper)])
            }
            // The queue arm's harm and cost set, and its load when the runs measured it, as
            // sweep.json holds them (mean, ci95, or why not).
            if i < designSummaries.count, case .object(let arm) = SweepJSON.arm(designSummaries[i]) {
                if let set = arm["harms_and_costs"] { members["harms_and_costs"] = set }
                if let load = arm["load"] { members["load"] = load }
            }
            return .object(members)
        }
        return .object([
            "pushsim_commit": .string(PushSimVersion.commit),
            "pushsim_version": .string(PushSimVersion.current),
            "scenario": .string(scenario),
            "axes": .array(axes.map { .object(["path": .string($0.path), "values": .array($0.values.map(JSONValue.string))]) }),
            "overrides": .array(overrides.map(JSONValue.string)),
            "procedure": .string("KN (Kim and Nelson 2001), common random numbers"),
            "metric": .string(settings.metric),
            "arm": .string("on"),
            "delta": .double(settings.delta),
            "alpha": .double(settings.alpha),
            "first_stage": .int(settings.firstStage),
            "max_replications": .int(settings.maxReplications),
            "seeds": .array(seeds.map(JSONValue.uint)),
            "chosen": .string(chosen.label),
            "chosen_set": .object(Dictionary(chosen.settings.map { ($0.path, JSONValue.string($0.value)) }, uniquingKeysWith: { a, _ in a })),
            "finished": .bool(selection.finished),
            "stopped_by_interruption": .bool(selection.stopped),
            "guarantee": .string(guarantee),
            "total_replications": .int(selection.replications.reduce(0, +)),
            "eliminations": .array(selection.eliminations.map {
                .object(["system": .string(points[$0.system].label), "after_replications": .int($0.replications),
                         "by": .string(points[$0.by].label)])
            }),
            "comparison": .string(Self.comparisonMethod),
            "versus_best_of_others": .string(Self.comparisonsWithTheBestMethod),
            "objective": .string(objective),
            "segment": segment.map(JSONValue.string) ?? .null,
            "fixed_sample": fixedSampleReplications.map {
                .object(["replications_per_candidate": .int($0), "total_replications": .int($0 * points.count),
                         "procedure": .string(Self.fixedSampleMethod)])
            } ?? .null,
            "systems": .array(systems),
            "grid_edge": gridEdgeJSON,
            "within_delta_of_best": withinDeltaJSON,
        ])
    }

    var gridEdgeJSON: JSONValue {
        .array(gridEdges.map { edge in
            let members: [String: JSONValue] = [
                "path": .string(edge.path), "value": .string(edge.value), "side": .string(edge.side.rawValue),
                "suggestions": .array(edge.suggestions.map(JSONValue.string)),
                "suggestions_beyond": .bool(edge.beyond), "warning": .string(edge.warning),
            ]
            return .object(members)
        })
    }

    var withinDeltaJSON: JSONValue {
        let members: [String: JSONValue] = [
            "candidates": .array(withinDelta.map { .string(points[$0].label) }),
            "by_sample_mean_not_shown": .array(withinDeltaUnshown.map { .string(points[$0].label) }),
            "rule": .string(Self.withinDeltaRule),
        ]
        return .object(members)
    }

    /// How the differences' intervals are built, for both files.
    static let comparisonMethod = "paired t intervals of (candidate − chosen) over the replications both have, "
        + "Bonferroni-corrected: each at level 1 − α/(k − 1), so all hold together with probability ≥ 1 − α "
        + "(indicative for eliminated candidates: KN stopped sampling them because they looked worse)"

    /// How the MCB intervals are built, for both files.
    static let comparisonsWithTheBestMethod = "multiple comparisons with the best: each candidate's interval for its mean "
        + "minus the best mean of the others (Hsu's constrained intervals, paired on common random numbers with "
        + "Bonferroni's critical value, Nelson and Matejcik 1995); an upper bound of 0 says it is the best, a lower bound "
        + "of 0 that it is not; simultaneous at 1 − α for a fixed sample (indicative for eliminated candidates)"

    /// How the candidates within δ are found, for both files.
    static let withinDeltaRule = "candidates whose multiple-comparisons-with-the-best interval has an upper bound ≤ δ: "
        + "with probability ≥ 1 − α (together, for a fixed sample; indicative for eliminated candidates) each is at most δ "
        + "worse than the best of the others"

    /// The fixed-sample procedure the replication count is compared with.
    static let fixedSampleMethod = "Clark and Yang's Bonferroni two-stage procedure on common random numbers, "
        + "N = max(n₀, ⌈(t(1 − α/(k−1), n₀−1) · S_max / δ)²⌉) from the same first stage"

    /// An MCB bound: infinite when a pair shares fewer than two replications (JSON has no infinity).
    static func bound(_ value: Double) -> JSONValue { value.isFinite ? .double(value) : .null }

    package var markdown: String {
        let k = points.count
        var out = "# Optimize · \(scenario)\n\n"
        out += "**Chosen: `\(chosen.label)`** (mean `\(settings.metric)` of the queue arm \(Self.number(selection.means[selection.best])) "
            + "over \(selection.replications[selection.best]) replications).\n\n"
        out += guarantee + "\n\n"
        for edge in gridEdges { out += "**At the edge of the grid:** " + edge.warning + "\n\n" }
        out += withinDeltaText + "\n\n"
        out += "\(k) candidates"
        if !axes.isEmpty { out += " (" + axes.map { "`\($0.path)` ∈ {\($0.values.joined(separator: ", "))}" }.joined(separator: " × ") + ")" }
        out += "; δ = \(JSONValue.format(settings.delta)), α = \(JSONValue.format(settings.alpha)), first stage n₀ = \(settings.firstStage), "
            + "at most \(settings.maxReplications) replications each; \(selection.replications.reduce(0, +)) runs in all "
            + "(every candidate at --max-replications would be \(k * settings.maxReplications)"
            + (fixedSampleReplications.map { "; a fixed-sample procedure of the same guarantee, \($0) per candidate, \($0 * k)" } ?? "")
            + "). "
            + "Replication r runs on the same seed at every candidate (common random numbers).\n\n"
        out += "| candidate | replications | mean | eliminated | − chosen (Bonferroni \(JSONValue.format((1 - settings.alpha) * 100)) %) | − best of the others (MCB) |\n"
        out += "|---|---:|---:|---|---:|---:|\n"
        for i in points.indices {
            let status: String
            if i == selection.best { status = "**chosen**" } else if let e = elimination(i) {
                status = "after \(e.replications), by `\(points[e.by].label)`"
            } else { status = "survived" }
            var difference = "—"
            if let d = differences.first(where: { $0.system == i }) {
                difference = Self.number(d.mean) + (d.halfWidth.map { " ± " + Self.number($0) } ?? "") + " (n = \(d.replications))"
            }
            var mcb = "—"
            if let m = comparisonsWithTheBest.first(where: { $0.system == i }) {
                func text(_ v: Double) -> String { v.isFinite ? Self.number(v) : (v < 0 ? "−∞" : "∞") }
                mcb = "[\(text(m.lower)), \(text(m.upper))]"
            }
            out += MarkdownTable.row(["`\(points[i].label)`", String(selection.replications[i]), Self.number(selection.means[i]),
                                      status, difference, mcb])
        }
        out += "\nDifferences: " + Self.comparisonMethod + ".\n"
        out += "\nMCB: " + Self.comparisonsWithTheBestMethod + ".\n"
        if designSummaries.count == points.count {
            out += "\n## Harms and costs of each candidate (the queue arm)\n\n" + SweepMarkdown.designIntroduction
                + SweepMarkdown.designTable(headers: ["candidate", "replications"], rows: points.indices.map {
                    (["`\(points[$0].label)`", String(selection.replications[$0])], designSummaries[$0])
                })
        }
        if designSummaries.count == points.count {
            out += SweepMarkdown.loadTables(headers: ["candidate"], rows: points.indices.map {
                (labels: ["`\(points[$0].label)`"], summary: designSummaries[$0])
            })
        }
        out += "\n![Each candidate against the chosen one](optimize.svg)\n"
        out += "\n## How this was made\n\nPushSim \(PushSimVersion.current) (commit \(PushSimVersion.commit)) · seeds \(seeds.map(String.init).joined(separator: ", "))"
        let sets = overrides.filter { !$0.hasPrefix("seed=") }
        out += sets.isEmpty ? " · the file as written" : " · --set " + sets.joined(separator: " --set ")
        if !objective.isEmpty { out += " · --objective \(objective)" }
        if let segment { out += " · --segment \(segment)" }
        out += ". The base scenario of every candidate, resolved:\n\n```yaml\n" + ScenarioPrinter.yaml(resolvedScenario) + "```\n"
        return out
    }

    /// Six significant digits: enough to read a loss rate's fourth decimal, the same on every platform.
    static func number(_ value: Double) -> String { String(format: "%.6g", value) }
}
