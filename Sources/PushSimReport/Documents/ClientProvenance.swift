// Which client made a result: the built-in one the scenario names, or a team's own, with its version.
import PushSimCore

/// The `client` object a result carries (summary.json, sweep.json, a baseline, a shard's part):
/// `{"name", "version", "protocol", "kind"}`, `kind` being `built-in` or `user`, `version` the
/// team's (null when it gave none). `check` compares it with the current client's.
package enum ClientProvenance {
    package static func json(_ scenario: Scenario) -> JSONValue {
        guard let user = scenario.queue.userClient else {
            return builtIn(scenario.queue.client.rawValue)
        }
        return .object(["name": .string(user.name), "version": user.version.map(JSONValue.string) ?? .null,
                        "protocol": .int(user.protocolVersion), "kind": .string("user")])
    }

    static func builtIn(_ name: String) -> JSONValue {
        .object(["name": .string(name), "version": .string(PushSimVersion.current), "protocol": .int(1), "kind": .string("built-in")])
    }

    /// The built-in client a resolved scenario object names (`queue.client`, `intended` when absent).
    static func builtIn(named scenario: JSONValue) -> JSONValue {
        if case .object(let top) = scenario, case .object(let queue)? = top["queue"], case .string(let name)? = queue["client"] {
            return builtIn(name)
        }
        return builtIn(ClientVariant.intended.rawValue)
    }

    /// "intended (built-in)", "MailTeamClient 1.3 (protocol 2)".
    package static func label(_ client: JSONValue) -> String {
        guard case .object(let members) = client, case .string(let name)? = members["name"] else { return "unknown" }
        if case .string("built-in")? = members["kind"] { return "\(name) (built-in)" }
        var label = name
        if case .string(let version)? = members["version"] { label += " \(version)" }
        if case .int(let version)? = members["protocol"] { label += " (protocol \(version))" }
        return label
    }

    /// "client A → B" when a baseline's client is not the current one. A built-in client's
    /// version is PushSim's, which `check` reports on its own line, so only its name counts.
    package static func change(from baseline: JSONValue?, to now: JSONValue) -> String? {
        guard let baseline else { return nil }
        func identity(_ client: JSONValue) -> JSONValue {
            guard case .object(var members) = client else { return client }
            if case .string("built-in")? = members["kind"] { members["version"] = nil }
            return .object(members)
        }
        guard identity(baseline) != identity(now) else { return nil }
        return "client \(label(baseline)) → \(label(now))"
    }
}
