// The resolved scenario written back in the file syntax: every key, defaults included (`validate --print`, provenance).
import PushSimCore

/// A resolved scenario as a tree of keys and values in the file syntax, in the key tables'
/// order. The same tree is printed as a scenario file (`pushsim validate FILE --print`) and
/// stored in results (docs/scenarios.md, "What a run records"), so both say the same thing.
///
/// Version-1 keys are always present, defaults included. Version-2 keys (warm-up, daily
/// profile, bursts, trace, per-device windows, segments, APNs' keep_older/keep_window/
/// duplicate, XIVA's outages, outage_mode, capacity, queue_timeout, partitions) appear only
/// when they differ from their defaults, so that a version-1 scenario resolves to exactly the
/// keys version 1 knows.
package enum ScenarioPrinter {
    /// One value of the tree.
    package indirect enum Node: Equatable, Sendable {
        /// A value in the file syntax (`40/d`, `lognormal(150ms, 3s)`), never quoted.
        case scalar(String)
        /// Free text (a name, a description, a path): quoted in the file where the reader needs it.
        case text(String)
        case mapping([Entry])
        case list([Node])
    }

    package struct Entry: Equatable, Sendable {
        package var key: String
        package var value: Node
        package init(_ key: String, _ value: Node) { self.key = key; self.value = value }
    }

    /// The resolved scenario as a scenario file that reads back to the same ``Scenario``.
    package static func yaml(_ scenario: Scenario) -> String { yaml(entries(scenario)) }

    /// Entries (as ``entries(_:)`` gives them) as a scenario file.
    package static func yaml(_ entries: [Entry]) -> String {
        var out = ""
        for entry in entries { write(entry, indent: "", to: &out) }
        return out
    }

    /// A sweep file's `sweep:` section as written back (values are kept in the one-line file
    /// syntax, so each reads back as it was given); empty without axes.
    package static func sweepSection(_ axes: [SweepAxis]) -> String {
        guard !axes.isEmpty else { return "" }
        return "sweep:\n" + axes.map { "  \($0.path): [\($0.values.joined(separator: ", "))]\n" }.joined()
    }

    /// The resolved scenario's top-level keys, in the key tables' order (Keys/): each key
    /// declares how it is printed, and when it is left out.
    package static func entries(_ s: Scenario) -> [Entry] { TopLevelKeys.table.entries(s) }

    /// A distribution of sizes or bandwidths in its base unit (`B`, `bit/s`), which reads back exactly.
    static func quantity(_ d: Distribution, unit: String) -> String {
        switch d {
        case .constant(let t): return decimal(Double(t.microseconds)) + unit
        case .exponential(let mean): return "exponential(\(decimal(mean))\(unit))"
        case .uniform(let a, let b): return "uniform(\(decimal(a))\(unit), \(decimal(b))\(unit))"
        case .lognormal(let median, let p99): return "lognormal(\(decimal(median))\(unit), \(decimal(p99))\(unit))"
        }
    }

    // MARK: Values

    /// A string as the reader reads it back: plain when that is safe, double-quoted otherwise.
    static func string(_ text: String) -> String {
        let plainSafe = !text.isEmpty && text.unicodeScalars.allSatisfy { s in
            ("a"..."z").contains(s) || ("A"..."Z").contains(s) || ("0"..."9").contains(s) || s == "-" || s == "_" || s == "."
        } && !["true", "false"].contains(text) && text.first != "-" && text.first != "."
        return plainSafe ? text : YAMLNode.doubleQuoted(text)
    }

    /// A finite non-negative Double in plain decimal digits (the reader takes no exponent), the
    /// shortest that reads back to the same Double.
    package static func decimal(_ x: Double) -> String {
        let shortest = "\(x)"
        guard let e = shortest.firstIndex(where: { $0 == "e" || $0 == "E" }),
              let exponent = Int(shortest[shortest.index(after: e)...]) else {
            return shortest.hasSuffix(".0") ? String(shortest.dropLast(2)) : shortest
        }
        // d.ddd e±n → move the point n places.
        let mantissa = String(shortest[..<e].filter { $0 != "." })
        let pointAfter = 1 + exponent   // digits before the point
        if pointAfter <= 0 { return "0." + String(repeating: "0", count: -pointAfter) + mantissa }
        if pointAfter >= mantissa.count { return mantissa + String(repeating: "0", count: pointAfter - mantissa.count) }
        return String(mantissa.prefix(pointAfter)) + "." + String(mantissa.dropFirst(pointAfter))
    }

    /// A rate per microsecond as `COUNT/UNIT`, with the largest unit whose count reads back to
    /// exactly the same rate (`40/d`), or per microsecond, which always does.
    package static func rate(_ perMicrosecond: Double) -> String {
        let units = [("d", SimTime.day), ("h", SimTime.hour), ("m", SimTime.minute), ("s", SimTime.second)]
        // A whole count in the unit that makes it smallest: 20/s rather than 1728000/d, 60/d
        // rather than 2.5/h.
        for (unit, size) in units.reversed() {
            let count = (perMicrosecond * Double(size)).rounded()
            if count >= 1, count < 1e15, count / Double(size) == perMicrosecond { return decimal(count) + "/" + unit }
        }
        for (unit, size) in units {
            // The product carries rounding noise (60/d comes back as 60.00000000000001): the
            // count with the fewest decimals that still reads back exactly is the one written.
            let count = perMicrosecond * Double(size)
            var scale = 1.0
            for _ in 0...12 {
                let rounded = (count * scale).rounded() / scale
                if rounded > 0, rounded / Double(size) == perMicrosecond { return decimal(rounded) + "/" + unit }
                scale *= 10
            }
        }
        return decimal(perMicrosecond) + "/us"
    }

    // MARK: Writing

    private static func write(_ entry: Entry, indent: String, to out: inout String) {
        switch entry.value {
        case .scalar(let text):
            out += indent + entry.key + ": " + text + "\n"
        case .text(let text):
            out += indent + entry.key + ": " + string(text) + "\n"
        case .mapping(let entries):
            out += indent + entry.key + ":\n"
            for e in entries { write(e, indent: indent + "  ", to: &out) }
        case .list(let items):
            if items.isEmpty { out += indent + entry.key + ": []\n"; return }
            if items.allSatisfy({ if case .scalar = $0 { return true } else { return false } }) {
                let texts = items.map { if case .scalar(let t) = $0 { return t } else { return "" } }
                out += indent + entry.key + ": [" + texts.joined(separator: ", ") + "]\n"
                return
            }
            out += indent + entry.key + ":\n"
            for item in items {
                // Block style: a value with a comma (uniform(6h, 9h)) cannot stand in a flow mapping.
                guard case .mapping(let entries) = item else { continue }
                for (n, e) in entries.enumerated() {
                    var lines = ""
                    write(e, indent: indent + "    ", to: &lines)
                    if n == 0 { lines = indent + "  - " + lines.dropFirst(indent.count + 4) }
                    out += lines
                }
            }
        }
    }
}
