// together.json: what `pushsim report DIR DIR… --out OUT` drew its figures from, so OUT's
// report.html says how they were made and shows the figures' numbers, checkable against it.

/// The document written beside the figures of several sweeps drawn together: for each folder,
/// where it was, its scenario, how it was made (version, commit, client, seeds) and the key
/// figures of its points (each arm's loss, summarized and duplicate rates and p99 latency, as
/// mean and 95 % half-width, as its sweep.json has them). Not every figure of the sweeps: their
/// sweep.json files keep those.
package enum SweepsTogether {
    package static let name = "together.json"

    /// The metrics copied for each arm of each point (dotted paths into sweep.json's runs).
    static let keyMetrics = ["loss_rate", "summarized_rate", "duplicate_rate", "latency_s.p99"]

    /// The document for `sources` (each folder as given, the name its lines carry, and its
    /// sweep.json read), drawn as `kind` ("populations") along `axis`, into `figures`.
    package static func document(sources: [(folder: String, name: String, sweep: JSONValue)], kind: String,
                                 axis: String?, figures: [String]) -> JSONValue {
        func member(_ value: JSONValue?, _ path: String) -> JSONValue? {
            var node = value
            for part in path.split(separator: ".") {
                guard case .object(let members)? = node else { return nil }
                node = members[String(part)]
            }
            return node
        }
        let entries: [JSONValue] = sources.map { source in
            let sweep = source.sweep
            var entry: [String: JSONValue] = ["folder": .string(source.folder), "name": .string(source.name)]
            for key in ["scenario", "pushsim_version", "pushsim_commit", "replications", "seeds", "axes", "reference"] {
                if let value = member(sweep, key) { entry[key] = value }
            }
            for (key, path) in [("client", "resolved_scenario.queue.client"), ("recovery", "resolved_scenario.recovery"),
                                ("description", "resolved_scenario.description"), ("devices", "resolved_scenario.devices"),
                                ("duration", "resolved_scenario.duration")] {
                if let value = member(sweep, path) { entry[key] = value }
            }
            var points: [JSONValue] = []
            if case .array(let list)? = member(sweep, "points") {
                for point in list {
                    var runs: [JSONValue] = []
                    if case .array(let arms)? = member(point, "runs") {
                        for arm in arms {
                            var copy: [String: JSONValue] = [:]
                            if let queue = member(arm, "queue") { copy["queue"] = queue }
                            for metric in keyMetrics {
                                guard let value = member(arm, metric) else { continue }
                                SweepJSON.insert(value, at: metric.split(separator: ".").map(String.init)[...], into: &copy)
                            }
                            runs.append(.object(copy))
                        }
                    }
                    points.append(.object(["set": member(point, "set") ?? .object([:]), "runs": .array(runs)]))
                }
            }
            entry["points"] = .array(points)
            return .object(entry)
        }
        var root: [String: JSONValue] = [
            "kind": .string(kind),
            "figures": .array(figures.map(JSONValue.string)),
            "pushsim_version": .string(PushSimVersion.current),
            "pushsim_commit": .string(PushSimVersion.commit),
            "sources": .array(entries),
        ]
        if let axis { root["axis"] = .string(axis) }
        return .object(root)
    }
}
