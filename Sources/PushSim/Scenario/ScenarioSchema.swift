// The keys a scenario file may hold, section by section: what unknown keys and `--set` paths are checked against.

/// The key layout of scenario-format.md §2.
enum ScenarioSchema {
    /// Top-level keys that hold a single value.
    static let topLevelValues = ["name", "description", "seed", "duration", "drain", "devices"]

    /// Sections and their keys, in the contract's order.
    static let sections: [(name: String, keys: [String])] = [
        ("mail", ["rate"]),
        ("connectivity", ["online", "offline", "windows"]),
        ("xiva", ["drop", "latency", "retention", "request_latency", "request_error", "resend_latency"]),
        ("apns", ["loss", "latency", "expiration"]),
        ("device", ["alerts_off", "clear_after"]),
        ("extension", ["deadline", "processing"]),
        ("queue", ["mode", "repeat_max_count", "collapse_id", "client"]),
    ]

    /// Every key allowed at the top of the file, `sweep` included.
    static let topLevelKeys = topLevelValues + sections.map(\.name) + ["sweep"]

    /// The keys of one offline window.
    static let windowKeys = ["start", "end", "every"]

    static func keys(ofSection name: String) -> [String]? {
        sections.first { $0.name == name }?.keys
    }

    /// Every path `--set` and `sweep` accept: top-level values, whole sections, section keys.
    static let settablePaths: [String] =
        topLevelValues + sections.flatMap { section in [section.name] + section.keys.map { section.name + "." + $0 } }

    /// The sections that hold `key`, for "it belongs under …" hints.
    static func sectionsHolding(_ key: String) -> [String] {
        sections.filter { $0.keys.contains(key) }.map(\.name)
    }

    /// Checks a dotted path; on failure, the index of the first bad segment and why.
    static func checkPath(_ segments: [String]) -> (segment: Int, message: String)? {
        let path = segments.joined(separator: ".")
        if let empty = segments.firstIndex(where: \.isEmpty) {
            return (empty, "expected a dotted key path such as `queue.repeat_max_count`, found \(path.isEmpty ? "nothing" : "`\(path)`")")
        }
        guard let first = segments.first else {
            return (0, "expected a dotted key path such as `queue.repeat_max_count`, found nothing")
        }
        if first == "sweep" { return (0, "`sweep` cannot be set this way: expected the path of a scenario key") }
        if topLevelValues.contains(first) {
            if segments.count == 1 { return nil }
            return (1, "`\(first)` holds a single value: it has no key `\(segments[1])`")
        }
        if let keys = keys(ofSection: first) {
            if segments.count == 1 { return nil }
            if !keys.contains(segments[1]) { return (1, unknownPathMessage(path)) }
            if segments.count == 2 { return nil }
            let what = path == "connectivity.windows" || segments[1] == "windows" ? "a list, which can only be replaced whole" : "a single value"
            return (2, "`\(first).\(segments[1])` holds \(what): it has no key `\(segments[2])`")
        }
        return (0, unknownPathMessage(path))
    }

    private static func unknownPathMessage(_ path: String) -> String {
        let suggestion = ValueParsers.nearest(to: path, among: settablePaths).map { "; did you mean `\($0)`?" } ?? ""
        return "unknown key path `\(path)`\(suggestion)"
    }
}
