// The baseline's own scenario: read back from its `resolved_scenario`, compared key by key with this one, and its version.
import PushSimCore
import PushSimExperiment
import PushSimScenarioFile

/// Whether a check compared device by device with the baseline's replay, and if not, why.
package enum CheckPairing: Equatable, Sendable {
    /// This run and the baseline's scenario, replayed by this build at the baseline's seed,
    /// ran on the same devices with the same draws, and the replay gave the baseline's numbers
    /// exactly: noise is the spread of the per-device differences.
    case paired
    /// The baseline's counts per device, kept beside it (`check --update`), paired with this
    /// run's device by device: the same devices meet the same worlds whatever client or build
    /// decides, so noise is measured on per-device differences.
    case pairedWithStoredCounts
    /// Two variants (`pushsim ab`) run in one command on the same devices at the same seeds:
    /// noise is the spread of per-device differences pooled over the replications.
    case sameWorlds(replications: Int)
    /// A pooled baseline's counts of every device at each of its seeds (`check --update
    /// --replications`), paired with this run's at the same seeds.
    case storedReplications(Int)
    /// The two cannot be paired (the reason): noise is that of two independent runs.
    case independent(String)

    package var isPaired: Bool {
        if case .independent = self { return false }
        return true
    }

    /// One line for the report.
    package var description: String {
        switch self {
        case .paired:
            return "paired: the baseline's scenario replayed at its seed gives its numbers, so noise is measured on per-device differences (common random numbers)"
        case .pairedWithStoredCounts:
            return "paired per device: this run's devices against the baseline's own counts per device (\(StoredDeviceCounts.fileName) beside it), on the same seed's worlds (common random numbers)"
        case .sameWorlds(let replications):
            return "paired per device: A and B ran on the same devices and seeds, only their difference apart (common random numbers)"
                + (replications > 1 ? ", over \(replications) replications pooled (each device at each seed one pair)" : "")
        case .storedReplications(let replications):
            return "paired per device over \(replications) replications: this run's devices at each of the baseline's seeds against the baseline's own counts there (\(ReplicationBaseline.countsFileName) beside it), on the same worlds (common random numbers)"
        case .independent(let why):
            return "independent: \(why); noise is that of two independent runs, measured over devices"
        }
    }
}

/// One key of the resolved scenario that differs between the baseline and this run.
package struct ScenarioChange: Equatable, Sendable {
    package var key: String
    /// The baseline's value, nil when the key is new.
    package var old: String?
    /// This run's value, nil when the key is gone.
    package var new: String?
    package var text: String { "\(key) \(old ?? "(absent)") → \(new ?? "(absent)")" }
}

package enum CheckBaselineScenario {
    /// The resolved scenario's leaves as dotted keys (`queue.repeat_max_count`) → value text;
    /// a list is one leaf, written as JSON text.
    package static func leaves(_ json: JSONValue) -> [String: String] {
        var out: [String: String] = [:]
        func walk(_ node: JSONValue, _ path: String) {
            switch node {
            case .object(let members):
                for (key, value) in members { walk(value, path.isEmpty ? key : path + "." + key) }
            case .string(let text): out[path] = text
            default: out[path] = node.text
            }
        }
        walk(json, "")
        return out
    }

    /// The keys whose values differ, sorted by key.
    package static func changes(baseline: JSONValue, now: JSONValue) -> [ScenarioChange] {
        let old = leaves(baseline), new = leaves(now)
        return Set(old.keys).union(new.keys).sorted().compactMap { key in
            old[key] == new[key] ? nil : ScenarioChange(key: key, old: old[key], new: new[key])
        }
    }

    /// The resolved scenario written back as a scenario file, for the reader to load (its
    /// values are in the file syntax already; free text is quoted where the reader needs it).
    package static func yaml(_ json: JSONValue) -> String? {
        guard case .object = json, let entries = entries(json) else { return nil }
        return ScenarioPrinter.yaml(entries)
    }

    /// Keys whose values are free text rather than values of the file syntax.
    static let textKeys: Set<String> = ["name", "description", "trace"]

    private static func entries(_ json: JSONValue) -> [ScenarioPrinter.Entry]? {
        guard case .object(let members) = json else { return nil }
        var out: [ScenarioPrinter.Entry] = []
        for key in members.keys.sorted() {
            guard let value = members[key], let node = node(value, key: key) else { return nil }
            out.append(ScenarioPrinter.Entry(key, node))
        }
        return out
    }

    private static func node(_ json: JSONValue, key: String) -> ScenarioPrinter.Node? {
        switch json {
        case .string(let text): return textKeys.contains(key) ? .text(text) : .scalar(text)
        case .object: return entries(json).map { .mapping($0) }
        case .array(let items):
            var nodes: [ScenarioPrinter.Node] = []
            for item in items {
                guard let n = node(item, key: "") else { return nil }
                nodes.append(n)
            }
            return .list(nodes)
        default: return nil
        }
    }

    /// The baseline's scenario, read back from its `resolved_scenario` (a trace path resolved
    /// beside `file`, this run's scenario file), or why it cannot be.
    package static func scenario(of baseline: CheckSnapshot, file: String) -> Result<Scenario, CheckInputError> {
        guard let resolved = baseline.resolvedScenario, let text = yaml(resolved) else {
            return .failure(CheckInputError("the baseline holds no resolved_scenario"))
        }
        do { return .success(try ScenarioLoader.parse(text: text, file: file)) } catch {
            return .failure(CheckInputError("its resolved_scenario does not load in this version (\(error))"))
        }
    }

    /// A baseline of another major version is refused (its numbers come from another model);
    /// another minor or patch version gives a warning, returned for the report.
    package static func versionWarning(_ baseline: CheckSnapshot, path: String,
                                       current: String = PushSimVersion.current) throws -> String? {
        guard let version = baseline.version else {
            return "the baseline names no PushSim version (pushsim_version); this is \(current)"
        }
        guard version != current else { return nil }
        let major = { (v: String) in v.split(separator: ".").first.map(String.init) ?? v }
        if major(version) != major(current) {
            throw CheckInputError("\(path): the baseline was made by PushSim \(version), this is \(current): another major version models the chain differently, so its numbers cannot be compared; rewrite it with `pushsim check FILE --update` (and commit it) or check with PushSim \(version)")
        }
        return "the baseline was made by PushSim \(version), this is \(current) (CHANGELOG.md says what changed)"
    }
}
