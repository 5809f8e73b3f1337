// `pushsim sweep`: a grid of parameter values × replications; means, 95 % intervals, files, charts.
import Dispatch
import Foundation
import PushSimScenarioFile
import PushSimExperiment
import PushSimReport

enum SweepCommand {
    static let spec = CommandSpec(
        name: "sweep", summary: "run a grid of parameter values with replications; CSV, JSON, Markdown, SVG charts",
        operands: "FILE",
        about: """
        Progress (runs done, time left) goes to standard error when it is a terminal, never with --json.
        Ctrl-C stops the sweep (exit 130); results already in DIR stay as they were, and the runs
        finished are kept beside DIR (.NAME.runs/): --resume goes on from them.
        """,
        options: [
            CommandOption("vary", .value("PATH=V1,V2,…"), repeatable: true, help: """
                an axis of the grid: the values of one key, in the file syntax
                (repeatable: several make a cartesian product; the first is the
                charts' x axis). Without --vary the file's `sweep:` section is used;
                a path given on the command line (--vary or --set) replaces the file's.
                With --vary, the file's other axes join the grid: the sweep says so
                (points, runs, work and memory) on standard error before it runs
                """),
            CommandOption("only-vary", .flag, help: """
                run the --vary axes alone: the file's `sweep:` section is left out
                """),
            CommandOption("segment-charts", .flag, help: """
                draw every chart for each segment too (segmentN-NAME-METRIC.svg)
                """),
            CommandOption("segments-together", .flag, help: """
                draw every chart once more with a line per segment, in one figure
                (segments-METRIC.svg): a colour per segment, its off arm dashed
                """),
            CommandOption("plain", .flag, help: """
                charts for a paper: no title or subtitle, text 25 % larger
                """),
            CommandOption("reference", .value("PATH=VALUE"), repeatable: true, help: """
                the point every other is compared with, seed by seed (one value
                per axis; default: the file's own values, else the lowest mean
                loss rate of the queue arm); needs --replications 2 or more
                """),
            CommandOption("cost", .value("NAME=WEIGHT,…"), help: """
                what outcomes cost, adding the metric expected_cost (per letter):
                lost, summarized, duplicate, summary, resent, re_request (per
                event), latency_p50/p90/p99 (per time: `1/h`); such as
                `lost=1,summarized=0.3,resent=0.01,latency_p90=1/h`
                """),
            CommandOption("replications", .value("N"), default: .value("1"), range: 1...10_000, help: """
                runs per point, with seeds derived from the scenario's
                seed — the same N seeds at every point (common random numbers)
                """),
            CommandOption.set.help("override a key at every point"),
            CommandOption.seed.help("the scenario seed the replication seeds derive from"),
            CommandOption("out", .value("DIR"), default: .described("results/<name>/"),
                          help: "where to write sweep.csv, sweep.json, sweep.md and the SVG charts"),
            LoadOptions.bin, LoadOptions.sweepFleet,
            .noWrite,
            .resume,
            CommandOption.json.help("print the sweep's JSON document (means and ci95 of every metric)"),
            CommandOption.jobs.help("threads per run; never changes the result"),
        ] + ResourceGuard.options,
        notes: """
        --max-events also bounds all runs together (points × replications); each point must also fit
        as a run. A grid of more than 10000 points or 100000 runs is refused from its axes' lengths alone.
        """,
        examples: ["pushsim sweep scenarios/nightly-offline.yaml --vary queue.repeat_max_count=0,5,10,20,50 --replications 5"],
        run: run)

