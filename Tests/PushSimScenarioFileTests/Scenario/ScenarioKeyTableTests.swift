// The key tables (Sources/PushSimScenarioFile/Keys) against the reader: every declared key is decoded, its default is its default, its scope is enforced, an undeclared key is refused with a suggestion.
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
import PushSimTestSupport

@Suite struct ScenarioKeyTableTests {
    /// A declared key with its dotted path and where it may be written.
    struct Declared: CustomStringConvertible {
        let path: String
        let info: KeyInfo
        let scope: KeyScope
        /// The mapping key above it, when that mapping has required keys (`mail.bursts`): set first.
        let parent: (path: String, example: String)?
        var description: String { path }
    }

    /// Every key a `--set` path reaches: top-level values, sections' keys, their mappings' keys.
    static let settable: [Declared] = {
        func walk(_ infos: [KeyInfo], prefix: String, inherited: KeyScope, parent: (String, String)?) -> [Declared] {
            infos.flatMap { info -> [Declared] in
                let path = prefix + info.name
                let scope = info.scope ?? inherited
                var out = [Declared(path: path, info: info, scope: scope, parent: parent)]
                if case .mapping(let keys) = info.shape {
                    // A section (its keys optional) needs nothing first; a key's mapping with required keys does.
                    let needs = keys.contains { $0.defaultValue == .required } ? info.example.map { (path, $0) } : nil
                    out += walk(keys, prefix: path + ".", inherited: scope, parent: needs ?? parent)
                }
                return out
            }
        }
        return walk(ScenarioSchema.topLevel, prefix: "", inherited: .topLevel, parent: nil)
            .filter { if case .sweepAxes = $0.info.shape { return false } else { return true } }
    }()

    /// Keys that mean something only with another (hand-written rules across keys): what the
    /// example of each is set with.
    static let companions: [String: [String]] = [
        "connectivity.online": ["connectivity.offline=exponential(40m)"],
        "connectivity.offline": ["connectivity.online=exponential(3h)"],
        "apns.token_window": ["apns.token_limit=20"],
        "device.reinstall_delay": ["device.reinstall=1/60d"],
        "recovery": [],
        // An APNs outage's `segment` names one of the scenario's segments.
        "apns.outages": ["segments=[{name: commuters, share: 100%}]"],
    ]

    static let base = "name: keys\nduration: 3d\ndevices: 30\n"
    static let withSegment = base + "segments:\n  - {name: s, share: 100%}\n"

    static func printed(_ text: String, _ overrides: [String]) throws -> String {
        ScenarioPrinter.yaml(try ScenarioLoader.parse(text: text, file: "keys.yaml", overrides: overrides))
    }

    static func setup(_ key: Declared, prefix: String = "") -> [String] {
        (key.parent.map { ["\(prefix)\($0.path)=\($0.example)"] } ?? []) + (companions[key.path] ?? [])
    }

    /// The scenario printed with `key`'s setup, or with its parent only where the companions are
    /// not valid alone (one of a pair).
    static func printedBefore(_ text: String, _ key: Declared, prefix: String = "") throws -> String {
        if let whole = try? printed(text, setup(key, prefix: prefix)) { return whole }
        return try printed(text, key.parent.map { ["\(prefix)\($0.path)=\($0.example)"] } ?? [])
    }

    @Test func theTablesDeclareEveryKeyOnce() {
        #expect(Self.settable.count > 80)
        let paths = Self.settable.map(\.path)
        expectEqual(Set(paths).count, paths.count, "declared twice: \(paths.filter { p in paths.filter { $0 == p }.count > 1 })")
        // Every key but a segment's name has an example, or says why not (a file it needs beside it).
        let withoutExample = Self.settable.filter { $0.info.example == nil }.map(\.path)
        expectEqual(withoutExample, ["mail", "mail.trace", "connectivity", "xiva", "apns", "device", "extension", "queue", "pushkit", "fcm", "objective"])
    }

    /// Setting each key's example, the way `--set` does, changes the resolved scenario.
    @Test(arguments: settable.filter { $0.info.example != nil })
    func everyDeclaredKeyIsDecoded(_ key: Declared) throws {
        let setup = Self.setup(key)
        let before = try Self.printedBefore(Self.base, key)
        let after = try Self.printed(Self.base, setup + ["\(key.path)=\(key.info.example ?? "")"])
        #expect(before != after, "setting \(key.path) to its example changed nothing printed")
    }

