// The keys a scenario file may hold, section by section: what unknown keys and `--set` paths are checked against.

/// The key layout of docs/scenarios.md §2 and §2a.
package enum ScenarioSchema {
    /// Top-level keys that hold a single value.
    static let topLevelValues = ["name", "description", "seed", "duration", "drain", "devices", "warmup", "recovery", "channel"]

    /// Sections and their keys, in the contract's order.
    static let sections: [(name: String, keys: [String])] = [
        ("mail", ["rate", "daily_profile", "bursts", "trace", "payload_size"]),
        ("connectivity", ["online", "offline", "windows"]),
        ("xiva", ["drop", "latency", "retention", "request_latency", "request_error", "resend_latency",
                  "outages", "outage_mode", "capacity", "queue_timeout", "partitions", "retry", "resend_buffer"]),
        ("apns", ["loss", "latency", "expiration", "keep_older", "keep_window", "duplicate",
                  "token_limit", "token_window", "server_error", "answer_loss", "priority",
                  "interface", "malformed", "error_delay", "connection_rate", "feedback_delay"]),
        ("device", ["alerts_off", "clear_after", "app_open", "id_change", "uninstall", "sleep", "doze", "reinstall", "reinstall_delay"]),
        ("extension", ["deadline", "processing", "early_kill", "concurrency", "save_delay", "media"]),
        ("queue", ["mode", "repeat_max_count", "collapse_id", "client"]),
        ("pushkit", ["report_failure", "cut_off_after"]),
        ("fcm", ["ttl", "collapse_keys", "priority"]),
    ]

    /// Every key allowed at the top of the file, `segments` and `sweep` included.
    static let topLevelKeys = topLevelValues + sections.map(\.name) + ["segments", "sweep"]

    /// The keys of one offline window.
    static let windowKeys = ["start", "end", "length", "every", "spread"]

    /// The keys of one XIVA outage (docs/scenarios.md §2a, XIVA as a shared server): no `spread`.
    static let outageKeys = ["start", "end", "length", "every"]

    /// The keys of `extension.media`.
    static let mediaKeys = ["share", "size", "bandwidth", "cache_hit"]

    /// The keys of `mail.bursts`.
    static let burstKeys = ["rate", "size", "spread"]

    /// The keys of `xiva.retry`.
    static let retryKeys = ["attempts", "backoff"]

    /// The keys of `device.sleep`.
    static let sleepKeys = ["awake", "asleep"]

    /// The keys of one segment (docs/scenarios.md §2a, Populations).
    static let segmentKeys = ["name", "share", "channel", "mail", "connectivity", "device", "extension"]

    /// Sections every device shares: a segment cannot give them.
    static let sharedSections = ["xiva", "apns", "queue", "pushkit", "fcm"]

    static func keys(ofSection name: String) -> [String]? {
        sections.first { $0.name == name }?.keys
    }

    /// The keys a segment's section may give: its top-level keys but the top-level-only ones.
    static func keys(ofSegmentSection name: String) -> [String]? {
        guard segmentKeys.contains(name) else { return nil }
        return keys(ofSection: name)?.filter { $0 != "trace" }
    }

    /// The shape of what a key path reaches, for the one path checker `--set`, `--vary` and
    /// `sweep:` share.
    indirect enum Shape: Sendable {
        case value
        /// A list: replaced whole.
        case list
        case mapping([(key: String, shape: Shape)])
        /// `segments`: a list whose items are reached by their `name`.
        case namedList(item: Shape)
    }

    private static func shape(ofKey key: String, in section: String) -> Shape {
        switch (section, key) {
        case ("mail", "daily_profile"), ("connectivity", "windows"), ("xiva", "outages"), ("device", "doze"): return .list
        case ("mail", "bursts"): return .mapping(burstKeys.map { ($0, .value) })
        case ("xiva", "retry"): return .mapping(retryKeys.map { ($0, .value) })
        case ("device", "sleep"): return .mapping(sleepKeys.map { ($0, .value) })
        case ("extension", "media"): return .mapping(mediaKeys.map { ($0, .value) })
        default: return .value
        }
    }

    /// What a segment holds: its share and its own sections.
    static let segmentShape: Shape = .mapping([("share", .value), ("channel", .value)] + segmentKeys.compactMap { name in
        keys(ofSegmentSection: name).map { keys in (name, Shape.mapping(keys.map { ($0, shape(ofKey: $0, in: name)) })) }
    })

    /// The whole file's settable layout (`sweep` is not a scenario key).
    static let fileShape: Shape = .mapping(
        topLevelValues.map { ($0, Shape.value) }
            + sections.map { section in (section.name, Shape.mapping(section.keys.map { ($0, shape(ofKey: $0, in: section.name)) })) }
            + [("segments", .namedList(item: segmentShape))])

    /// Every path `--set` and `sweep` accept at the top level: values, whole sections, section
    /// keys and their own keys (`mail.bursts.rate`), the whole `segments` list.
    static let settablePaths: [String] = paths(in: fileShape, prefix: "")

    /// The paths inside one segment, `segments.NAME.` left out.
    static let segmentSettablePaths: [String] = paths(in: segmentShape, prefix: "")

    private static func paths(in shape: Shape, prefix: String) -> [String] {
        guard case .mapping(let entries) = shape else { return [] }
        return entries.flatMap { entry -> [String] in
            let path = prefix.isEmpty ? entry.key : prefix + "." + entry.key
            return [path] + paths(in: entry.shape, prefix: path)
        }
    }

    /// The sections that hold `key`, for "it belongs under …" hints.
    static func sectionsHolding(_ key: String) -> [String] {
        sections.filter { $0.keys.contains(key) }.map(\.name)
    }

    /// Checks a dotted path; on failure, the index of the first bad segment and why. A segment's
    /// NAME is not checked here (the document knows the names: ``ScenarioOverrides`` does).
    package static func checkPath(_ segments: [String]) -> (segment: Int, message: String)? {
        let path = segments.joined(separator: ".")
        if let empty = segments.firstIndex(where: \.isEmpty) {
            return (empty, "expected a dotted key path such as `queue.repeat_max_count`, found \(path.isEmpty ? "nothing" : "`\(path)`")")
        }
        guard let first = segments.first else {
            return (0, "expected a dotted key path such as `queue.repeat_max_count`, found nothing")
        }
        if first == "sweep" { return (0, "`sweep` cannot be set this way: expected the path of a scenario key") }
        return walk(segments, from: 0, in: fileShape, suggestions: settablePaths, suggestionPrefix: "")
    }

    private static func walk(_ segments: [String], from i: Int, in shape: Shape,
                             suggestions: [String], suggestionPrefix: String) -> (segment: Int, message: String)? {
        guard i < segments.count else { return nil }
        let here = segments[..<i].joined(separator: ".")
        switch shape {
        case .value:
            return (i, "`\(here)` holds a single value: it has no key `\(segments[i])`")
        case .list:
            return (i, "`\(here)` holds a list, which can only be replaced whole: it has no key `\(segments[i])`")
        case .mapping(let entries):
            guard let entry = entries.first(where: { $0.key == segments[i] }) else {
                return (i, unknownPathMessage(segments, suggestions: suggestions, prefix: suggestionPrefix))
            }
            return walk(segments, from: i + 1, in: entry.shape, suggestions: suggestions, suggestionPrefix: suggestionPrefix)
        case .namedList(let item):
            let name = segments[i]
            guard i + 1 < segments.count else {
                return (i, "`\(here).\(name)` is one segment: set its keys (`\(here).\(name).share`, `\(here).\(name).mail.rate`, …) or the whole `\(here)` list")
            }
            let key = segments[i + 1]
            if key == "name" {
                return (i + 1, "a segment's `name` cannot be set: it is how `\(here).\(name).…` finds the segment; set the whole `\(here)` list to rename one")
            }
            if sharedSections.contains(key) {
                return (i + 1, "`\(key)` is shared by every device and cannot be set in a segment: set `\(key)` at the top level")
            }
            if key == "mail" && i + 2 < segments.count && segments[i + 2] == "trace" {
                return (i + 2, "`mail.trace` is top-level only: set `mail.trace`")
            }
            return walk(segments, from: i + 1, in: item, suggestions: segmentSettablePaths, suggestionPrefix: here + "." + name)
        }
    }

    private static func unknownPathMessage(_ segments: [String], suggestions: [String], prefix: String) -> String {
        let path = segments.joined(separator: ".")
        let tail = prefix.isEmpty ? path : segments.dropFirst(prefix.split(separator: ".").count).joined(separator: ".")
        let suggestion = Suggestion.nearest(to: tail, among: suggestions)
            .map { "; did you mean `\(prefix.isEmpty ? $0 : prefix + "." + $0)`?" } ?? ""
        return "unknown key path `\(path)`\(suggestion)"
    }
}
