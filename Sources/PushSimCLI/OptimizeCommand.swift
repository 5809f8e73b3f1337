// `pushsim optimize`: which candidate value minimises a metric, by Kim and Nelson's sequential selection on common random numbers, with its guarantee.
import Dispatch
import Foundation
import PushSimScenarioFile
import PushSimExperiment
import PushSimReport

enum OptimizeCommand {
    static let spec = CommandSpec(
        name: "optimize", summary: "choose the value that minimises a metric, within δ of the best with probability ≥ 1−α",
        operands: "FILE",
        about: """
        The candidates are the points of --over (which replaces the file's `sweep:` section), or of the
        file's `sweep:` section. Every candidate runs the first stage on the same seeds (common random
        numbers); after each further replication, Kim and Nelson's KN procedure drops the candidates
        worse than another beyond its bound, until one is left. Progress goes to standard error when it
        is a terminal, never with --json. Ctrl-C stops it after the run under way and writes what it has,
        marked as stopped, without the guarantee (exit 130); during the first stage, or on a second
        Ctrl-C, it stops at once and DIR stays as it was. The runs finished are kept beside DIR
        (.NAME.runs/) until the results are written whole: --resume goes on from them.
        """,
        options: [
            CommandOption("over", .value("PATH=V1,V2,…"), repeatable: true, aliases: ["vary"], help: """
                the candidates: the values of one key, in the file syntax
                (repeatable: several make a cartesian product); replaces the
                file's `sweep:` section
                """),
            CommandOption("objective", .value("METRIC|NAME=WEIGHT,…"),
                          default: .described("the file's `objective:`, else loss_rate"),
                          aliases: ["metric", "cost"], help: """
                what to minimise in the queue arm: a metric named as in
                sweep.csv (`latency_s.p90`, `summarized_rate`, …), or what
                outcomes cost (`lost=1,summarized=0.3,latency_p90=1/h`, as in
                `pushsim sweep --cost`): then the expected cost per letter
                """),
            CommandOption("segment", .value("NAME"), help: """
                minimise the objective in this segment of the scenario (the
                candidates still change every segment)
                """),
            CommandOption("indifference", .value("δ"), required: true, aliases: ["delta"], help: """
                the indifference zone, in the objective's units (`0.001` or
                `0.1%` for a loss rate): a difference smaller than δ is not
                worth telling apart
                """),
            CommandOption("confidence", .value("P"), default: .value("95%"), help: """
                the chosen value is within δ of the best with probability ≥ P
                (50 % ≤ P < 100 %; `95%` or `0.95`)
                """),
            CommandOption("first-stage", .value("N"), default: .value("10"), range: 2...10_000,
                          help: "replications of every candidate before any is dropped (n₀; at least 2, for a variance)"),
            CommandOption("max-replications", .value("N"), default: .value("100"), range: 1...100_000, help: """
                the most replications of any candidate; reaching it ends the
                procedure without its guarantee (the files say so)
                """),
            CommandOption.set.help("override a key at every candidate"),
            CommandOption.seed.help("the scenario seed the replication seeds derive from"),
            CommandOption("out", .value("DIR"), default: .described("results/<name>/"),
                          help: "where to write optimize.json, optimize.md, optimize.svg and report.html"),
            LoadOptions.bin, LoadOptions.sweepFleet,
            .noWrite,
            .resume,
            CommandOption.json.help("print optimize.json instead of optimize.md"),
            CommandOption.jobs.help("threads per run; never changes the result"),
        ] + ResourceGuard.options,
        notes: """
        --max-events bounds one replication of every candidate together; each candidate must also fit as a run.
        """,
        examples: ["pushsim optimize scenarios/quickstart.yaml --over queue.repeat_max_count=0,10,50 --indifference 0.1%",
                   "pushsim optimize scenarios/channels.yaml --over queue.repeat_max_count=5,20 --segment iphone-pushkit --objective lost=1,summarized=0.3 --indifference 0.002"],
        run: run)