    static func run(_ arguments: Arguments, _ console: Console) throws -> Int32 {
        let (base, fileAxes) = try ScenarioInput.load(arguments)
        let path = arguments.positionals[0]
        // The same overrides ScenarioInput applied (already checked), then each point's settings.
        let baseOverrides = arguments.values("set") + (arguments.value("seed").map { ["seed=\($0)"] } ?? [])
        let replications = try arguments.integerWithDefault("replications")
        let jobs = try arguments.integer("jobs") ?? ScenarioInput.defaultJobs
        let limits = try ResourceGuard.limits(arguments)
        let varied = try arguments.values("vary").map { try SweepGrid.readVary($0) }
        let fixed = Set(arguments.values("set").compactMap { $0.split(separator: "=", maxSplits: 1).first.map(String.init) })
        let onlyVary = arguments.flag("only-vary")
        if onlyVary && varied.isEmpty { throw InputError.usage("--only-vary needs at least one --vary axis") }
        let axes = SweepGrid.axes(file: onlyVary ? [] : fileAxes, commandLine: varied.map(\.axis), fixed: fixed)
        let reference = try arguments.values("reference").map(SweepCommand.readReference)
        // --cost, else the file's own `objective:` (a file without one reports no cost).
        let cost = try arguments.value("cost").map { try SweepCost.parse($0) }
            ?? (base.objective.weights.isEmpty ? nil : SweepCost(objective: base.objective))
        if !reference.isEmpty && replications < 2 {
            throw InputError.usage("--reference compares replications seed by seed: give --replications 2 or more")
        }
        // The grid's size from its axes' lengths, before a single point is built.
        if let refusal = SweepGrid.sizeRefusal(axes, replications: replications, name: base.name) {
            throw InputError.refused(refusal)
        }
        let directory = arguments.value("out") ?? "results/\(base.name)"
        let interruption = Interruption.shared
        try interruption.beginWriting("the sweep of '\(base.name)'", total: 0, unit: "runs",
                                      directory: directory, writes: !arguments.flag("no-write"),
                                      names: SweepResult.alwaysWritten, family: SweepResult.family(segments: base.segments.map(\.name)))
        defer { interruption.end() }
        interruption.update(phase: "building its grid of \(SweepGrid.pointCount(axes) ?? 0) points", consequence: "nothing was written")
        var plan = try checkedPlan(path: path, overrides: baseOverrides, varied: varied, axes: axes,
                                   replications: replications, reference: reference, limits: limits)
        let load = try LoadOptions.sweepLoad(arguments, plan: &plan)
        if let refusal = refusal(plan, jobs: jobs, limits: limits) {
            throw InputError.refused(refusal)
        }
        ClientBudget.expect(plan, jobs: jobs, times: plan.seeds.count)
        // Said whether or not standard error is a terminal: a grid larger than asked is never silent.
        if let note = SweepAxesNote.text(commandLine: varied.map(\.axis), kept: Array(axes.dropFirst(varied.count)),
                                         replications: replications,
                                         estimates: plan.scenarios.map { ResourceEstimate($0, jobs: jobs) }) {
            console.err(note)
        }
        let together = arguments.flag("segments-together")
        if together && axes.count > 1 {
            throw InputError.usage("--segments-together draws a sweep of one axis; this one varies \(axes.count) (\(axes.map(\.path).joined(separator: ", ")))")
        }
        // Beyond the segments a sweep keeps metrics of, neither figure can be drawn: said before the run.
        for option in ["segments-together", "segment-charts"] where arguments.flag(option) && base.segments.count > SweepMetricNames.maxSegments {
            console.err("pushsim: note: --\(option): '\(plan.scenarioName)' has \(base.segments.count) segments, more than the "
                        + "\(SweepMetricNames.maxSegments) a sweep keeps each metric of, so there is no figure of segments\n")
        }
        if together && base.segments.isEmpty {
            console.err("pushsim: note: --segments-together: '\(plan.scenarioName)' has no segments, so there is no figure of segments\n")
        }
        let store = try RunStore(directory: directory, resume: arguments.flag("resume"), writes: !arguments.flag("no-write"))
        interruption.begin("the sweep of '\(plan.scenarioName)'", total: plan.runCount, unit: "runs",
                           consequence: arguments.flag("no-write") ? "nothing was written"
                               : "no results were written; '\(directory)' is as it was" + store.keptNote)
        let started = DispatchTime.now().uptimeNanoseconds
        let showProgress = console.errorIsTerminal && !arguments.flag("json")
        var reported = 0
        var result = try SweepRunner.run(plan, jobs: jobs, cost: cost, load: load, store: store) { done, total in
            interruption.advance(by: done - reported)
            reported = done
            guard showProgress else { return }
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
            let left = elapsed / Double(done) * Double(total - done)
            console.err(String(format: "\rsweep: %d/%d runs (%d points × %d replications), about %@ left   ",
                               done, total, plan.points.count, replications, ETA.text(left)))
            if done == total { console.err("\n") }
        }
        try ClientBudget.verify()
        result.overrides = baseOverrides
        result.chartsPerSegment = arguments.flag("segment-charts")
        if result.chartsPerSegment && result.segments.isEmpty {
            console.err("pushsim: note: --segment-charts: '\(plan.scenarioName)' has no segments, so there are no segment charts\n")
        }
        if !arguments.flag("no-write") {
            interruption.update(phase: "writing the results",
                                consequence: "'\(directory)' holds either the earlier results or the new ones, whole")
            let files = [("sweep.csv", result.csv), ("sweep.json", result.json.prettyText + "\n"), ("sweep.md", result.markdown)]
                + result.charts(plain: arguments.flag("plain"))
                + (together && !result.segments.isEmpty ? result.segmentOverlay.charts(plain: arguments.flag("plain")) : [])
            try ResultsWriter.write(HTMLReport.adding(to: files), to: directory, replacing: SweepResult.family(segments: base.segments.map(\.name)))
            store.finish()
        }
        if arguments.flag("resume") { console.err("sweep: \(store.summary)\n") }
        if arguments.flag("json") {
            console.out(result.json.text + "\n")
        } else {
            // Image links mean nothing on a terminal: the charts are files in the folder.
            console.out(result.markdown(charts: false))
        }
        return ExitStatus.success.code
    }
}

