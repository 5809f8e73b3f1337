// The files a run writes (summary.json, summary.md) with how they were made: version, seed, resolved scenario.

/// What a run records about itself, and the summary files built from it. Every writer of a
/// run's results (`run --out`, `check --update`, `merge --out`) goes through here, so their
/// files are the same bytes for the same result.
public enum RunSummary {
    /// The resolved scenario as a JSON object: the keys of `pushsim validate --print`, values
    /// as strings in the file syntax (so any of them can be passed back as `--set PATH=VALUE`).
    public static func scenarioJSON(_ scenario: Scenario) -> JSONValue {
        scenarioJSON(ScenarioPrinter.entries(scenario))
    }

    /// The same from the printer's entries.
    public static func scenarioJSON(_ entries: [ScenarioPrinter.Entry]) -> JSONValue {
        .object(Dictionary(entries.map { ($0.key, json($0.value)) }, uniquingKeysWith: { a, _ in a }))
    }

    private static func json(_ node: ScenarioPrinter.Node) -> JSONValue {
        switch node {
        case .scalar(let text), .text(let text): return .string(text)
        case .list(let items): return .array(items.map(json))
        case .mapping(let entries): return .object(Dictionary(entries.map { ($0.key, json($0.value)) }, uniquingKeysWith: { a, _ in a }))
        }
    }

    /// The run's JSON document (the contract's fields) with its provenance beside them:
    /// `pushsim_version` and `resolved_scenario`.
    public static func document(_ result: RunResult, scenario: Scenario) -> JSONValue {
        guard case .object(var members) = result.json else { return result.json }
        members["pushsim_version"] = .string(PushSimVersion.current)
        members["resolved_scenario"] = scenarioJSON(scenario)
        return .object(members)
    }

    /// summary.md: the table, then how it was made (the scenario as a file that reruns it).
    public static func markdown(_ result: RunResult, scenario: Scenario) -> String {
        ReportTable(result, scenario: scenario).markdown + "\n" + provenanceMarkdown(scenario)
    }

    /// A Markdown section naming the version and holding the resolved scenario.
    public static func provenanceMarkdown(_ scenario: Scenario) -> String {
        provenanceMarkdown(yaml: ScenarioPrinter.yaml(scenario), seed: scenario.seed)
    }

    /// The same from the resolved scenario's text.
    public static func provenanceMarkdown(yaml: String, seed: UInt64) -> String {
        "## How this was made\n\nPushSim \(PushSimVersion.current), seed \(seed). "
            + "The resolved scenario (every key, defaults included, overrides applied; "
            + "`pushsim validate FILE --print` prints the same):\n\n```yaml\n" + yaml + "```\n"
    }

    /// summary.json and summary.md, as `pushsim run` writes them.
    public static func files(_ result: RunResult, scenario: Scenario) -> [(name: String, contents: String)] {
        [("summary.json", document(result, scenario: scenario).prettyText + "\n"),
         ("summary.md", markdown(result, scenario: scenario))]
    }
}
