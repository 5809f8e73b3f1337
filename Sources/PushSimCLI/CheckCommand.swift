// `pushsim check`: re-run scenarios and compare them with committed baselines (exit 1 on a regression).
import Foundation
import PushSimCore
import PushSimScenarioFile
import PushSimExperiment
import PushSimReport

enum CheckCommand {
    static let spec = CommandSpec(
        name: "check", summary: "re-run a scenario and compare with its baseline (exit 1 if worse)",
        operands: "(FILE | --all [DIR])",
        about: """
        Re-runs the scenario and compares every metric of every arm with the baseline. Exit 0
        when nothing got worse beyond its tolerance, 1 when something did, 2 on bad input.
        Improvements are reported and never fail; `letters` and `events` are reported only.
        """,
        options: [
            CommandOption("baseline", .value("PATH"), default: .described("results/<name>/summary.json, as `pushsim run` writes"),
                          help: "the baseline"),
            CommandOption("tolerance", .value("METRIC=VALUE"), repeatable: true, help: """
                a margin METRIC may move the worse way beyond the noise (it adds
                to the statistical part, never replaces it): absolute in its unit
                (a rate as a fraction, latency in seconds or a duration such as
                50ms, counts in letters) or relative with %; prefix off. or on.
                for one arm (repeatable). The noise is 4 standard errors of the
                difference, paired device by device when the baseline's scenario
                replays at its seed, else of two independent runs; default
                margins: 10 % for latency percentiles, none for the rest
                """),
            CommandOption("replications", .value("N"), default: .value("1"), range: 1...1000, help: """
                compare N replications pooled (the scenario's seed and N − 1
                derived, as a sweep's), every device at every seed paired with
                the baseline's own counts there: what N times the devices would
                see. The baseline keeps them with --update --replications N
                """),
            CommandOption.json.help("print the comparison as JSON (sorted keys)"),
            CommandOption("update", .flag, help: "rewrite the baseline with this run, on purpose (atomic); exit 0"),
            CommandOption("all", .flag, help: """
                check every scenario in DIR (default scenarios/) against
                <results>/<name>/summary.json; a folder as FILE does the same
                """),
            CommandOption("results", .value("DIR"), default: .value("results"), help: """
                the folder of baselines: <DIR>/<name>/summary.json, for --all
                and for one FILE alike
                """),
            CommandOption.set.help("as for `pushsim run`"),
            CommandOption.seed.help("as for `pushsim run`"),
            .jobs,
        ] + ResourceGuard.options,
        notes: "With --all, --max-events and --max-memory apply to each scenario, and --max-events to all of them together.",
        examples: [
            "pushsim check scenarios/commuters.yaml",
            "pushsim check scenarios/commuters.yaml --tolerance on.re_requests=5% --tolerance latency_s.p99=2",
            "pushsim check --all",
            "pushsim check scenarios/commuters.yaml --update     # after a deliberate model change",
        ],
        run: run)

    static func run(_ arguments: Arguments, _ console: Console) throws -> Int32 {
        let jobs = try arguments.integer("jobs") ?? ScenarioInput.defaultJobs
        let tolerances: [CheckTolerance]
        do { tolerances = try arguments.values("tolerance").map(CheckTolerance.parse) } catch let error as CheckInputError {
            throw InputError.usage(error.description)
        }
        var folder: String?
        if arguments.flag("all") {
            guard arguments.positionals.count <= 1 else { throw InputError.usage("--all takes at most one folder of scenarios") }
            folder = arguments.positionals.first ?? "scenarios"
        } else if arguments.positionals.count == 1, let only = arguments.positionals.first {
            if FileTree.isFolder(only) { folder = only }
        }
        let replications = try arguments.integerWithDefault("replications")
        if let folder {
            if replications > 1 { throw InputError.usage("--replications compares one scenario FILE, not a folder") }
            if arguments.value("baseline") != nil {
                throw InputError.usage("--baseline names one scenario's baseline; with a folder use --results DIR")
            }
            return try all(folder, arguments: arguments, tolerances: tolerances, jobs: jobs, console)
        }
        if arguments.given("results") && arguments.value("baseline") != nil {
            throw InputError.usage("--baseline names the baseline's file, --results the folder it is found in: give one")
        }
        let (scenario, _) = try ScenarioInput.load(arguments)
        // The baseline is found as `--all` finds it: <results>/<name>/summary.json.
        let baselinePath = try arguments.value("baseline")
            ?? CheckSession.defaultBaselinePath(for: scenario.name, results: arguments.valueWithDefault("results"))
        // Refuse what the machine cannot do, and a baseline that could not be rewritten, before any work.
        // Each replication is a run (twice over with --update: the summary's and the pooled).
        let runs = replications == 1 ? 1 : replications * (arguments.flag("update") ? 2 : 1)
        if let refusal = ResourceGuard.refusal(Array(repeating: (scenario.name, ResourceEstimate(scenario, jobs: jobs)), count: runs),
                                               limits: try ResourceGuard.limits(arguments), what: "check '\(scenario.name)'") {
            throw InputError.refused(refusal)
        }
        // The run, and the baseline's own scenario replayed beside it when it differs.
        ClientBudget.current?.expect(ResourceEstimate(scenario, jobs: jobs), times: max(2, runs), name: scenario.name)
        if replications > 1 && FilePath.lastComponent(of: baselinePath) != "summary.json" {
            throw InputError.usage("--replications keeps its pooled baseline beside a summary.json: give --baseline DIR/summary.json (or none)")
        }
        let update = arguments.flag("update")
        if update {
            // `…/summary.json/` names a folder: refused as a file path, not written as a set.
            if FilePath.lastComponent(of: baselinePath) == "summary.json" && !baselinePath.hasSuffix("/") {
                try ResultsWriter.checkDestination(FilePath.parent(of: baselinePath), createParents: true,
                                                   names: RunSummary.alwaysWritten, family: RunSummary.family)
            } else {
                try ResultsWriter.checkFileDestination(baselinePath)
            }
        }
        let interruption = Interruption.shared
        interruption.install()
        interruption.begin("the check of '\(scenario.name)'", total: 0, unit: "",
                           consequence: update ? "the baseline '\(baselinePath)' is whole, the old one or the new one" : "nothing was written")
        defer { interruption.end() }
        let started = DispatchTime.now().uptimeNanoseconds
        if update {
            return try self.update(scenario, baselinePath: baselinePath, tolerances: tolerances, jobs: jobs,
                                   json: arguments.flag("json"), file: arguments.positionals.first, replications: replications, console)
        }
        let report = replications > 1
            ? try ReplicationBaseline.check(scenario, baselinePath: baselinePath, replications: replications, tolerances: tolerances, jobs: jobs)
            : try CheckSession.check(scenario, baselinePath: baselinePath, tolerances: tolerances, jobs: jobs,
                                     file: arguments.positionals.first).report
        try ClientBudget.verify()
        console.out(arguments.flag("json") ? report.json.prettyText + "\n" : report.text)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        console.err(String(format: "checked in %.2f s\n", seconds))
        return ExitStatus(report.outcome).code
    }