extension SweepCommand {
    /// Why the sweep is refused, or nil: every point must fit the limits as a run, and all
    /// runs together (points × replications) must fit the event budget.
    static func refusal(_ plan: SweepPlan, jobs: Int, limits: ResourceEstimate.Limits) -> String? {
        var total = 0.0
        for (point, scenario) in zip(plan.points, plan.scenarios) {
            let estimate = ResourceEstimate(scenario, jobs: jobs)
            if let refusal = estimate.refusal(under: limits, name: scenario.name) {
                return "at \(point.label): \(refusal)"
            }
            total += estimate.events * Double(plan.seeds.count)
        }
        guard total > limits.maxEvents else { return nil }
        return "refusing to sweep '\(plan.scenarioName)': its \(plan.runCount) runs would take about "
            + "\(ResourceEstimate.count(total)) events, over the limit of \(ResourceEstimate.count(limits.maxEvents)) "
            + "(--max-events). Use fewer points or replications, a smaller scenario, or raise --max-events."
    }
}

extension SweepCommand {
    /// The plan of `sweep` and `optimize`: the file and its --set applied once (each point adds
    /// only its own values), each --vary value tried alone first so that a bad one is reported
    /// where it is typed (`--vary:1:N`), then every point decoded; any error is an input error.
    static func checkedPlan(path: String, overrides: [String], varied: [VaryArgument], axes: [SweepAxis],
                            replications: Int, reference: [SweepSetting], limits: ResourceEstimate.Limits,
                            option: String = SweepGrid.varyFile) throws -> SweepPlan {
        let prepared = try ScenarioLoader.prepare(path: path, overrides: overrides, traceMemoryLimit: limits.maxMemoryBytes)
        for argument in varied {
            for (value, column) in zip(argument.axis.values, argument.columns) {
                try VaryLocation.relocating(argument.axis.path, column: column, option: option) {
                    _ = try ScenarioLoader.load(prepared, overrides: ["\(argument.axis.path)=\(value)"],
                                                traceMemoryLimit: limits.maxMemoryBytes)
                }
            }
        }
        do {
            return try SweepPlan(axes: axes, replications: replications, reference: reference) { extra in
                try ScenarioLoader.load(prepared, overrides: extra, traceMemoryLimit: limits.maxMemoryBytes)
            }
        } catch let error as SweepError {
            throw InputError.usage(error.message)
        }
    }
}

extension SweepCommand {
    /// Reads one `--reference PATH=VALUE`; the plan checks it against the axes.
    static func readReference(_ text: String) throws -> SweepSetting {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex, text.index(after: equals) != text.endIndex else {
            throw InputError.usage("--reference expects PATH=VALUE (such as `queue.repeat_max_count=20`), found `\(text)`")
        }
        return SweepSetting(path: String(text[..<equals]), value: String(text[text.index(after: equals)...]))
    }
}

/// A readable estimate of time left: `12 s`, `3 min`, `1.5 h`.
enum ETA {
    static func text(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "?" }
        if seconds < 90 { return "\(Int(seconds.rounded())) s" }
        if seconds < 5400 { return "\(Int((seconds / 60).rounded())) min" }
        return String(format: "%.1f h", seconds / 3600)
    }
}

/// Moves an error in one `--vary` value from the `--set` it was applied as to where the value
/// is typed: `--vary:1:COLUMN`.
enum VaryLocation {
    /// Runs `body`, which applies one value of `path` typed at `column` of `option`, to a file
    /// that read fine without it: whatever it refuses is that value's doing, so the error is
    /// located in the option (a rule across keys the file states is named beside it).
    static func relocating(_ path: String, column: Int, option: String = SweepGrid.varyFile, _ body: () throws -> Void) throws {
        do { try body() } catch let error as ScenarioError {
            guard let location = error.location, location.file == ScenarioError.overrideFile else {
                throw ScenarioError(location: SourceLocation(file: option, line: 1, column: column),
                                    message: error.message + (error.location.map { " (with the file's key at \($0.file):\($0.line):\($0.column))" } ?? ""))
            }
            // The value started at column path + 2 of the `PATH=VALUE` it was applied as.
            let inValue = max(0, location.column - (path.unicodeScalars.count + 2))
            throw ScenarioError(location: SourceLocation(file: option, line: 1, column: column + inValue),
                                message: error.message)
        }
    }
}
