// `pushsim validate`: parse and check a scenario file, run nothing.
import PushSimCore
import PushSimScenarioFile
import PushSimReport

enum ValidateCommand {
    static let spec = CommandSpec(
        name: "validate", summary: "check a scenario file without running it",
        operands: "FILE",
        about: "Exit 0 when the file is valid; otherwise exit 2 with a message naming file:line:column.",
        options: [
            .set, .seed,
            CommandOption("print", .flag, help: """
                print the resolved scenario (every key, defaults included, overrides
                applied) as a scenario file that reads back to the same scenario
                """),
        ],
        examples: [
            "pushsim validate scenarios/commuters.yaml",
            "pushsim validate scenarios/commuters.yaml --set apns.expiration=1h --print",
        ],
        run: run)

    static func run(_ arguments: Arguments, _ console: Console) throws -> Int32 {
        let (scenario, sweep) = try ScenarioInput.load(arguments)
        if arguments.flag("print") {
            console.out("# \(arguments.positionals[0]) resolved by PushSim \(PushSimVersion.current)\n" + ScenarioPrinter.yaml(scenario)
                        + ScenarioPrinter.sweepSection(sweep))
            return ExitStatus.success.code
        }
        let arms = scenario.arms.map(\.rawValue).joined(separator: ", ")
        var line = "\(arguments.positionals[0]): ok — '\(scenario.name)', \(scenario.devices) devices × "
            + "\(scenario.duration) (+\(scenario.drain) drain), seed \(scenario.seed), queue \(arms)"
        if !sweep.isEmpty { line += ", sweep over \(sweep.map(\.path).joined(separator: " × "))" }
        console.out(line + "\n")
        return ExitStatus.success.code
    }
}
