// The public entry point of scenario reading: file or text, plus `--set` overrides → a checked Scenario.
import Foundation
import PushSimCore

/// Reads scenario files (docs/scenarios.md §1–2a).
///
/// Every failure throws a ``ScenarioError`` naming `file:line:column`; no input traps. Overrides
/// (`PATH=VALUE`, the value in the file syntax) are applied to the node tree before decoding, in
/// order, so a later one wins and an overridden value is checked like one in the file. A
/// `mail.trace` file is read here too, relative to the scenario file's folder (for
/// ``parse(text:file:overrides:)``, to the folder of `file`).
package enum ScenarioLoader {
    /// A client supplied in Swift (PushSimClientRunner, docs/client.md): every scenario loaded
    /// while it is bound decides with it instead of `queue.client`. Bound per task, not per
    /// process, so two runs side by side (tests) cannot see each other's client.
    @TaskLocal package static var userClient: UserClient?

    /// Every client the program was given in Swift, the default one first
    /// (`PushSim.main(_:clients:)`): the command-line setting `client=NAME` (`--set`, `--vary`,
    /// `pushsim ab`'s `--a`/`--b`) chooses one of them, or a built-in client (`intended`,
    /// `literal`), for the scenario it loads.
    @TaskLocal package static var namedClients: [UserClient] = []

    /// The command-line setting that chooses the client: `client=NAME`.
    package static let clientSetting = "client"

    /// Reads and checks the scenario at `path`.
    package static func load(path: String, overrides: [String] = [], traceMemoryLimit: Double = .infinity) throws -> Scenario {
        try loadWithSweep(path: path, overrides: overrides, traceMemoryLimit: traceMemoryLimit).0
    }

    /// Reads and checks a scenario given as text; `file` names it in errors.
    package static func parse(text: String, file: String, overrides: [String] = []) throws -> Scenario {
        try parseWithSweep(text: text, file: file, overrides: overrides).0
    }

    /// Like ``load(path:overrides:)``, also returning the axes of the file's `sweep:` section.
    /// `traceMemoryLimit`: the most bytes reading a `mail.trace` may take (`--max-memory`); a
    /// larger trace is refused from its size, before a byte of it is read.
    package static func loadWithSweep(path: String, overrides: [String] = [],
                                      traceMemoryLimit: Double = .infinity) throws -> (Scenario, [SweepAxis]) {
        try decodeDocument(try document(path: path), file: path, overrides: overrides, traceMemoryLimit: traceMemoryLimit)
    }

    /// A scenario file read, with some `--set` overrides applied once, to load many variants
    /// of (a sweep's points, each with its own overrides on top): 2000 `--set` were applied
    /// again for each of 1000 points (64 s in debug before the first point was refused).
    package struct Prepared: Sendable {
        let path: String
        let root: YAMLNode
        /// The last `client=NAME` among the overrides applied once.
        let clientChoice: ClientChoice?
    }

    /// Reads `path` and applies `overrides`, after checking that they load (the same errors as
    /// ``loadWithSweep(path:overrides:traceMemoryLimit:)``).
    package static func prepare(path: String, overrides: [String], traceMemoryLimit: Double = .infinity) throws -> Prepared {
        _ = try loadWithSweep(path: path, overrides: overrides, traceMemoryLimit: traceMemoryLimit)
        var root = try document(path: path) ?? YAMLNode(.mapping([]), at: SourceLocation(file: path, line: 1, column: 1))
        let (choice, settings) = ClientChoice.split(overrides)
        for argument in settings {
            let (segments, value) = try ScenarioOverrides.parse(argument)
            try ScenarioOverrides.apply(value, at: segments, to: &root)
        }
        return Prepared(path: path, root: root, clientChoice: choice)
    }

    /// The scenario `prepared` holds, with `overrides` applied on top.
    package static func load(_ prepared: Prepared, overrides: [String], traceMemoryLimit: Double = .infinity) throws -> Scenario {
        let choice = ClientChoice.split(overrides).choice == nil ? prepared.clientChoice.map { [$0.argument] } ?? [] : []
        return try decodeDocument(prepared.root, file: prepared.path, overrides: choice + overrides, traceMemoryLimit: traceMemoryLimit).0
    }

    /// The tree of the scenario file at `path` (nil for an empty file).
    private static func document(path: String) throws -> YAMLNode? {
        // stat's own reason where it is not ENOENT: a name past 255 bytes, a path past 4095, a
        // file on the way, a link loop or a folder that cannot be entered is not "no such file".
        var found = stat()
        guard stat(path, &found) == 0 else {
            let reason = errno == ENOENT ? "no such file" : String(cString: strerror(errno))
            throw ScenarioError(location: nil, message: "\(path): cannot read the scenario file: \(reason)")
        }
        guard (found.st_mode & S_IFMT) != S_IFDIR else {
            throw ScenarioError(location: nil, message: "\(path): cannot read the scenario file: expected a readable file")
        }
        // Read at most one byte past the reader's own limit, so a huge file (or /dev/zero) costs
        // no more memory than a scenario may have, and the reader still names the size itself.
        // A sweep loads the file once per point: the tree read last is reused while the file
        // is the same regular file (``FileIdentity``), so a large file
        // is not read and parsed again per point.
        let identity = FileIdentity.stable(path).map { "\($0.identity) \(path)" }
        if let identity, let root = lastDocument.root(identity) { return root }
        let bytes: [UInt8]
        do { bytes = try BoundedInput.read(path: path, limit: YAMLReader.maxBytes + 1, role: "the scenario file") } catch {
            if case .tooLarge = error {
                throw ScenarioError(location: SourceLocation(file: path, line: 1, column: 1),
                                    message: "the file is larger than \(YAMLReader.maxBytes / 1024 / 1024) MB: expected a scenario file of at most \(YAMLReader.maxBytes / 1024 / 1024) MB of text")
            }
            throw ScenarioError(location: nil, message: "\(path): cannot read the scenario file: \(error.reason)")
        }
        let root = try YAMLReader.read(bytes: bytes, file: path)
        if let identity { lastDocument.keep(root, as: identity) }
        return root
    }

    /// The tree of the file read last in this process, by its identity.
    private static let lastDocument = LastDocument()

    /// Like ``parse(text:file:overrides:)``, also returning the axes of the `sweep:` section.
    package static func parseWithSweep(text: String, file: String, overrides: [String] = []) throws -> (Scenario, [SweepAxis]) {
        let root = try YAMLReader.read(text: text, file: file)
        return try decodeDocument(root, file: file, overrides: overrides)
    }

    /// Checks the scenario at `path` without keeping the result (`pushsim validate`).
    package static func validate(path: String, overrides: [String] = []) throws {
        _ = try loadWithSweep(path: path, overrides: overrides)
    }

    static func decodeDocument(_ document: YAMLNode?, file: String, overrides: [String],
                               traceMemoryLimit: Double = .infinity) throws -> (Scenario, [SweepAxis]) {
        let start = SourceLocation(file: file, line: 1, column: 1)
        if document == nil && overrides.isEmpty {
            throw ScenarioError(location: start, message: "the file is empty: expected a mapping with at least `name`, `duration` and `devices`")
        }
        var root = document ?? YAMLNode(.mapping([]), at: start)
        guard case .mapping = root.kind else {
            throw ScenarioError(location: root.location, message: "expected a mapping of keys (`name`, `duration`, `devices`, …) at the top level, found \(root.foundDescription)")
        }
        let context = DecodingContext(scenarioFile: file, traceMemoryLimit: traceMemoryLimit)
        let (clientChoice, overrides) = ClientChoice.split(overrides)
        for argument in overrides {
            // A distribution's argument or a list item's key (the paths `--fit` takes) is set
            // by rewriting the key's whole value; a default the file does not write is read
            // from the scenario as resolved so far.
            let resolvedSoFar = root
            let reached = try ScenarioOverrides.reach(argument, in: root) { path in
                guard let scenario = try? ScenarioDecoder.decode(resolvedSoFar, context: context) else { return nil }
                var node = ScenarioPrinter.Node.mapping(ScenarioPrinter.entries(scenario))
                for key in path {
                    guard case .mapping(let entries) = node, let next = entries.first(where: { $0.key == key }) else { return nil }
                    node = next.value
                }
                if case .scalar(let text) = node { return text }
                return nil
            }
            let (segments, value) = try reached ?? ScenarioOverrides.parse(argument)
            try ScenarioOverrides.apply(value, at: segments, to: &root)
        }
        var scenario = try ScenarioDecoder.decode(root, context: context)
        try choose(clientChoice, for: &scenario)
        if scenario.queue.userClient?.stateful != nil {
            let parallel = scenario.extension.concurrency == .parallel
                || scenario.segments.indices.contains { scenario.scenario(forSegment: $0).extension.concurrency == .parallel }
            if parallel {
                throw ScenarioError(location: root["extension"]?["concurrency"]?.location ?? start,
                                    message: "`extension.concurrency: parallel` is not simulated with a client of protocol version 2: its state is written when it decides, so runs in parallel see each other's writes at once; use `serial`, or a client of version 1 (docs/client.md)")
            }
        }
        let sweep = try ScenarioDecoder.decodeSweep(root, base: root, context: context)
        return (scenario, sweep)
    }
}

