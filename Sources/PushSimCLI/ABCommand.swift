// `pushsim ab`: two variants of one scenario on the same worlds — two clients, or a client against a setting — compared metric by metric.
import Dispatch
import PushSimCore
import PushSimScenarioFile
import PushSimExperiment
import PushSimReport

enum ABCommand {
    static let spec = CommandSpec(
        name: "ab", summary: "run two variants on the same worlds and compare them (exit 1 if B is worse)",
        operands: "FILE",
        about: """
        Runs the scenario twice on the same devices and seeds: as A (the file with the --a
        settings) and as B (with the --b settings). Each device meets the same world under
        both, so every metric is compared device by device (common random numbers), with the
        tolerances, the smallest detectable change and the words of `pushsim check`, B against
        A. Two clients: --a client=NAME --b client=NAME, NAME a built-in client (intended,
        literal) or one the program was given in Swift (docs/client.md). Exit 0 when B is
        nowhere worse beyond its tolerance, 1 when it is, 2 on bad input. Nothing is written.
        """,
        options: [
            CommandOption("a", .value("PATH=VALUE"), repeatable: true, help: """
                a setting of variant A only, as --set takes it (repeatable);
                client=NAME chooses its client
                """),
            CommandOption("b", .value("PATH=VALUE"), repeatable: true, help: "a setting of variant B only (repeatable)"),
            CommandOption("replications", .value("N"), default: .value("1"), range: 1...1000, help: """
                run both at N seeds (the scenario's and N − 1 derived, as a
                sweep's replications), every device at every seed one pair
                """),
            CommandOption("tolerance", .value("METRIC=VALUE"), repeatable: true, help: "a margin, as for `pushsim check`"),
            CommandOption("json", .flag, help: "print the comparison as JSON (sorted keys)"),
            CommandOption.set.help("a setting of both variants, as for `pushsim run`"),
            CommandOption.seed.help("as for `pushsim run`"),
            .jobs,
        ] + ResourceGuard.options,
        examples: [
            "pushsim ab scenarios/quickstart.yaml --b queue.repeat_max_count=8",
            "team-client ab team.yaml --a client=intended --b client=TeamGapClient --replications 4",
        ],
        run: run)

    static func run(_ arguments: Arguments, _ console: Console) throws -> Int32 {
        let jobs = try arguments.integer("jobs") ?? ScenarioInput.defaultJobs
        let replications = try arguments.integerWithDefault("replications")
        let tolerances: [CheckTolerance]
        do { tolerances = try arguments.values("tolerance").map(CheckTolerance.parse) } catch let error as CheckInputError {
            throw InputError.usage(error.description)
        }
        guard arguments.positionals.count == 1, let path = arguments.positionals.first else {
            throw InputError.usage(arguments.positionals.isEmpty ? "missing the scenario FILE" : "expected one scenario FILE, got \(arguments.positionals.count)")
        }
        let settingsA = arguments.values("a"), settingsB = arguments.values("b")
        if settingsA.isEmpty && settingsB.isEmpty {
            throw InputError.usage("A and B would be the same scenario: give what sets them apart with --a PATH=VALUE and/or --b PATH=VALUE (such as --b client=TeamGapClient)")
        }
        var shared = arguments.values("set")
        if let seed = arguments.value("seed") {
            guard ScenarioInput.isSeed(seed) else { throw InputError.usage("--seed needs an unsigned 64-bit integer, got '\(seed)'") }
            shared.append("seed=\(seed)")
        }
        let limits = try ResourceGuard.limits(arguments)
        let a = try ScenarioLoader.load(path: path, overrides: shared + settingsA, traceMemoryLimit: limits.maxMemoryBytes)
        let b = try ScenarioLoader.load(path: path, overrides: shared + settingsB, traceMemoryLimit: limits.maxMemoryBytes)
        // A runs twice (alone for its percentiles, then beside B), B once, at every seed.
        let estimates = (0..<replications).flatMap { _ in
            [("\(a.name) (A)", ResourceEstimate(a, jobs: jobs)), ("\(a.name) (A)", ResourceEstimate(a, jobs: jobs)),
             ("\(b.name) (B)", ResourceEstimate(b, jobs: jobs))]
        }
        if let refusal = ResourceGuard.refusal(estimates, limits: limits, what: "compare A and B of '\(a.name)'") {
            throw InputError.refused(refusal)
        }
        for (name, estimate) in estimates { ClientBudget.current?.expect(estimate, name: name) }
        let interruption = Interruption.shared
        interruption.install()
        interruption.begin("the comparison of A and B of '\(a.name)'", total: 0, unit: "", consequence: "nothing was written")
        defer { interruption.end() }
        let started = DispatchTime.now().uptimeNanoseconds
        let report: CheckReport
        do {
            report = try ABComparison.compare(a: a, b: b, replications: replications, tolerances: tolerances, jobs: jobs)
        } catch let error as CheckInputError {
            throw InputError.usage(error.description)
        }
        try ClientBudget.verify()
        if let refusal = ResultsWriter.refusal() { throw InputError.refused(refusal) }
        console.out(arguments.flag("json") ? report.json.prettyText + "\n" : report.text)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        console.err(String(format: "compared in %.2f s\n", seconds))
        return ExitStatus(report.outcome).code
    }
}