    /// `--update`: print the comparison with the old baseline if there is one, rewrite it, exit 0.
    static func update(_ scenario: Scenario, baselinePath: String, tolerances: [CheckTolerance], jobs: Int,
                       json: Bool, file: String?, replications: Int, _ console: Console) throws -> Int32 {
        let (report, note) = try CheckSession.checkAndUpdate(scenario, baselinePath: baselinePath,
                                                             tolerances: tolerances, jobs: jobs, file: file, replications: replications)
        try ClientBudget.verify()
        if let report { console.out(json ? report.json.prettyText + "\n" : report.text) }
        if let note { console.err("pushsim check: \(note)\n") }
        console.err("pushsim check: rewrote the baseline \(baselinePath)\n")
        return ExitStatus.success.code
    }

    /// `--all` / a folder: every scenario against `<results>/<name>/summary.json`.
    static func all(_ folder: String, arguments: Arguments, tolerances: [CheckTolerance], jobs: Int,
                    _ console: Console) throws -> Int32 {
        let files = try CheckSession.scenarioFiles(in: folder)
        var overrides = arguments.values("set")
        if let seed = arguments.value("seed") {
            guard ScenarioInput.isSeed(seed) else { throw InputError.usage("--seed needs an unsigned 64-bit integer, got '\(seed)'") }
            overrides.append("seed=\(seed)")
        }
        let json = arguments.flag("json"), update = arguments.flag("update")
        let results = try arguments.valueWithDefault("results")
        // Every scenario is estimated before the first one runs: a suite never ends, an hour in,
        // on a scenario it could have refused at once. Files that do not load are reported below.
        // A trace too big for --max-memory is refused from its size, unread, here and below.
        let limits = try ResourceGuard.limits(arguments)
        let loaded = files.compactMap { file in
            (try? ScenarioLoader.load(path: file, overrides: overrides, traceMemoryLimit: limits.maxMemoryBytes))
                .map { (file: file, name: $0.name, estimate: ResourceEstimate($0, jobs: jobs)) }
        }
        // Two files of one name share one baseline: one would be checked against the other's,
        // and `--update` would let the later overwrite the earlier's. Refused before any work.
        var firstOfName: [String: String] = [:]
        for scenario in loaded {
            if let first = firstOfName[scenario.name] {
                throw InputError.refused("\(first) and \(scenario.file) are both named '\(scenario.name)': their baseline would be one file (\(FilePath.join(FilePath.join(results, scenario.name), "summary.json"))); give each scenario its own `name`")
            }
            firstOfName[scenario.name] = scenario.file
        }
        let estimates = loaded.map { ($0.name, $0.estimate) }
        if let refusal = ResourceGuard.refusal(estimates, limits: limits,
                                               what: "check the \(files.count) scenarios of '\(folder)'") {
            throw InputError.refused(refusal)
        }
        for scenario in loaded { ClientBudget.current?.expect(scenario.estimate, times: 2, name: scenario.name) }
        if update { try ResultsWriter.checkDestination(results, createParents: true) }
        let interruption = Interruption.shared
        interruption.install()
        interruption.begin("the check of '\(folder)'", total: files.count, unit: "scenarios",
                           consequence: update ? "each baseline in '\(results)' is whole, the old one or the new one" : "nothing was written")
        defer { interruption.end() }
        let suite = try CheckSession.checkAll(
            files, results: results, overrides: overrides,
            tolerances: tolerances, update: update, jobs: jobs, traceMemoryLimit: limits.maxMemoryBytes) { file, report, error, note in
                interruption.advance(by: 1)
                guard !json else { return }
                if let error { console.out("\(file): ERROR — \(error)\n") }
                if let note { console.err("\(file): \(note)\n") }
                if let report, !update { console.out(report.summaryLine + "\n") }
            }
        try ClientBudget.verify()
        if update { return ExitStatus(suite.verdict).code }   // only scenarios that could not be read are entries
        if json {
            console.out(suite.json.prettyText + "\n")
        } else {
            console.out(suite.verdictLine + "\n")
            for entry in suite.entries {
                if let report = entry.report, report.outcome == .regression { console.out("\n" + report.text) }
            }
        }
        return ExitStatus(suite.verdict).code
    }
}
