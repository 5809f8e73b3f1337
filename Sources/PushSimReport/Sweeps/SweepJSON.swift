// The JSON document of a sweep (`pushsim sweep --json`, sweep.json): each run's metrics as mean ± ci95.
import PushSimExperiment

extension SweepResult {
    /// `{"scenario", "replications", "seeds", "axes", "points": [{"set": {PATH: VALUE}, "runs":
    /// [{"queue": "off"|"on", METRIC: {"mean": x, "ci95": h}…}]}]}`. Metrics keep the nesting of
    /// `run --json` (`"latency_s": {"p90": {"mean": …, "ci95": …}}`), so a reader finds each number
    /// where `run --json` has it, with `{"mean", "ci95"}` in its place; `ci95` is null with a
    /// single replication. Keys are sorted. `pushsim_version` and `resolved_scenario` (the base
    /// scenario, as in summary.json) say how it was made.
    /// With replications, `reference` (`{"set": {PATH: VALUE}, "chosen": "named"|"file"|"best"}`)
    /// and each point's `versus_reference` (the same shape as `runs`) carry the paired
    /// differences point − reference, seed by seed: `{"mean", "ci95"}` of the differences.
    package var json: JSONValue {
        var root: [String: JSONValue] = [
            "pushsim_commit": .string(PushSimVersion.commit),
            "pushsim_version": .string(PushSimVersion.current),
            "resolved_scenario": RunSummary.scenarioJSON(resolvedScenario),
            "scenario": .string(scenario),
            "replications": .int(seeds.count),
            "seeds": .array(seeds.map { .uint($0) }),
            "axes": .array(axes.map { .object(["path": .string($0.path), "values": .array($0.values.map(SweepJSON.typed))]) }),
            "points": .array(points.enumerated().map { index, point in
                var object: [String: JSONValue] = [
                    "set": SweepJSON.settings(point.point),
                    "runs": .array(point.summaries.map(SweepJSON.arm)),
                ]
                if let comparison, index < comparison.differences.count {
                    object["versus_reference"] = .array(comparison.differences[index].map(SweepJSON.arm))
                }
                return .object(object)
            }),
        ]
        // The paired comparisons (docs/research.md, Paired comparisons): which point, and why.
        if let comparison, comparison.reference < points.count {
            root["reference"] = .object(["set": SweepJSON.settings(points[comparison.reference].point),
                                         "chosen": .string(comparison.choice.rawValue)])
        }
        return .object(root)
    }
}

enum SweepJSON {
    /// A point's settings as `{PATH: VALUE}`.
    static func settings(_ point: SweepPoint) -> JSONValue {
        .object(Dictionary(point.settings.map { ($0.path, typed($0.value)) }, uniquingKeysWith: { _, last in last }))
    }

    /// A setting's value as JSON: a number or boolean when it is written as one, else its text.
    static func typed(_ text: String) -> JSONValue {
        if let i = Int(text) { return .int(i) }
        if let d = Double(text), d.isFinite, text.first.map({ $0.isNumber || $0 == "-" || $0 == "." }) == true {
            return .double(d)
        }
        if text == "true" { return .bool(true) }
        if text == "false" { return .bool(false) }
        return .string(text)
    }

    static func arm(_ summary: ArmSummary) -> JSONValue {
        var root: [String: JSONValue] = ["queue": .string(summary.queue)]
        for (name, metric) in summary.metrics {
            let leaf = JSONValue.object(["mean": .double(metric.mean), "ci95": metric.ci95.map(JSONValue.double) ?? .null])
            insert(leaf, at: name.split(separator: ".").map(String.init)[...], into: &root)
        }
        // A metric the arm's design cannot have: no mean, and why.
        for (name, reason) in summary.notApplicable {
            let leaf = JSONValue.object(["mean": .null, "ci95": .null, "not_applicable": .string(reason)])
            insert(leaf, at: name.split(separator: ".").map(String.init)[...], into: &root)
        }
        return .object(root)
    }

    /// Puts `value` at a dotted path, creating the objects on the way.
    static func insert(_ value: JSONValue, at path: ArraySlice<String>, into object: inout [String: JSONValue]) {
        guard let key = path.first else { return }
        if path.count == 1 { object[key] = value; return }
        var child: [String: JSONValue] = [:]
        if case .object(let existing)? = object[key] { child = existing }
        insert(value, at: path.dropFirst(), into: &child)
        object[key] = .object(child)
    }
}