    /// A key the segments may give is decoded in a segment too; one they may not is refused.
    @Test(arguments: settable.filter { $0.info.example != nil && !$0.path.hasPrefix("segments") })
    func everyKeyIsAllowedWhereItsScopeSays(_ key: Declared) throws {
        let path = "segments.s." + key.path
        let setting = "\(path)=\(key.info.example ?? "")"
        switch key.scope {
        case .topLevelAndSegment:
            // A companion at the top level: the segment's pair resolves over it.
            let setup = Self.setup(key, prefix: "segments.s.")
            let before = try Self.printedBefore(Self.withSegment, key, prefix: "segments.s.")
            let after = try Self.printed(Self.withSegment, setup + [setting])
            #expect(before != after, "setting \(path) changed nothing printed")
        case .topLevel, .shared, .segment:
            #expect(scenarioError(Self.withSegment, overrides: [setting]) != nil, "\(path) was accepted")
        }
    }

    /// Writing a key's default changes nothing: the default is the one declared.
    @Test(arguments: settable.filter { if case .written = $0.info.defaultValue { return true } else { return false } })
    func everyWrittenDefaultIsTheDefault(_ key: Declared) throws {
        guard case .written(let value) = key.info.defaultValue else { return }
        let setup = Self.setup(key)
        #expect(try Self.printed(Self.base, setup) == Self.printed(Self.base, setup + ["\(key.path)=\(value)"]))
    }

    /// A list's items are reached only by setting the list whole: each item key's example is an
    /// item that uses it, which the reader takes and the printer shows.
    @Test func everyListItemKeyIsDecoded() throws {
        var checked = 0
        for key in Self.settable {
            guard case .list(let items) = key.info.shape else { continue }
            for item in items {
                let example = try #require(item.example, "\(key.path)[].\(item.name) has no example")
                // A list inside a mapping with required keys (`device.low_power.windows`) needs the mapping first.
                let text = try Self.printed(Self.base, Self.setup(key) + ["\(key.path)=[\(example)]"])
                // An outage's `length` is stored as its end.
                if !((key.path == "xiva.outages" || key.path == "apns.outages") && item.name == "length") {
                    #expect(text.contains(" \(item.name): "), "\(key.path)[].\(item.name): not printed")
                }
                checked += 1
            }
        }
        expectEqual(checked, 25)
    }

    /// A key with its last letter mistyped is refused, in the file and by `--set`, with the declared key suggested.
    @Test(arguments: settable)
    func anUndeclaredKeyIsRefusedWithASuggestion(_ key: Declared) throws {
        let parts = key.path.split(separator: ".").map(String.init)
        let last = parts[parts.count - 1]
        // A name ending in a digit has siblings that differ only there (`latency_p90`,
        // `latency_p99`): a typo in that digit is ambiguous, so one letter too many is typed instead.
        let typo = last.last?.isNumber == true ? last + "q" : last.dropLast() + (last.hasSuffix("q") ? "z" : "q")
        let wrong = parts.dropLast() + [typo]
        // In the file, as nested flow mappings.
        let inner = wrong.reversed().reduce("1") { value, part in value == "1" ? "\(part): 1" : "\(part): {\(value)}" }
        let fileError = try #require(scenarioError(Self.base + inner + "\n"))
        let place = parts.count == 1 ? "at the top level" : "in `\(parts.dropLast().joined(separator: "."))`"
        #expect(fileError.message == "unknown key `\(wrong.last ?? "")` \(place); did you mean `\(parts.last ?? "")`?")
        // By --set.
        let setError = try #require(scenarioError(Self.base, overrides: [wrong.joined(separator: ".") + "=1"]))
        #expect(setError.message == "unknown key path `\(wrong.joined(separator: "."))`; did you mean `\(key.path)`?")
    }

    /// Unknown keys in a list's items and a segment are refused the same way.
    @Test func undeclaredItemAndSegmentKeysAreRefused() throws {
        let window = try #require(scenarioError(Self.base + "connectivity: {windows: [{start: 8h, endx: 9h}]}\n"))
        expectEqual(window.message, "unknown key `endx` in `connectivity.windows[0]`; did you mean `end`?")
        let segment = try #require(scenarioError(Self.base + "segments: [{name: s, sharex: 100%}]\n"))
        expectEqual(segment.message, "unknown key `sharex` in `segments[0]`; did you mean `share`?")
        let inSegment = try #require(scenarioError(Self.withSegment, overrides: ["segments.s.device.dozex=[]"]))
        expectEqual(inSegment.message, "unknown key path `segments.s.device.dozex`; did you mean `segments.s.device.doze`?")
    }
}
