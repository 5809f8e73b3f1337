// `pushsim run`: simulate a scenario, print the table or the contract's JSON, write results.
import Foundation
import PushSimCore
import PushSimExperiment
import PushSimReport

enum RunCommand {
    static let spec = CommandSpec(
        name: "run", summary: "run a scenario; print both arms side by side (or --json)",
        operands: "FILE",
        about: """
        Progress (devices done, events/s, time left) goes to standard error when it is a terminal,
        never with --json; a --shard run prints progress lines there for its log. summary.json and
        summary.md record the PushSim version and the resolved scenario (validate --print).
        --logs FILE.csv writes the rows the extension's log would hold in the queue arm (device,
        time_us, position, gap_found, gap_size, answer) and their summary per hour beside it
        (FILE.hourly.csv); the table and the JSON stay as they are.
        --observe OBS.json writes what a team would observe of the queue arm, as the observation
        file `pushsim calibrate` reads (console shares, gap sizes, gaps per push by hour,
        re-requests per minute, each with its sample size): run at known parameters, it checks a
        calibration against the truth.
        """,
        options: [
            .json, .set, .seed,
            CommandOption("long", .flag, help: """
                print every row of the table (latency quantiles, the extension's logs, the load at peak, \
                each mechanism's counts, the segments, events); by default the table fits one screen: \
                the answer, loss, summarized, duplicates, the causes that are not zero, the queue at work
                """),
            CommandOption("out", .value("DIR"), default: .described("results/<name>/"),
                          help: "where to write summary.json, summary.md, the charts and report.html"),
            CommandOption("logs", .value("FILE.csv"),
                          help: "also write the extension's log rows (queue arm) to FILE.csv and their hourly summary to FILE.hourly.csv"),
            CommandOption("observe", .value("OBS.json"),
                          help: "also write the queue arm's observables as the observation file `pushsim calibrate` reads"),
            CommandOption.noWrite.help("write no results folder (--logs and --observe are still written)"), .jobs, ShardOption.option,
            LoadOptions.bin, LoadOptions.fleet,
        ] + ResourceGuard.options,
        examples: ["pushsim run scenarios/quickstart.yaml --set apns.expiration=1h",
                   "pushsim run scenarios/commuters.yaml --logs commuters-logs.csv"],
        run: run)

