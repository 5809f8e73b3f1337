// Decoding a node tree into the typed Scenario: every key of the contract, its default, its checks.
import PushSimCore

/// Turns a document's node tree into a ``Scenario``, checking every rule of the scenario reference
/// (docs/scenarios.md §2 and §2a: version 1's keys and version 2's).
///
/// Errors point at the offending key or value and name the key by its dotted path, which is
/// also what `--set` takes.
enum ScenarioDecoder {
    typealias Parser<T> = (String) throws(ValueParsers.Failure) -> T

    // MARK: The scenario

    static func decode(_ root: YAMLNode, context: DecodingContext = DecodingContext()) throws -> Scenario {
        let top = try Fields(root, path: "", keys: ScenarioSchema.topLevelKeys)

        let name = try string(top.required("name", example: "name: commuters"), "name")
        try checkName(name, at: top.value("name")?.location)
        let duration = try value(top.required("duration", example: "duration: 7d"), "duration", "a duration", ValueParsers.duration)
        if duration == .zero, let node = top.value("duration") {
            throw ScenarioError(location: node.location, message: "`duration`: expected a duration greater than 0 (letters are generated in [0, duration)), found `0`")
        }
        let devices = try value(top.required("devices", example: "devices: 10000"), "devices", "an integer ≥ 1") { (t) throws(ValueParsers.Failure) in
            try ValueParsers.integer(t, in: 1...Int.max)
        }
        var scenario = Scenario(name: name, duration: duration, devices: devices)
        if let node = top.value("description") { scenario.description = try string(node, "description") }
        if let node = top.value("seed") { scenario.seed = try value(node, "seed", "an unsigned 64-bit integer", ValueParsers.unsigned64) }
        if let node = top.value("drain") { scenario.drain = try value(node, "drain", "a duration", ValueParsers.duration) }
        // The run ends at duration + drain, which must be a time the clock can hold.
        let (_, endOverflows) = duration.microseconds.addingReportingOverflow(scenario.drain.microseconds)
        if endOverflows || duration.microseconds + scenario.drain.microseconds == Int64.max {
            let node = top.value("drain") ?? top.value("duration")
            throw ScenarioError(location: node?.location ?? root.location,
                                message: "`\(top.value("drain") == nil ? "duration" : "drain")`: the run would end at duration + drain = \(duration) + \(scenario.drain), "
                                    + "past the last instant the clock can hold (about 292471 years); expected a shorter duration or drain")
        }
        if let node = top.value("warmup") {
            let warmup = try value(node, "warmup", "a duration", ValueParsers.duration)
            guard warmup < duration else {
                throw ScenarioError(location: node.location, message: "`warmup`: expected a duration shorter than `duration` (\(duration)), found \(node.foundDescription): letters of [0, warmup) are not counted, so none would be")
            }
            scenario.warmup = warmup
        }

        scenario.mail = try mail(top.section("mail"), base: scenario.mail, scenario: scenario, context: context)

        let connectivityFields = try top.section("connectivity")
        scenario.connectivity = try connectivity(connectivityFields, base: scenario.connectivity)
        // With segments, the online/offline rule applies to each segment's resolved pair.
        if case .sequence(let items)? = top.value("segments")?.kind, !items.isEmpty {} else { try checkPair(scenario.connectivity, in: [connectivityFields]) }
        try checkWindowRange(scenario.connectivity.windows, runEnd: scenario.end, connectivityFields)

        scenario.xiva = try xiva(top.section("xiva"), scenario: scenario)

        let apns = try top.section("apns")
        try apns.decode("loss", "a probability", ValueParsers.probability) { scenario.apns.loss = $0 }
        try apns.decode("latency", "a distribution", ValueParsers.distribution) { scenario.apns.latency = $0 }
        try apns.decode("expiration", "a duration or `forever`", ValueParsers.durationOrForever) { scenario.apns.expiration = $0 }
        try apns.decode("keep_older", "a probability", ValueParsers.probability) { scenario.apns.keepOlder = $0 }
        try apns.decode("keep_window", "a duration", ValueParsers.duration) { scenario.apns.keepWindow = $0 }
        try apns.decode("duplicate", "a probability", ValueParsers.probability) { scenario.apns.duplicate = $0 }
        try providerAnswers(apns, into: &scenario.apns)
        try apnsOutages(apns, into: &scenario)
        try apnsStore(apns, into: &scenario)
        try tokenRefresh(apns, into: &scenario)
        try binaryInterface(apns, into: &scenario.apns)

        scenario.device = try device(top.section("device"), base: scenario.device)
        scenario.extension = try `extension`(top.section("extension"), base: scenario.extension)

        let queue = try top.section("queue")
        try queue.decode("mode", "off, on or both", anyStyle: true, enumeration(QueueMode.self)) { scenario.queue.mode = $0 }
        try queue.decode("repeat_max_count", "an integer ≥ 0", { (t) throws(ValueParsers.Failure) in
            try ValueParsers.integer(t, in: 0...Int.max)
        }) { scenario.queue.repeatMaxCount = $0 }
        try queue.decode("collapse_id", "`true` or `false`", ValueParsers.boolean) { scenario.queue.collapseId = $0 }
        try queue.decode("client", "intended or literal", anyStyle: true, enumeration(ClientVariant.self)) { scenario.queue.client = $0 }
        try queue.decode("background_pushes", "`true` or `false`", ValueParsers.boolean) { scenario.queue.backgroundPushes = $0 }

        try channelKeys(top, into: &scenario)
        scenario.segments = try segments(top, scenario: scenario, topConnectivity: connectivityFields, context: context)
        try checkAPNsOutageSegments(top, scenario)
        try objective(top, into: &scenario)
        if let node = top.value("recovery") {
            scenario.recovery = try value(node, "recovery", "queue, catch_up, background_sync or none", anyStyle: true, enumeration(RecoveryDesign.self))
            // A catch-up happens when the user opens the app: without openings it would be `none` in disguise.
            if scenario.recovery == .catchUp && scenario.device.appOpen == nil && scenario.segments.allSatisfy({ $0.device.appOpen == nil }) {
                throw ScenarioError(location: node.location, message: "`recovery: catch_up` fetches what was missed when the user opens the app, but no device ever does: set `device.app_open` (the time between two openings, such as `exponential(4h)`)")
            }
            // Background pushes are APNs' (`content-available: 1`): PushKit and FCM have rules of their own.
            if scenario.recovery == .backgroundSync && (scenario.channel != .apns || scenario.segments.contains { $0.channel != .apns }) {
                throw ScenarioError(location: node.location, message: "`recovery: background_sync` sends APNs background pushes, but a device here uses another `channel`: expected `channel: apns` everywhere, or another design")
            }
        }
        try checkBackgroundPushes(top, scenario)
        try checkInterfaceCombinations(top, scenario)
        return scenario
    }

