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
    /// 2 bad input (or a client that broke a rule of its protocol). Meant as an executable's
    /// `main` (it takes over the process's signals, as `pushsim` does):
    /// `exit(PushSim.main(Array(CommandLine.arguments.dropFirst()), client: MyClient(), version: "1.3"))`.
    /// `name` and `version` name the client in every result it makes (version: a release or a
    /// hash the team supplies).
    public static func main(_ arguments: [String], client: some ExtensionClient, name: String? = nil, version: String? = nil) -> Int32 {
        main(arguments, UserClient(client, name: name ?? String(describing: type(of: client)), version: version))
    }

    /// ``main(_:client:name:version:)`` for a client of protocol version 2.
    public static func main(_ arguments: [String], client: some ServiceExtensionClient, name: String? = nil, version: String? = nil) -> Int32 {
        main(arguments, UserClient(stateful: client, name: name ?? String(describing: type(of: client)), version: version))
    }

    private static func main(_ arguments: [String], _ user: UserClient) -> Int32 {
        StandardStreams.occupy()
        Interruption.shared.install()
        let console = Console.process()
        console.err("pushsim: the extension's decisions come from \(user.label) (PushSimClient, protocol version \(user.protocolVersion)), not from queue.client\n")
        return ScenarioLoader.$userClient.withValue(user) {
            PushSimTool.main(arguments, console: console)
        }
    }

    /// One `pushsim` command with `client` deciding, its output kept rather than printed: the
    /// way to call `check` from code (a test of the client's repository) without a process.
    /// The process's signals are left alone.
    public static func command(_ arguments: [String], client: some ExtensionClient, name: String? = nil, version: String? = nil) -> CommandResult {
        command(arguments, UserClient(client, name: name ?? String(describing: type(of: client)), version: version))
    }

    /// ``command(_:client:name:version:)`` for a client of protocol version 2.
    public static func command(_ arguments: [String], client: some ServiceExtensionClient, name: String? = nil, version: String? = nil) -> CommandResult {
        command(arguments, UserClient(stateful: client, name: name ?? String(describing: type(of: client)), version: version))
    }

    private static func command(_ arguments: [String], _ user: UserClient) -> CommandResult {
        let console = Console.capturing()
        let status = ScenarioLoader.$userClient.withValue(user) {
            PushSimTool.main(arguments, console: console)
        }
        return CommandResult(status: status, output: console.standardOutput, errors: console.standardError)
    }

    /// `pushsim run PATH --json --no-write` with `client` deciding: the JSON document `run`
    /// prints (the summary.json it would write), nothing written. `overrides` are `--set`
    /// values (`"devices=300"`). Throws ``PushSimError`` with the message `pushsim` would print.
    public static func run(scenarioAt path: String, overrides: [String] = [], jobs: Int = 1,
                           client: some ExtensionClient, name: String? = nil, version: String? = nil) throws -> String {
        try run(scenarioAt: path, overrides: overrides, jobs: jobs,
                UserClient(client, name: name ?? String(describing: type(of: client)), version: version))
    }

    /// ``run(scenarioAt:overrides:jobs:client:name:version:)`` for a client of protocol version 2.
    public static func run(scenarioAt path: String, overrides: [String] = [], jobs: Int = 1,
                           client: some ServiceExtensionClient, name: String? = nil, version: String? = nil) throws -> String {
        try run(scenarioAt: path, overrides: overrides, jobs: jobs,
                UserClient(stateful: client, name: name ?? String(describing: type(of: client)), version: version))
    }

    private static func run(scenarioAt path: String, overrides: [String], jobs: Int, _ user: UserClient) throws -> String {
        let arguments = ["run", path, "--json", "--no-write", "--jobs", String(jobs)] + overrides.flatMap { ["--set", $0] }
        let result = command(arguments, user)
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
