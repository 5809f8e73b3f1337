// `pushsim validate`: parse and check a scenario file, run nothing.
import PushSim

enum ValidateCommand {
    static let spec = CommandSpec(
        name: "validate", summary: "check a scenario file without running it",
        usage: """
        Usage: pushsim validate FILE [--set PATH=VALUE]… [--seed N]

        Exit 0 when the file is valid; otherwise exit 2 with a message naming file:line:column.

        Example:
          pushsim validate scenarios/commuters.yaml
        """,
        run: run)

    static func run(_ words: [String], _ console: Console) throws -> Int32 {
        let arguments = try Arguments(words, flags: [], options: ScenarioInput.options)
        let (scenario, sweep) = try ScenarioInput.load(arguments)
        let arms = scenario.arms.map { $0 ? "on" : "off" }.joined(separator: ", ")
        var line = "\(arguments.positionals[0]): ok — '\(scenario.name)', \(scenario.devices) devices × "
            + "\(scenario.duration) (+\(scenario.drain) drain), seed \(scenario.seed), queue \(arms)"
        if !sweep.isEmpty { line += ", sweep over \(sweep.map(\.path).joined(separator: " × "))" }
        console.out(line + "\n")
        return 0
    }
}
