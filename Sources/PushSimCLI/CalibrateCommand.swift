// `pushsim calibrate`: the scenario parameters that make the simulated observables match a team's observed ones.
import Dispatch
import Foundation
import PushSimCore
import PushSimScenarioFile
import PushSimExperiment
import PushSimReport

enum CalibrateCommand {
    static let spec = CommandSpec(
        name: "calibrate", summary: "fit scenario parameters to what a team observes (console shares, gaps, re-requests)",
        operands: "FILE",
        about: """
        Finds the values of the --fit parameters whose simulated observables (APNs' console shares, the gap-size
        histogram, gaps per push, re-requests per minute: whichever OBS.json gives) match the observed ones, by
        simulated method of moments: every candidate runs on the scenario's own seed (common random numbers), a
        Nelder–Mead search in the --fit box minimises J, the squared differences over their standard errors
        (observation and simulation together). Reports each fitted value with a 95 % interval (delta method), the
        parameters the observations cannot pin down as not identified, every target observed against fitted, and
        J with its chi-square degrees of freedom; writes calibrate.json, calibrate.md and calibrated.yaml (the
        scenario with the fitted values, which `pushsim run` reads) to DIR. Progress goes to standard error when
        it is a terminal, never with --json. Ctrl-C stops it at once; DIR stays as it was, and the simulations
        finished are kept beside DIR (.NAME.runs/): --resume goes on from them.
        """,
        options: [
            CommandOption("observed", .value("OBS.json"), required: true, help: """
                what was observed: a JSON file with any of apns_console,
                gap_sizes, gaps_per_push, re_requests_per_minute, each with its
                sample size, or extension_log: the path of an extension log CSV
                (run --logs' rows) that gives the gaps (docs/research.md,
                "Calibrate to your fleet")
                """),
            CommandOption("fit", .value("PATH=LOW..HIGH"), repeatable: true, required: true, help: """
                a parameter to fit and its range, in the file syntax
                (repeatable): device.alerts_off=0..0.3, a distribution's
                argument: connectivity.offline.median=5m..2h, or a value of one
                item of a list: connectivity.windows.0.length.mean=1h..10h
                """),
            CommandOption("max-evaluations", .value("N"), default: .value("40"), range: 1...10_000, help: """
                the most candidates the search simulates (its first simplex,
                parameters + 1, always; 2 more per parameter give the intervals)
                """),
            CommandOption("replications", .value("N"), default: .value("10"), range: 1...1_000, help: """
                runs of the fitted scenario on as many seeds (at least 2), which
                measure the moments' noise for the intervals
                """),
            CommandOption.set.help("override a key at every candidate (--set devices=500 for a quicker, coarser fit)"),
            CommandOption.seed.help("the seed every candidate runs on (common random numbers)"),
            CommandOption("out", .value("DIR"), default: .described("results/<name>/"),
                          help: "where to write calibrate.json, calibrate.md, calibrated.yaml and report.html"),
            .noWrite,
            .resume,
            CommandOption.json.help("print calibrate.json instead of calibrate.md"),
            CommandOption.jobs.help("threads per run; never changes the result"),
        ] + ResourceGuard.options,
        notes: """
        --max-events and --max-memory bound one candidate's run.
        """,
        examples: ["pushsim calibrate scenarios/quickstart.yaml --observed examples/observed-fleet.json --fit device.alerts_off=0..0.3 --set devices=200"],
        run: run)