    /// `queue.background_pushes` belongs to the queue design, and background pushes are APNs'
    /// (`content-available: 1`): refused beside another design or another channel.
    static func checkBackgroundPushes(_ top: Fields, _ scenario: Scenario) throws {
        guard scenario.queue.backgroundPushes else { return }
        let node = try top.section("queue").value("background_pushes")
        if scenario.recovery != .queue {
            throw ScenarioError(location: node?.location, message: "`queue.background_pushes` sends background pushes for the queue design's app, but `recovery` is `\(scenario.recovery.rawValue)`: expected `recovery: queue`, or leave the key out (`recovery: background_sync` sends its own)")
        }
        if scenario.channel != .apns || scenario.segments.contains(where: { $0.channel != .apns }) {
            throw ScenarioError(location: node?.location, message: "`queue.background_pushes` sends APNs background pushes, but a device here uses another `channel`: expected `channel: apns` everywhere")
        }
    }

    /// The name names the results folder, so it must be a usable folder name.
    static func checkName(_ name: String, at location: SourceLocation?, path: String = "name") throws {
        if name.isEmpty || name == "." || name == ".." || name.contains("/") || name.contains("\\") {
            throw ScenarioError(location: location, message: "`\(path)`: expected a non-empty name without `/` or `\\` (it names the results folder), found \(YAMLNode.doubleQuoted(name))")
        }
        // A name is printed to terminals and names a folder: no control characters (an escape
        // sequence would drive the terminal), no invisible formatting (a right-to-left override
        // would make it read as something else), no line breaks.
        if let bad = name.unicodeScalars.first(where: { [.control, .format, .lineSeparator, .paragraphSeparator].contains($0.properties.generalCategory) }) {
            let hex = String(bad.value, radix: 16, uppercase: true)
            throw ScenarioError(location: location, message: "`name`: expected visible text without control or formatting characters (it names the results folder and is printed to terminals), found U+\(String(repeating: "0", count: max(0, 4 - hex.count)) + hex) in \(YAMLNode.doubleQuoted(name))")
        }
    }

