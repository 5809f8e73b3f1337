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

    /// ``main(_:client:name:version:)`` for a program that carries several clients (two
    /// versions of the team's, or its client and a variant): the first decides unless the
    /// command line chooses another by name with `client=NAME` (`--set client=NAME`, `sweep
    /// --vary client=A,B`, `pushsim ab FILE --a client=A --b client=B`); `intended` and
    /// `literal` name PushSim's built-in clients. Names must differ from each other and from
    /// the built-in ones.
    public static func main(_ arguments: [String], clients: [NamedClient]) -> Int32 {
        StandardStreams.occupy()
        Interruption.shared.install()
        let console = Console.process()
        if let refusal = NamedClient.refusal(clients) {
            console.err("pushsim: \(refusal)\n")
            return 2
        }
        return main(arguments, clients.map(\.user), console: console)
    }

    private static func main(_ arguments: [String], _ user: UserClient) -> Int32 {
        StandardStreams.occupy()
        Interruption.shared.install()
        return main(arguments, [user], console: Console.process())
    }

    private static func main(_ arguments: [String], _ users: [UserClient], console: Console) -> Int32 {
        guard let user = users.first else { return PushSimTool.main(arguments, console: console) }
        let others = users.count > 1 ? " (or, chosen with client=NAME: " + users.dropFirst().map(\.label).joined(separator: ", ") + ")" : ""
        console.err("pushsim: the extension's decisions come from \(user.label) (PushSimClient, protocol version \(user.protocolVersion))\(others), not from queue.client\n")
        return bound(users) { PushSimTool.main(arguments, console: console) }
    }

    /// Runs `body` with `users` bound: the first as the default client, all of them by name.
    private static func bound<T>(_ users: [UserClient], _ body: () -> T) -> T {
        ScenarioLoader.$userClient.withValue(users.first) {
            ScenarioLoader.$namedClients.withValue(users) { body() }
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

    /// ``command(_:client:name:version:)`` with several clients, as ``main(_:clients:)`` takes them.
    public static func command(_ arguments: [String], clients: [NamedClient]) -> CommandResult {
        if let refusal = NamedClient.refusal(clients) {
            return CommandResult(status: 2, output: "", errors: "pushsim: \(refusal)\n")
        }
        return command(arguments, clients.map(\.user))
    }

    private static func command(_ arguments: [String], _ user: UserClient) -> CommandResult {
        command(arguments, [user])
    }

    private static func command(_ arguments: [String], _ users: [UserClient]) -> CommandResult {
        let console = Console.capturing()
        let status = bound(users) { PushSimTool.main(arguments, console: console) }
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

/// A client given by name, for a program that carries several (``PushSim/main(_:clients:)``).
public struct NamedClient: Sendable {
    let user: UserClient

    /// A client of protocol version 1 named `name` (its `version`: a release or a hash the team supplies).
    public init(_ client: some ExtensionClient, name: String, version: String? = nil) {
        user = UserClient(client, name: name, version: version)
    }

    /// A client of protocol version 2.
    public init(_ client: some ServiceExtensionClient, name: String, version: String? = nil) {
        user = UserClient(stateful: client, name: name, version: version)
    }

    /// Why these clients cannot be given together, or nil: none at all, an empty name, a name
    /// with a comma (a sweep's list of values), a built-in client's name, or one name twice.
    static func refusal(_ clients: [NamedClient]) -> String? {
        if clients.isEmpty { return "PushSim.main(_:clients:) needs at least one client" }
        var seen: Set<String> = []
        for client in clients {
            let name = client.user.name
            if name.allSatisfy(\.isWhitespace) || name.contains(",") || name.contains("=") {
                return "a client's name must be a word, without commas or `=` (it is written `client=NAME` on the command line), got `\(name)`"
            }
            if ClientVariant(rawValue: name) != nil {
                return "a client may not be named `\(name)`: that names PushSim's built-in client"
            }
            if !seen.insert(name).inserted { return "two clients are named `\(name)`: give each its own name" }
        }
        return nil
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