extension ScenarioLoader {
    /// Gives `scenario` the client `choice` names, or the default one (the first client the
    /// program was given in Swift; none: the file's `queue.client`).
    static func choose(_ choice: ClientChoice?, for scenario: inout Scenario) throws {
        guard let choice else {
            scenario.queue.userClient = userClient
            return
        }
        if let builtIn = ClientVariant(rawValue: choice.name) {
            scenario.queue.userClient = nil
            scenario.queue.client = builtIn
            return
        }
        let known = namedClients.isEmpty ? userClient.map { [$0] } ?? [] : namedClients
        if let chosen = known.first(where: { $0.name == choice.name || $0.label == choice.name }) {
            scenario.queue.userClient = chosen
            return
        }
        let names = ClientVariant.allCases.map { "`\($0.rawValue)` (built-in)" } + known.map { "`\($0.name)`" }
        throw ScenarioError(location: choice.location,
                            message: "`client`: no client named `\(choice.name)` in this program; it knows \(names.joined(separator: ", "))"
                                + (known.isEmpty ? " (a team's own clients are given in Swift: docs/client.md)" : ""))
    }
}

/// The command-line setting `client=NAME`: which client decides, by its name.
package struct ClientChoice: Sendable {
    package let name: String
    /// The setting as written, to apply again.
    package let argument: String

    /// Where the name is written, for an error: `--set:1:8`.
    var location: SourceLocation {
        var place = ScenarioOverrides.argumentStart
        place.column += ScenarioLoader.clientSetting.count + 1
        return place
    }

    /// The last `client=NAME` of `overrides` (a later setting wins, as with every `--set`), and
    /// the other overrides in their order.
    package static func split(_ overrides: [String]) -> (choice: ClientChoice?, rest: [String]) {
        let prefix = ScenarioLoader.clientSetting + "="
        var choice: ClientChoice?
        var rest: [String] = []
        for argument in overrides {
            if argument.hasPrefix(prefix) {
                choice = ClientChoice(name: String(argument.dropFirst(prefix.count)).trimmingCharacters(in: .whitespaces), argument: argument)
            } else {
                rest.append(argument)
            }
        }
        return (choice, rest)
    }
}

/// One parsed scenario file kept for the next load of the same file.
private final class LastDocument: @unchecked Sendable {
    private let lock = NSLock()
    private var identity: String?
    private var document: YAMLNode??

    func root(_ identity: String) -> YAMLNode?? {
        lock.lock(); defer { lock.unlock() }
        return self.identity == identity ? document : nil
    }

    func keep(_ root: YAMLNode?, as identity: String) {
        lock.lock(); defer { lock.unlock() }
        self.identity = identity
        document = .some(root)
    }
}
