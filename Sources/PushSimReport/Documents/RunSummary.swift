// The files a run writes (summary.json, summary.md) with how they were made: version, seed, resolved scenario.
import PushSimCore
import PushSimScenarioFile
import PushSimExperiment

/// What a run records about itself, and the summary files built from it. Every writer of a
/// run's results (`run --out`, `check --update`, `merge --out`) goes through here, so their
/// files are the same bytes for the same result.
package enum RunSummary {
    /// The resolved scenario as a JSON object: the keys of `pushsim validate --print`, values
    /// as strings in the file syntax (so any of them can be passed back as `--set PATH=VALUE`).
    package static func scenarioJSON(_ scenario: Scenario) -> JSONValue {
        scenarioJSON(ScenarioPrinter.entries(scenario))
    }

    /// The same from the printer's entries.
    package static func scenarioJSON(_ entries: [ScenarioPrinter.Entry]) -> JSONValue {
        .object(Dictionary(entries.map { ($0.key, json($0.value)) }, uniquingKeysWith: { a, _ in a }))
    }

    private static func json(_ node: ScenarioPrinter.Node) -> JSONValue {
        switch node {
        case .scalar(let text), .text(let text): return .string(text)
        case .list(let items): return .array(items.map(json))
        case .mapping(let entries): return .object(Dictionary(entries.map { ($0.key, json($0.value)) }, uniquingKeysWith: { a, _ in a }))
        }
    }

    /// The files of a run's set: a set write replaces these and keeps the folder's others (a
    /// sweep's files, notes a person put there).
    /// The queue's files belong to the set, so a run without a finite capacity removes stale ones.
    /// A run's set removes a baseline's counts per device (written by `check --update`): they
    /// belong to the summary they were made with.
    package static let family: Set<String> = ["summary.json", "summary.md", XivaQueueReport.csvName, XivaQueueReport.svgName,
                                              LoadReport.csvName, LoadReport.svgName, DesignLoad.svgName, HTMLReport.name, StoredDeviceCounts.fileName,
                                              ReplicationBaseline.fileName, ReplicationBaseline.countsFileName]
    /// The files every run's set holds, whatever the scenario: checked before a run, so a FIFO or
    /// a folder where one of them goes is refused before any simulated time is spent (the queue's
    /// files, written only with a finite capacity, are checked when the set is written).
    package static let alwaysWritten: Set<String> = ["summary.json", "summary.md", LoadReport.csvName, LoadReport.svgName,
                                                     DesignLoad.svgName, HTMLReport.name]

    /// The run's JSON document (the contract's fields) with its provenance beside them:
    /// `pushsim_version`, `pushsim_commit` and `resolved_scenario`.
    package static func document(_ result: RunResult, provenance: Provenance) -> JSONValue {
        guard case .object(var members) = result.json else { return result.json }
        members["pushsim_version"] = .string(provenance.version)
        members["pushsim_commit"] = .string(provenance.commit)
        members["client"] = provenance.client
        members["resolved_scenario"] = provenance.scenario
        members["harms_and_costs"] = DesignReport.json(provenance.labelling(result))
        return .object(members)
    }

    package static func document(_ result: RunResult, scenario: Scenario) -> JSONValue {
        document(result, provenance: Provenance(scenario))
    }

    /// summary.md: the table (with the run's size in its title), then how it was made.
    package static func markdown(_ result: RunResult, size: RunSize, provenance: Provenance) -> String {
        ReportTable(result, size: size).markdown + "\n" + DesignReport.markdown(provenance.labelling(result)) + "\n" + provenanceMarkdown(yaml: provenance.yaml, seed: provenance.seed,
                                                                            version: provenance.version,
                                                                            commit: provenance.commit,
                                                                            client: ClientProvenance.label(provenance.client))
    }

    /// A Markdown section naming the version and holding the resolved scenario.
    package static func provenanceMarkdown(_ scenario: Scenario) -> String {
        provenanceMarkdown(yaml: ScenarioPrinter.yaml(scenario), seed: scenario.seed)
    }

    /// The same from the resolved scenario's text.
    package static func provenanceMarkdown(yaml: String, seed: UInt64, version: String = PushSimVersion.current,
                                           commit: String = PushSimVersion.commit, client: String? = nil) -> String {
        "## How this was made\n\nPushSim \(version) (commit \(commit)), seed \(seed)"
            + (client.map { ", the extension's client \($0)" } ?? "") + ". "
            + "The resolved scenario (every key, defaults included, overrides applied; "
            + "`pushsim validate FILE --print` prints the same):\n\n```yaml\n" + yaml + "```\n"
    }

    /// summary.json and summary.md, as `pushsim run` writes them. `merge --out` passes the size
    /// and provenance its parts carry, so its files are the same bytes as a single run's.
    /// With `sharedServer` (a finite XIVA capacity) the queue's series and chart come too;
    /// report.html, made from them, last.
    package static func files(_ result: RunResult, size: RunSize, provenance: Provenance,
                             sharedServer: Bool = false) -> [(name: String, contents: String)] {
        var files = [("summary.json", document(result, provenance: provenance).prettyText + "\n"),
                     ("summary.md", markdown(result, size: size, provenance: provenance)),
                     (LoadReport.csvName, LoadReport.csv(result)), (LoadReport.svgName, LoadChart(result).svg),
                     (DesignLoad.svgName, DesignLoad.chart(provenance.labelling(result)).svg)]
        if sharedServer, let queueArm = result.arms.first(where: { $0.arm == .on }) {
            files.append((XivaQueueReport.csvName, XivaQueueReport.csv(queueArm.ledger.xivaQueue)))
            files.append((XivaQueueReport.svgName, XivaQueueReport.svg(queueArm.ledger.xivaQueue, scenario: result.scenario)))
        }
        return HTMLReport.adding(to: files)
    }

    package static func files(_ result: RunResult, scenario: Scenario) -> [(name: String, contents: String)] {
        files(result, size: RunSize(scenario), provenance: Provenance(scenario),
              sharedServer: scenario.xiva.capacityPerMicrosecond != nil)
    }
}