    static func run(_ arguments: Arguments, _ console: Console) throws -> Int32 {
        let (base, fileAxes) = try ScenarioInput.load(arguments)
        let path = arguments.positionals[0]
        let baseOverrides = arguments.values("set") + (arguments.value("seed").map { ["seed=\($0)"] } ?? [])
        let jobs = try arguments.integer("jobs") ?? ScenarioInput.defaultJobs
        let limits = try ResourceGuard.limits(arguments)
        let varied = try arguments.values("over").map { try SweepGrid.readVary($0, option: "--over") }
        let fixed = Set(arguments.values("set").compactMap { $0.split(separator: "=", maxSplits: 1).first.map(String.init) })
        // The candidates are what the user asked for: --over alone, never joined by the file's axes.
        let axes = SweepGrid.axes(file: varied.isEmpty ? fileAxes : [], commandLine: varied.map(\.axis), fixed: fixed)
        let objective: OptimizeObjective
        do {
            objective = try OptimizeObjective.read(arguments.value("objective"), file: base.objective, segment: arguments.value("segment"),
                                                   segments: base.segments.map(\.name))
        } catch let error as SweepError {
            throw InputError.usage(error.message)
        }
        let confidence = try number("confidence", arguments, percent: true)
        let settings = OptimizeSettings(
            metric: objective.metric, delta: try number("indifference", arguments, percent: true),
            // Rounded to 12 decimals: 1 − 0.95 is 0.04999999999999993 in binary, and the files print α.
            alpha: ((1 - confidence) * 1e12).rounded() / 1e12,
            firstStage: try arguments.integerWithDefault("first-stage"),
            maxReplications: try arguments.integerWithDefault("max-replications"))
        if let refusal = SweepGrid.sizeRefusal(axes, replications: settings.maxReplications, name: base.name) {
            throw InputError.refused(refusal)
        }
        if let refusal = OptimizeRunner.refusal(settings, systems: SweepGrid.pointCount(axes) ?? 0) {
            throw InputError.usage(refusal)
        }
        let directory = arguments.value("out") ?? "results/\(base.name)"
        let writes = !arguments.flag("no-write")
        let interruption = Interruption.shared
        try interruption.beginWriting("the optimization of '\(base.name)'", total: 0, unit: "runs",
                                      directory: directory, writes: writes, names: OptimizeResult.files)
        defer { interruption.end() }
        var plan = try SweepCommand.checkedPlan(path: path, overrides: baseOverrides, varied: varied, axes: axes,
                                                replications: 1, reference: [], limits: limits, option: "--over")
        let load = try LoadOptions.sweepLoad(arguments, plan: &plan)
        if let refusal = SweepCommand.refusal(plan, jobs: jobs, limits: limits) {
            throw InputError.refused(refusal)
        }
        let store = try RunStore(directory: directory, resume: arguments.flag("resume"), writes: writes)
        ClientBudget.expect(plan, jobs: jobs, times: settings.maxReplications)
        let consequence = writes ? "no results were written; '\(directory)' is as it was" + store.keptNote : "nothing was written"
        interruption.begin("the optimization of '\(plan.scenarioName)'", total: 0, unit: "runs", consequence: consequence)
        interruption.allowEarlyStop()
        let started = DispatchTime.now().uptimeNanoseconds
        let showProgress = console.errorIsTerminal && !arguments.flag("json")
        var result: OptimizeResult
        do {
            result = try OptimizeRunner.run(plan, settings: settings, jobs: jobs, cost: objective.cost, load: load, store: store,
                                            shouldStop: { interruption.stopRequested }) { done, replication, _ in
                interruption.update(phase: "\(done) runs done, replication \(replication + 1)", consequence: consequence)
                guard showProgress else { return }
                let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
                console.err(String(format: "\roptimize: %d runs, replication %d, %@ elapsed   ",
                                   done, replication + 1, ETA.text(elapsed)))
            }
        } catch let error as SweepError {
            throw InputError.usage(error.message)
        } catch let stopped as OptimizeStoppedEarly {
            if showProgress { console.err("\n") }
            console.err("pushsim: interrupted (SIGINT): the optimization of '\(plan.scenarioName)' was stopped in its first stage "
                        + "after \(stopped.runs) runs, before any candidate could be compared; \(consequence)\n")
            return Interruption.exitStatus(signal: SIGINT)
        }
        if showProgress { console.err("\n") }
        try ClientBudget.verify()
        result.overrides = baseOverrides
        result.objective = objective.text
        result.segment = arguments.value("segment")
        if writes {
            interruption.update(phase: "writing the results",
                                consequence: "'\(directory)' holds either the earlier results or the new ones, whole")
            try ResultsWriter.write(HTMLReport.adding(to: [("optimize.json", result.json.prettyText + "\n"), ("optimize.md", result.markdown),
                                     ("optimize.svg", result.svg)]),
                                    to: directory, replacing: OptimizeResult.files)
            // Stopped early, the selection may go on: its runs stay for --resume.
            if !result.selection.stopped { store.finish() }
        }
        if arguments.flag("resume") { console.err("optimize: \(store.summary)\n") }
        console.out(arguments.flag("json") ? result.json.text + "\n" : result.markdown)
        // The edge of the grid, on standard error too: it must not be missed under --json.
        for edge in result.gridEdges { console.err("pushsim optimize: warning: at the edge of the grid: " + edge.warning + "\n") }
        // Stopped by Ctrl-C with what it had: the files are written, and the status says it was interrupted.
        return result.selection.stopped ? Interruption.exitStatus(signal: SIGINT) : ExitStatus.success.code
    }

    /// A real-valued option: a number, or (`percent`) a percentage such as `0.1%` read as 0.001.
    static func number(_ name: String, _ arguments: Arguments, percent: Bool) throws -> Double {
        let text = try arguments.valueWithDefault(name)
        var digits = Substring(text)
        var scale = 1.0
        if percent, digits.hasSuffix("%") { digits = digits.dropLast(); scale = 0.01 }
        guard let value = Double(digits), value.isFinite else {
            throw InputError.usage("--\(name) needs a number\(percent ? " (or a percentage such as 0.1%)" : ""), got '\(text)'")
        }
        return value * scale
    }
}
