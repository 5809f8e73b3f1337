// The scenario keys two partial results resolved differently, so `merge` can name what differs rather than two fingerprints.
import PushSimCore

enum ScenarioDifference {
    /// The dotted keys (`xiva.capacity`, `devices`) whose values differ between two resolved
    /// scenarios (`resolved_scenario` of a part), a key present in one only included, in sorted
    /// order. A list (`connectivity.windows`) is compared as a whole and named once.
    static func keys(_ a: JSONValue, _ b: JSONValue) -> [String] {
        var left: [String: String] = [:], right: [String: String] = [:]
        flatten(a, prefix: "", into: &left)
        flatten(b, prefix: "", into: &right)
        return Set(left.keys).union(right.keys).filter { left[$0] != right[$0] }.sorted()
    }

    /// The value of `key` in a flattened scenario as the part states it (JSON text), or `absent`.
    static func value(_ scenario: JSONValue, _ key: String) -> String {
        var flat: [String: String] = [:]
        flatten(scenario, prefix: "", into: &flat)
        return flat[key] ?? "absent"
    }

    /// "`xiva.capacity` (30/s in part-0.json, 15/s in part-1.json), `devices` (…)": at most
    /// `limit` keys, then how many more.
    static func describe(_ a: JSONValue, _ b: JSONValue, sourceA: String, sourceB: String, limit: Int = 8) -> String? {
        let differing = keys(a, b)
        guard !differing.isEmpty else { return nil }
        var items = differing.prefix(limit).map { key in
            "`\(key)` (\(value(a, key)) in \(sourceA), \(value(b, key)) in \(sourceB))"
        }
        if differing.count > limit { items.append("and \(differing.count - limit) more") }
        return items.joined(separator: ", ")
    }

    private static func flatten(_ value: JSONValue, prefix: String, into out: inout [String: String]) {
        if case .object(let members) = value {
            for (key, member) in members { flatten(member, prefix: prefix.isEmpty ? key : prefix + "." + key, into: &out) }
            if members.isEmpty && !prefix.isEmpty { out[prefix] = "{}" }
            return
        }
        if case .string(let s) = value { out[prefix] = s; return }
        out[prefix] = value.text
    }
}
