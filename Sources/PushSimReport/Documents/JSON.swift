// A minimal JSON value and writer: sorted keys, integers as integers, doubles in shortest form.
import PushSimScenarioFile

/// A JSON document. Objects keep no order of their own: they are always written with sorted
/// keys, so output never depends on how a dictionary happens to iterate.
package indirect enum JSONValue: Equatable, Sendable {
    case object([String: JSONValue])
    case array([JSONValue])
    case string(String)
    case int(Int)
    case uint(UInt64)
    case double(Double)
    case bool(Bool)
    case null

    /// Compact JSON text.
    package var text: String {
        var out = ""
        write(to: &out, indent: nil, depth: 0)
        return out
    }

    /// JSON text with two-space indentation.
    package var prettyText: String {
        var out = ""
        write(to: &out, indent: "  ", depth: 0)
        return out
    }

    func write(to out: inout String, indent: String?, depth: Int) {
        let newline = indent == nil ? "" : "\n"
        func pad(_ level: Int) -> String { indent.map { String(repeating: $0, count: level) } ?? "" }
        switch self {
        case .object(let members):
            if members.isEmpty { out += "{}"; return }
            out += "{" + newline
            for (n, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                out += pad(depth + 1) + JSONValue.quote(member.key) + (indent == nil ? ":" : ": ")
                member.value.write(to: &out, indent: indent, depth: depth + 1)
                out += (n + 1 < members.count ? "," : "") + newline
            }
            out += pad(depth) + "}"
        case .array(let items):
            if items.isEmpty { out += "[]"; return }
            out += "[" + newline
            for (n, item) in items.enumerated() {
                out += pad(depth + 1)
                item.write(to: &out, indent: indent, depth: depth + 1)
                out += (n + 1 < items.count ? "," : "") + newline
            }
            out += pad(depth) + "]"
        case .string(let s): out += JSONValue.quote(s)
        case .int(let i): out += String(i)
        case .uint(let u): out += String(u)
        case .double(let d): out += JSONValue.format(d)
        case .bool(let b): out += b ? "true" : "false"
        case .null: out += "null"
        }
    }

    /// Shortest round-trip form (Swift's `description` of a Double); non-finite as null.
    package static func format(_ d: Double) -> String {
        guard d.isFinite else { return "null" }
        if d == 0 { return "0.0" }  // also folds -0.0
        return d.description
    }

    static func quote(_ s: String) -> String {
        DoubleQuoted.text(s, upperCaseHex: false, escapingC1: false)
    }
}
