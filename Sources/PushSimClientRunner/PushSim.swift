// The public entry for a client supplied in Swift: PushSim's command line, or one run, with that client deciding.
import PushSimClient
import PushSimCore
import PushSimCLI
import PushSimScenarioFile

/// Runs PushSim with an app team's own ``ExtensionClient`` deciding in the queue arm, instead
/// of the scenario's `queue.client` (docs/client.md). Everything else — the scenario files,
/// the arms, the JSON, `check` and its baselines — is what `pushsim` itself does.
public enum PushSim {
    /// The `pushsim` command line (`run`, `check`, `sweep`, `trace`, … with their options;
    /// `arguments` without the program's name) with `client` deciding for every scenario it
    /// loads. Returns the exit status `pushsim` would: 0 fine, 1 `check` found a regression,
    /// 2 bad input. Meant as an executable's `main` (it takes over the process's signals, as
    /// `pushsim` does): `exit(PushSim.main(Array(CommandLine.arguments.dropFirst()), client: MyClient()))`.
    public static func main(_ arguments: [String], client: some ExtensionClient, name: String? = nil) -> Int32 {
        StandardStreams.occupy()
        Interruption.shared.install()
        let named = name ?? String(describing: type(of: client))
        let console = Console.process()
        console.err("pushsim: the extension's decisions come from \(named) (PushSimClient), not from queue.client\n")
        return ScenarioLoader.$userClient.withValue(UserClient(client, name: named)) {
            PushSimTool.main(arguments, console: console)
        }
    }

    /// One `pushsim` command with `client` deciding, its output kept rather than printed: the
    /// way to call `check` from code (a test of the client's repository) without a process.
    /// The process's signals are left alone.
    public static func command(_ arguments: [String], client: some ExtensionClient, name: String? = nil) -> CommandResult {
        let console = Console.capturing()
        let status = ScenarioLoader.$userClient.withValue(UserClient(client, name: name ?? String(describing: type(of: client)))) {
            PushSimTool.main(arguments, console: console)
        }
        return CommandResult(status: status, output: console.standardOutput, errors: console.standardError)
    }

    /// `pushsim run PATH --json --no-write` with `client` deciding: the JSON document `run`
    /// prints (the summary.json it would write), nothing written. `overrides` are `--set`
    /// values (`"devices=300"`). Throws ``PushSimError`` with the message `pushsim` would print.
    public static func run(scenarioAt path: String, overrides: [String] = [], jobs: Int = 1,
                           client: some ExtensionClient, name: String? = nil) throws -> String {
        let arguments = ["run", path, "--json", "--no-write", "--jobs", String(jobs)] + overrides.flatMap { ["--set", $0] }
        let result = command(arguments, client: client, name: name)
        guard result.status == 0 else { throw PushSimError(status: result.status, message: result.errors) }
        return result.output
    }
}

/// What a command printed and its exit status (0 fine, 1 `check` found a regression, 2 bad input).
public struct CommandResult: Sendable {
    public let status: Int32
    public let output: String
    public let errors: String
}

/// A run that `pushsim` would have ended with a non-zero status: the status and its message.
public struct PushSimError: Error, CustomStringConvertible {
    public let status: Int32
    public let message: String
    public var description: String { message }
}
