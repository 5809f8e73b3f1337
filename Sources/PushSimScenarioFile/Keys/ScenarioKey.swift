// What one key of the scenario file is: declared once, read by the schema, the path checker, the printer and the docs' keys table.

/// Where a key may be written (docs/scenarios.md §2a, Populations).
package enum KeyScope: String, Sendable {
    /// At the top level only (`seed`, `mail.trace`).
    case topLevel = "top level"
    /// At the top level, and in a segment, which then replaces the top level's value.
    case topLevelAndSegment = "top level, segment"
    /// In a section every device shares (`xiva`, `apns`, …): at the top level only.
    case shared = "top level (shared)"
    /// In a segment only (its `name` and `share`).
    case segment = "segment"
}

/// A key's default as the docs give it.
package enum KeyDefault: Sendable, Equatable {
    /// No default: the file must give the key.
    case required
    /// A value the reader takes that means the same as leaving the key out (`0`, `1d`, `forever`).
    case written(String)
    /// Leaving the key out means something no value says (`none`, `always online`).
    case absent(String)

    /// As the keys table writes it.
    package var text: String {
        switch self {
        case .required: return "required"
        case .written(let value): return "`\(value)`"
        case .absent(let words): return words
        }
    }
}

/// What a key holds, for the path checker (`--set`, `--vary`, `sweep:`) and the unknown-key check.
package indirect enum KeyShape: Sendable {
    /// A single value.
    case value
    /// A list, replaced whole; `items` are the keys of each item when the items are mappings.
    case list(items: [KeyInfo])
    /// A mapping with these keys.
    case mapping([KeyInfo])
    /// `segments`: a list whose items are reached by their `name`.
    case namedList(items: [KeyInfo])
    /// `sweep`: written at the top level, but not a scenario key (it cannot be set).
    case sweepAxes
}

/// One key's declaration, the same for every use of it.
package struct KeyInfo: Sendable {
    package let name: String
    /// The value type as docs/scenarios.md §1 names it (`probability`, `distribution`, …).
    package let type: String
    package let defaultValue: KeyDefault
    /// nil: the scope of the section that holds it.
    package let scope: KeyScope?
    package let help: String
    /// A value other than the default that the reader takes, for the test that every declared
    /// key is decoded (nil where a value needs a file beside it, such as `mail.trace`).
    package let example: String?
    package let shape: KeyShape

    package init(_ name: String, _ type: String, default defaultValue: KeyDefault, scope: KeyScope? = nil,
                 example: String?, shape: KeyShape = .value, help: String) {
        self.name = name; self.type = type; self.defaultValue = defaultValue; self.scope = scope
        self.help = help; self.example = example; self.shape = shape
    }

    /// The keys of a mapping, or of a list's items; empty for a single value.
    package var children: [KeyInfo] {
        switch shape {
        case .value, .sweepAxes: return []
        case .list(let items), .namedList(let items): return items
        case .mapping(let keys): return keys
        }
    }
}

/// A key of a part of the resolved scenario (`Owner`: a section such as ``Scenario/Apns``), with
/// how `validate --print` writes it.
package struct ScenarioKey<Owner>: Sendable {
    package let info: KeyInfo
    /// The key's value in the file syntax, or nil when the printer leaves it out (a version-2 key
    /// at its default, so that a version-1 scenario prints exactly the keys version 1 knows).
    let printed: @Sendable (Owner) -> ScenarioPrinter.Node?

    init(_ name: String, _ type: String, default defaultValue: KeyDefault, scope: KeyScope? = nil,
         example: String?, shape: KeyShape = .value, help: String,
         print printed: @escaping @Sendable (Owner) -> ScenarioPrinter.Node?) {
        info = KeyInfo(name, type, default: defaultValue, scope: scope, example: example, shape: shape, help: help)
        self.printed = printed
    }
}

/// The keys of one mapping (a section, `mail.bursts`, one window), in the order they are
/// printed, documented and suggested.
package struct KeyTable<Owner>: Sendable {
    package let keys: [ScenarioKey<Owner>]

    init(_ keys: [ScenarioKey<Owner>]) { self.keys = keys }

    package var infos: [KeyInfo] { keys.map(\.info) }

    /// `owner` as printed entries, in the table's order.
    func entries(_ owner: Owner) -> [ScenarioPrinter.Entry] {
        keys.compactMap { key in key.printed(owner).map { ScenarioPrinter.Entry(key.info.name, $0) } }
    }

    /// `owner` as a printed mapping.
    func mapping(_ owner: Owner) -> ScenarioPrinter.Node { .mapping(entries(owner)) }
}

extension ScenarioKey {
    /// A key declared elsewhere, printed from another owner (a segment's `mail` is the top level's `mail`).
    init(_ info: KeyInfo, print printed: @escaping @Sendable (Owner) -> ScenarioPrinter.Node?) {
        self.info = info
        self.printed = printed
    }
}
