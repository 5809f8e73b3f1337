// The node tree the YAML-subset reader produces: scalars, mappings and sequences, each with its place in the source.

/// A place in a scenario file (or in a `--set` argument), 1-based, counted in Unicode scalars.
package struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    package var file: String
    package var line: Int
    package var column: Int

    package init(file: String, line: Int, column: Int) {
        self.file = file; self.line = line; self.column = column
    }

    /// `file:line:column`, the form editors and terminals turn into a link.
    package var description: String { "\(file):\(line):\(column)" }
}

/// One node of a parsed document.
///
/// The reader keeps the scalar's quoting style because it carries meaning: `"2024"` is a
/// string, `2024` may be a number. An absent value (`key:` with nothing after it) is an empty
/// plain scalar; see ``isEmpty``.
package struct YAMLNode: Sendable {
    /// How a scalar was written.
    package enum ScalarStyle: Sendable, Hashable {
        case plain, singleQuoted, doubleQuoted
    }

    /// One `key: value` pair of a mapping, in file order.
    package struct Entry: Sendable {
        package var key: String
        package var keyLocation: SourceLocation
        package var value: YAMLNode

        package init(key: String, keyLocation: SourceLocation, value: YAMLNode) {
            self.key = key; self.keyLocation = keyLocation; self.value = value
        }
    }

    package enum Kind: Sendable {
        case scalar(String, style: ScalarStyle)
        /// Entries in file order; keys are unique (the reader rejects duplicates).
        case mapping([Entry])
        case sequence([YAMLNode])
    }

    package var kind: Kind
    /// Where the node starts: the first character of a scalar (its quote if quoted), the
    /// `[`/`{` of a flow collection, the first key or `-` of a block collection.
    package var location: SourceLocation

    package init(_ kind: Kind, at location: SourceLocation) {
        self.kind = kind; self.location = location
    }

    /// An empty plain scalar: what `key:` with no value reads as.
    package static func empty(at location: SourceLocation) -> YAMLNode {
        YAMLNode(.scalar("", style: .plain), at: location)
    }

    /// True for an absent value (`key:` with nothing after it).
    package var isEmpty: Bool {
        if case .scalar(let text, .plain) = kind { return text.isEmpty }
        return false
    }

    /// The value of `key` if this is a mapping holding it.
    package subscript(key: String) -> YAMLNode? {
        guard case .mapping(let entries) = kind else { return nil }
        return entries.first { $0.key == key }?.value
    }

    /// A short phrase naming what this node is, for "expected …, found …" messages.
    var foundDescription: String {
        switch kind {
        case .scalar(let text, let style):
            switch style {
            case .plain: return text.isEmpty ? "nothing" : "`\(text)`"
            case .singleQuoted, .doubleQuoted: return "the quoted string \(YAMLNode.doubleQuoted(text))"
            }
        case .mapping(let entries): return entries.isEmpty ? "an empty mapping" : "a mapping"
        case .sequence(let items): return items.isEmpty ? "an empty list" : "a list"
        }
    }

    /// The node in the reader's one-line flow syntax, so that it can be read back as a
    /// `--set` value (a sweep keeps its values this way).
    package var flowText: String { flowText(topLevel: true) }

    private func flowText(topLevel: Bool) -> String {
        switch kind {
        case .scalar(let text, let style):
            // Inside a flow collection a plain scalar must not hold flow indicators; the reader
            // could not have produced such a plain scalar there, but a top-level one can hold commas.
            if style == .plain && (topLevel || YAMLNode.isSafeFlowPlain(text)) { return text }
            if style == .singleQuoted {
                return "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "''") + "'"
            }
            return YAMLNode.doubleQuoted(text)
        case .sequence(let items):
            return "[" + items.map { $0.flowText(topLevel: false) }.joined(separator: ", ") + "]"
        case .mapping(let entries):
            let parts = entries.map { entry -> String in
                let key = YAMLNode.isSafeFlowPlain(entry.key) ? entry.key : YAMLNode.doubleQuoted(entry.key)
                return key + ": " + entry.value.flowText(topLevel: false)
            }
            return "{" + parts.joined(separator: ", ") + "}"
        }
    }

    private static func isSafeFlowPlain(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first else { return false }
        if "-?:,[]{}#&*!|>'\"%@`".unicodeScalars.contains(first) || first == " " { return false }
        if text.hasSuffix(" ") || text.contains(": ") || text.contains(" #") || text.hasSuffix(":") { return false }
        var depth = 0
        for s in text.unicodeScalars {
            switch s {
            case "(": depth += 1
            case ")": depth -= 1
            case ",": if depth == 0 { return false }
            case "[", "]", "{", "}": return false
            default: break
            }
            if depth < 0 { return false }
        }
        return depth == 0
    }

    /// `text` as a double-quoted scalar, escaping what the reader would not read back literally.
    static func doubleQuoted(_ text: String) -> String {
        DoubleQuoted.text(text, upperCaseHex: true, escapingC1: true)
    }
}