    static func run(_ arguments: Arguments, _ console: Console) throws -> Int32 {
        var (scenario, _) = try ScenarioInput.load(arguments)
        if let bin = try LoadOptions.bin(arguments) { scenario.loadBin = bin }
        let fleet = try LoadOptions.fleet(arguments)
        let shard = try ShardOption.parse(arguments)
        let logsPath = arguments.value("logs")
        if logsPath != nil, shard != nil {
            throw InputError.usage("--logs is not written by a --shard run: run the whole scenario with --logs")
        }
        let observePath = arguments.value("observe")
        if observePath != nil, shard != nil {
            throw InputError.usage("--observe is not written by a --shard run: run the whole scenario with --observe")
        }
        let needsLogs = logsPath != nil || observePath != nil
        // Both log files are checked with the results folder before any work (beginWriting), so a
        // path that cannot be written, or that is one of the results, costs no run.
        let logFiles = (logsPath.map { [($0, "--logs"), (ExtensionLogCSV.hourlyPath(for: $0), "--logs, its hourly summary")] } ?? [])
            + (observePath.map { [($0, "--observe")] } ?? [])
        // A shard holds whole coupling units (XIVA partitions when capacity is finite).
        if let shard, let refusal = CouplingUnit.of(scenario).refusal(shards: shard.count) { throw InputError.usage(refusal) }
        let jobs = try ShardOption.jobs(arguments, scenario: scenario, shard: shard)
        // Refuse what the machine cannot do (for a shard: its devices), before any work (docs/errors.md).
        let limits = try ResourceGuard.limits(arguments)
        let estimate = ResourceEstimate(scenario, jobs: jobs, devices: shard.map { $0.devices(of: scenario.devices, unit: .of(scenario)).count },
                                        logs: needsLogs)
        if let refusal = estimate.refusal(under: limits, name: scenario.name) {
            throw InputError.refused(refusal)
        }
        // A user's client's answers make work no estimate sees: counted while the run runs.
        ClientBudget.current?.expect(estimate, name: scenario.name)
        if let shard { return try ShardOption.run(scenario, shard: shard, jobs: jobs, arguments: arguments, console: console) }
        let outDirectory = arguments.value("out") ?? "results/\(scenario.name)"
        let interruption = Interruption.shared
        // Missing parents of the folder are created, as `pushsim check` and scripts rely on.
        try interruption.beginWriting("the run of '\(scenario.name)'", total: scenario.devices, unit: "devices",
                                      directory: outDirectory, writes: !arguments.flag("no-write"),
                                      names: RunSummary.alwaysWritten, family: RunSummary.family, files: logFiles)
        defer { interruption.end() }
        let started = DispatchTime.now().uptimeNanoseconds
        // Progress only for a person watching: never into a pipe or a log, never with --json.
        let progress = console.errorIsTerminal && !arguments.flag("json")
            ? RunProgress(console: console, label: "run '\(scenario.name)'", total: scenario.devices, inPlace: true) : nil
        var (result, logs) = Simulator.run(scenario, jobs: jobs, logs: needsLogs, progress: { devices, events in
            interruption.advance(by: devices)
            progress?.advance(devices: devices, events: events)
        })
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        try ClientBudget.verify()
        if let user = scenario.queue.userClient, let refusal = user.rules.refusal(client: user.label) { throw InputError.refused(refusal) }
        result.loadFrame.fleet = fleet
        // Standard output keeps the contract's document, the same bytes `pushsim merge` prints;
        // summary.json adds how it was made (RunSummary).
        let json = result.json
        // One screen by default; every row with --long (summary.md always has them all).
        let table = arguments.flag("long") ? ReportTable(result, scenario: scenario) : ReportTable.short(result, scenario: scenario)
        if !arguments.flag("no-write") {
            interruption.update(phase: "writing the results",
                                consequence: "'\(outDirectory)' holds either the earlier results or the new ones, whole")
            try ResultsWriter.write(RunSummary.files(result, scenario: scenario), to: outDirectory, replacing: RunSummary.family)
            interruption.update(phase: "printing the report", consequence: "the results are written to '\(outDirectory)'")
        }
        if let logsPath { try writeLogs(logs, to: logsPath, interruption: interruption) }
        if let observePath {
            interruption.update(phase: "writing the observation file", consequence: "'\(observePath)' holds the earlier file or the new one, whole")
            try ResultsWriter.writeFile(observationFile(result, logs: logs, scenario: scenario), to: observePath)
        }
        // The harms and costs of every design on the same footing come with the long table (summary.md has them always).
        console.out(arguments.flag("json") ? json.text + "\n"
                    : arguments.flag("long") ? table.text + "\n" + DesignReport.markdown(result) : table.text)
        let events = result.arms.reduce(0) { $0 + $1.ledger.events }
        console.err(String(format: "ran in %.2f s on %d thread%@ (%.1f M events/s)\n", seconds, jobs,
                           jobs == 1 ? "" : "s", seconds > 0 ? Double(events) / seconds / 1e6 : 0))
        return ExitStatus.success.code
    }

    /// The observation file of `result`'s queue arm: every console share over the pushes APNs
    /// accepted, the gap sizes, gaps per push by hour of day, re-requests per minute, each with
    /// its sample size, and a description naming the run.
    static func observationFile(_ result: RunResult, logs: [LoggedPush], scenario: Scenario) -> String {
        let observations = CalibrationObservations.measured(result, logs: logs, scenario: scenario, byHour: true)
        let description = "observed by pushsim run on '\(scenario.name)' (seed \(scenario.seed), \(scenario.devices) phones, "
            + "the queue arm), PushSim \(PushSimVersion.current)"
        return ObservationFile.json(observations, description: description).prettyText + "\n"
    }

    /// Writes the log's rows and, beside them, their hourly summary; each file whole or not at all.
    static func writeLogs(_ rows: [LoggedPush], to path: String, interruption: Interruption) throws {
        let hourlyPath = ExtensionLogCSV.hourlyPath(for: path)
        interruption.update(phase: "writing the extension's log", consequence: "'\(path)' and '\(hourlyPath)' each hold the earlier file or the new one, whole")
        try ResultsWriter.writeFile(ExtensionLogCSV.rows(rows), to: path)
        try ResultsWriter.writeFile(ExtensionLogCSV.hourly(ExtensionLogSummary(rows)), to: hourlyPath)
    }
}