/// How a result was made: the PushSim version, the seed, and the resolved scenario both as the
/// file text `validate --print` gives and as the JSON object summary.json holds. Partial results
/// carry it, so a merged result records the same.
package struct Provenance: Equatable, Sendable {
    package var version: String
    /// The commit the build came from (``PushSimVersion/commit``), or `unknown`.
    package var commit: String
    package var seed: UInt64
    package var yaml: String
    package var scenario: JSONValue
    /// The client that decided in the queue arm (``ClientProvenance``).
    package var client: JSONValue

    package init(version: String = PushSimVersion.current, commit: String = PushSimVersion.commit, seed: UInt64,
                 yaml: String, scenario: JSONValue, client: JSONValue? = nil) {
        self.version = version; self.commit = commit; self.seed = seed; self.yaml = yaml; self.scenario = scenario
        self.client = client ?? ClientProvenance.builtIn(named: scenario)
    }

    package init(_ scenario: Scenario) {
        self.init(seed: scenario.seed, yaml: ScenarioPrinter.yaml(scenario), scenario: RunSummary.scenarioJSON(scenario),
                  client: ClientProvenance.json(scenario))
    }

    /// `result` with each arm's recovery design as the resolved scenario names it (`recovery`,
    /// the queue arm's; the off arm's none), so a merged result labels its arms as the run did.
    package func labelling(_ result: RunResult) -> RunResult {
        guard case .object(let top) = scenario, case .string(let text)? = top["recovery"],
              let design = RecoveryDesign(rawValue: text) else { return result }
        var labelled = result
        for a in labelled.arms.indices { labelled.arms[a].recovery = labelled.arms[a].arm == .on ? design : RecoveryDesign.none }
        return labelled
    }

    /// Whether the scenario gives XIVA a finite capacity (the resolved scenario names
    /// `xiva.capacity` only then): its re-requests wait in a queue whose series the results
    /// show. Partitions alone do not say so: the binary interface partitions too (docs/model.md §11).
    package var xivaCapacityIsFinite: Bool {
        guard case .object(let top) = scenario, case .object(let xiva)? = top["xiva"] else { return false }
        return xiva["capacity"] != nil
    }
}