    // MARK: The sweep

    /// Reads `sweep:` (PATH → list of values). Each value is applied to `base` and decoded, so a
    /// bad value is reported where it is written, before anything runs.
    static func decodeSweep(_ root: YAMLNode, base: YAMLNode, context: DecodingContext = DecodingContext()) throws -> [SweepAxis] {
        guard let node = root["sweep"], !node.isEmpty else { return [] }
        guard case .mapping(let entries) = node.kind else {
            throw ScenarioError(location: node.location, message: "`sweep`: expected a mapping of key paths to lists of values, such as `queue.repeat_max_count: [0, 5, 10]`, found \(node.foundDescription)")
        }
        var axes: [SweepAxis] = []
        for entry in entries {
            let segments = entry.key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            if let (_, message) = ScenarioSchema.checkPath(segments) {
                throw ScenarioError(location: entry.keyLocation, message: "`sweep`: \(message)")
            }
            guard case .sequence(let values) = entry.value.kind, !values.isEmpty else {
                throw ScenarioError(location: entry.value.location, message: "`sweep.\(entry.key)`: expected a non-empty list of values such as `[1, 2]`, found \(entry.value.foundDescription)")
            }
            if entry.key == "seed" {
                throw ScenarioError(location: entry.keyLocation, message: "`sweep.seed`: a sweep cannot vary `seed`: replications already run with derived seeds (use `pushsim sweep --replications N`)")
            }
            for value in values {
                var candidate = base
                try ScenarioOverrides.apply(value, at: segments, to: &candidate, pathStart: entry.keyLocation)
                _ = try decode(candidate, context: context)
            }
            axes.append(SweepAxis(path: entry.key, values: values.map(\.flowText)))
        }
        return axes
    }

    // MARK: Typed values

    /// A value of an enumeration such as `QueueMode`, by its raw value.
    private static func enumeration<E: RawRepresentable & CaseIterable>(_ type: E.Type) -> Parser<E> where E.RawValue == String {
        { (text: String) throws(ValueParsers.Failure) -> E in
            if let value = E(rawValue: text) { return value }
            let names = E.allCases.map(\.rawValue)
            throw ValueParsers.Failure("expected one of \(names.joined(separator: ", ")), found `\(text)`")
        }
    }

