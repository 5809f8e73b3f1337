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
        The candidates are the points of --vary (which replaces the file's `sweep:` section), or of the
        file's `sweep:` section. Every candidate runs the first stage on the same seeds (common random
        numbers); after each further replication, Kim and Nelson's KN procedure drops the candidates
        worse than another beyond its bound, until one is left. Progress goes to standard error when it
        is a terminal, never with --json. Ctrl-C stops it (exit 130); DIR stays as it was.
        """,
        options: [
            CommandOption("vary", .value("PATH=V1,V2,…"), repeatable: true, help: """
                the candidates: the values of one key, in the file syntax
                (repeatable: several make a cartesian product); replaces the
                file's `sweep:` section
                """),
            CommandOption("metric", .value("NAME"), default: .value("loss_rate"), help: """
                the queue arm's metric to minimise, named as in sweep.csv
                (`latency_s.p90`, `segments.NAME.loss_rate`, …); with --cost:
                expected_cost
                """),
            CommandOption("cost", .value("NAME=WEIGHT,…"), help: """
                what outcomes cost (as in `pushsim sweep --cost`): the objective
                becomes the expected cost per letter
                """),
            CommandOption("delta", .value("δ"), required: true, help: """
                the indifference zone, in the metric's units (`0.001` or `0.1%`
                for a loss rate): a difference smaller than δ is not worth
                telling apart
                """),
            CommandOption("alpha", .value("α"), default: .value("0.05"), help: """
                the chosen value is within δ of the best with probability ≥ 1 − α
                (0 < α < 0.5)
                """),
            CommandOption("first-stage", .value("N"), default: .value("10"), range: 1...10_000,
                          help: "replications of every candidate before any is dropped (n₀)"),
            CommandOption("max-replications", .value("N"), default: .value("100"), range: 1...100_000, help: """
                the most replications of any candidate; reaching it ends the
                procedure without its guarantee (the files say so)
                """),
            CommandOption.set.help("override a key at every candidate"),
            CommandOption.seed.help("the scenario seed the replication seeds derive from"),
            CommandOption("out", .value("DIR"), default: .described("results/<name>/"),
                          help: "where to write optimize.json and optimize.md"),
            .noWrite,
            CommandOption.json.help("print optimize.json instead of optimize.md"),
            CommandOption.jobs.help("threads per run; never changes the result"),
        ] + ResourceGuard.options,
        notes: """
        --max-events bounds one replication of every candidate together; each candidate must also fit as a run.
        """,
        examples: ["pushsim optimize scenarios/quickstart.yaml --vary queue.repeat_max_count=0,10,50 --delta 0.1%"],
        run: run)

    static func run(_ arguments: Arguments, _ console: Console) throws -> Int32 {
        let (base, fileAxes) = try ScenarioInput.load(arguments)
        let path = arguments.positionals[0]
        let baseOverrides = arguments.values("set") + (arguments.value("seed").map { ["seed=\($0)"] } ?? [])
        let jobs = try arguments.integer("jobs") ?? ScenarioInput.defaultJobs
        let limits = try ResourceGuard.limits(arguments)
        let varied = try arguments.values("vary").map(SweepGrid.readVary)
        let fixed = Set(arguments.values("set").compactMap { $0.split(separator: "=", maxSplits: 1).first.map(String.init) })
        // The candidates are what the user asked for: --vary alone, never joined by the file's axes.
        let axes = SweepGrid.axes(file: varied.isEmpty ? fileAxes : [], commandLine: varied.map(\.axis), fixed: fixed)
        let cost = try arguments.value("cost").map(SweepCost.parse)
        var metric = try arguments.valueWithDefault("metric")
        if cost != nil {
            if arguments.given("metric") && metric != SweepCost.metric {
                throw InputError.usage("--cost makes the objective `\(SweepCost.metric)`: give --metric \(SweepCost.metric) or no --metric")
            }
            metric = SweepCost.metric
        }
        let settings = OptimizeSettings(
            metric: metric, delta: try number("delta", arguments, percent: true), alpha: try number("alpha", arguments, percent: false),
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
        let plan = try SweepCommand.checkedPlan(path: path, overrides: baseOverrides, varied: varied, axes: axes,
                                                replications: 1, reference: [], limits: limits)
        if let refusal = SweepCommand.refusal(plan, jobs: jobs, limits: limits) {
            throw InputError.refused(refusal)
        }
        let consequence = writes ? "no results were written; '\(directory)' is as it was" : "nothing was written"
        interruption.begin("the optimization of '\(plan.scenarioName)'", total: 0, unit: "runs", consequence: consequence)
        let started = DispatchTime.now().uptimeNanoseconds
        let showProgress = console.errorIsTerminal && !arguments.flag("json")
        var result: OptimizeResult
        do {
            result = try OptimizeRunner.run(plan, settings: settings, jobs: jobs, cost: cost) { done, replication, _ in
                interruption.update(phase: "\(done) runs done, replication \(replication + 1)", consequence: consequence)
                guard showProgress else { return }
                let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
                console.err(String(format: "\roptimize: %d runs, replication %d, %@ elapsed   ",
                                   done, replication + 1, ETA.text(elapsed)))
            }
        } catch let error as SweepError {
            throw InputError.usage(error.message)
        }
        if showProgress { console.err("\n") }
        result.overrides = baseOverrides
        if writes {
            interruption.update(phase: "writing the results",
                                consequence: "'\(directory)' holds either the earlier results or the new ones, whole")
            try ResultsWriter.write([("optimize.json", result.json.prettyText + "\n"), ("optimize.md", result.markdown)],
                                    to: directory, replacing: OptimizeResult.files)
        }
        console.out(arguments.flag("json") ? result.json.text + "\n" : result.markdown)
        return ExitStatus.success.code
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