    static func run(_ arguments: Arguments, _ console: Console) throws -> Int32 {
        let (base, _) = try ScenarioInput.load(arguments)
        let path = arguments.positionals[0]
        let overrides = arguments.values("set") + (arguments.value("seed").map { ["seed=\($0)"] } ?? [])
        let jobs = try arguments.integer("jobs") ?? ScenarioInput.defaultJobs
        let limits = try ResourceGuard.limits(arguments)
        // The scenario as given first: a run too big is refused before any --fit is read or resolved.
        let estimate = ResourceEstimate(base, jobs: jobs)
        if let refusal = estimate.refusal(under: limits, name: base.name) { throw InputError.refused(refusal) }
        let observedPath = try arguments.valueWithDefault("observed")
        let observations = try ObservationFile.read(path: observedPath, memoryLimit: limits.maxMemoryBytes)
        let entries = ScenarioPrinter.entries(base)
        let parameters = try arguments.values("fit").map { try FitParameter.read($0, in: base, entries: entries) }
        if let clash = FitParameter.clash(parameters) { throw InputError.usage(clash) }
        let prepared = try ScenarioLoader.prepare(path: path, overrides: overrides, traceMemoryLimit: limits.maxMemoryBytes)
        // Every candidate lies in the box: its bounds must make scenarios, and its heaviest corner fit the limits.
        try CalibrationBox.check(parameters, prepared: prepared, jobs: jobs, limits: limits, name: base.name)
        // A covariance needs two runs; the range declared stays 1… as every command's counts do.
        if try arguments.integerWithDefault("replications") < 2 {
            throw InputError.usage("--replications must be at least 2 (the intervals need the moments' spread), got \(try arguments.integerWithDefault("replications"))")
        }
        let settings = CalibrationSettings(maxEvaluations: try arguments.integerWithDefault("max-evaluations"),
                                           replications: try arguments.integerWithDefault("replications"))
        let directory = arguments.value("out") ?? "results/\(base.name)"
        let writes = !arguments.flag("no-write")
        let interruption = Interruption.shared
        let total = settings.maxEvaluations + 2 * parameters.count + settings.replications - 1
        try interruption.beginWriting("the calibration of '\(base.name)'", total: total, unit: "simulations",
                                      directory: directory, writes: writes, names: CalibrationResult.files)
        defer { interruption.end() }
        let store = try RunStore(directory: directory, resume: arguments.flag("resume"), writes: writes)
        if writes {
            interruption.update(phase: "", consequence: "no results were written; '\(directory)' is as it was" + store.keptNote)
        }
        let started = DispatchTime.now().uptimeNanoseconds
        let showProgress = console.errorIsTerminal && !arguments.flag("json")
        let result: CalibrationResult
        do {
            // Each candidate is estimated before it runs, as a run is (with the log it keeps): the
            // corners bound the box, but a scenario's work need not be monotone in a parameter.
            let admit = { (candidate: Scenario, overrides: [String]) -> String? in
                // A user's client that passed --max-events stops the search at once.
                if let budget = ClientBudget.current, budget.passed != nil { return budget.rules.refusal(client: budget.client) }
                let estimate = CalibrationBox.estimate(candidate, jobs: jobs)
                if let refusal = estimate.refusal(under: limits, name: base.name) {
                    return CalibrationBox.located(refusal, name: base.name, at: "a candidate of the search (\(CalibrationBox.shown(overrides)))")
                }
                ClientBudget.current?.expect(estimate, name: base.name)
                return nil
            }
            result = try CalibrationRunner.run(prepared, base: base, parameters: parameters, observations: observations,
                                               settings: settings, jobs: jobs, memory: store, admit: admit) { done, best in
                interruption.advance(by: 1)
                guard showProgress else { return }
                let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
                console.err(String(format: "\rcalibrate: %d simulations (at most about %d), best J %.3g, %@ elapsed   ",
                                   done, total, best, ETA.text(elapsed)))
            }
        } catch let error as CalibrationError {
            throw InputError.refused(error.description)
        }
        if showProgress { console.err("\n") }
        try ClientBudget.verify()
        let json = result.json(observed: observedPath)
        let markdown = result.markdown(observed: observedPath)
        if writes {
            let calibrated = try ScenarioLoader.load(prepared, overrides: result.overrides)
            interruption.update(phase: "writing the results",
                                consequence: "'\(directory)' holds either the earlier results or the new ones, whole")
            try ResultsWriter.write(HTMLReport.adding(to: [("calibrate.json", json.prettyText + "\n"), ("calibrate.md", markdown),
                                     ("calibrated.yaml", result.scenarioFile(calibrated, observed: observedPath))]),
                                    to: directory, replacing: CalibrationResult.files)
            store.finish()
        }
        if let failure = store.keepFailure {
            console.err("pushsim calibrate: warning: the simulations could not be kept for --resume: \(failure)\n")
        }
        if arguments.flag("resume") { console.err("calibrate: \(store.summary)\n") }
        console.out(arguments.flag("json") ? json.text + "\n" : markdown)
        return ExitStatus.success.code
    }
}