    /// Parses a scalar with `parser`, turning its failure into an error at the node.
    /// Unless `anyStyle`, the scalar must be plain: a quoted `"5"` is a string, not a number.
    static func value<T>(_ node: YAMLNode, _ path: String, _ expected: String, anyStyle: Bool = false, _ parser: Parser<T>) throws -> T {
        let text: String
        switch node.kind {
        case .scalar(let t, let style):
            if style != .plain && !anyStyle {
                throw ScenarioError(location: node.location, message: "`\(path)`: expected \(expected), found \(node.foundDescription) (quotes make a string; remove them)")
            }
            if t.isEmpty && style == .plain {
                throw ScenarioError(location: node.location, message: "`\(path)`: expected \(expected), found nothing")
            }
            text = t
        case .mapping, .sequence:
            throw ScenarioError(location: node.location, message: "`\(path)`: expected \(expected), found \(node.foundDescription)")
        }
        do { return try parser(text) } catch {
            throw ScenarioError(location: node.location, message: "`\(path)`: \(error.message)")
        }
    }

    /// A string: any scalar, in any quoting style.
    static func string(_ node: YAMLNode, _ path: String) throws -> String {
        guard case .scalar(let text, _) = node.kind else {
            throw ScenarioError(location: node.location, message: "`\(path)`: expected a string, found \(node.foundDescription)")
        }
        return text
    }
}

/// The entries of one mapping of the schema, checked for unknown keys.
struct Fields {
    let path: String
    let node: YAMLNode
    let entries: [YAMLNode.Entry]

    /// An absent or empty node reads as an empty mapping (`connectivity:` alone means defaults).
    init(_ node: YAMLNode, path: String, keys: [String]) throws {
        self.path = path
        self.node = node
        if node.isEmpty { entries = []; return }
        guard case .mapping(let entries) = node.kind else {
            let place = path.isEmpty ? "the top level" : "`\(path)`"
            throw ScenarioError(location: node.location, message: "\(place): expected a mapping with keys such as \(keys.prefix(3).map { "`\($0)`" }.joined(separator: ", ")), found \(node.foundDescription)")
        }
        self.entries = entries
        for entry in entries where !keys.contains(entry.key) {
            let place = path.isEmpty ? "at the top level" : "in `\(path)`"
            var message = "unknown key `\(entry.key)` \(place)"
            let holders = path.isEmpty ? ScenarioSchema.sectionsHolding(entry.key) : []
            if !holders.isEmpty {
                message += "; it belongs under \(holders.map { "`\($0)`" }.joined(separator: " or "))"
            } else if let nearest = Suggestion.nearest(to: entry.key, among: keys) {
                message += "; did you mean `\(nearest)`?"
            }
            throw ScenarioError(location: entry.keyLocation, message: message)
        }
    }

    /// The same entries under another path (a segment's sections are named `segments.NAME.…`).
    init(renaming other: Fields, to path: String) {
        self.path = path; self.node = other.node; self.entries = other.entries
    }

    func value(_ key: String) -> YAMLNode? { entries.first { $0.key == key }?.value }

    func keyLocation(_ key: String) -> SourceLocation? { entries.first { $0.key == key }?.keyLocation }

    func fullPath(_ key: String) -> String { path.isEmpty ? key : path + "." + key }

    func required(_ key: String, example: String) throws -> YAMLNode {
        if let node = value(key) { return node }
        let place = path.isEmpty ? "" : " in `\(path)`"
        throw ScenarioError(location: node.location, message: "missing required key `\(key)`\(place) (such as `\(example)`)")
    }

    /// A section by name, empty when absent.
    func section(_ name: String, keys: [String]? = nil) throws -> Fields {
        let keys = keys ?? ScenarioSchema.keys(ofSection: name) ?? []
        return try Fields(value(name) ?? .empty(at: node.location), path: fullPath(name), keys: keys)
    }

    /// Decodes `key` if present and hands the value to `store`.
    func decode<T>(_ key: String, _ expected: String, anyStyle: Bool = false,
                   _ parser: ScenarioDecoder.Parser<T>, store: (T) -> Void) throws {
        guard let node = value(key) else { return }
        store(try ScenarioDecoder.value(node, fullPath(key), expected, anyStyle: anyStyle, parser))
    }
}
