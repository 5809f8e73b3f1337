// The keys table of docs/scenarios.md, written from the declarations (checked by ScenarioKeysDocumentedTests).

/// Every declared key as one row of a Markdown table: its path, type, default, where it may be
/// written and what it does. docs/scenarios.md holds this text between ``begin`` and ``end``.
package enum KeysTableDocument {
    package static let begin = "<!-- keys table: written from Sources/PushSimScenarioFile/Keys, checked by ScenarioKeysDocumentedTests -->"
    package static let end = "<!-- end of keys table -->"

    /// One key as the table shows it.
    package struct Row: Equatable, Sendable {
        package let path: String
        package let info: KeyInfo
        package let scope: KeyScope

        package var markdown: String {
            "| `\(path)` | " + [info.type, info.defaultValue.text, scope.rawValue, info.help].map(cell).joined(separator: " | ") + " |"
        }

        /// A bar inside a cell (`off | on | both`) would end it.
        private func cell(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|") }

        package static func == (a: Row, b: Row) -> Bool { a.markdown == b.markdown }
    }

    /// Every key, depth first in the tables' order: a mapping's keys and a list's items' keys
    /// (`connectivity.windows[].start`) follow it; a segment's own keys (`segments[].share`)
    /// follow `segments`, the others being the top level's.
    package static var rows: [Row] {
        rows(of: ScenarioSchema.topLevel, prefix: "", inherited: .topLevel)
    }

    private static func rows(of infos: [KeyInfo], prefix: String, inherited: KeyScope) -> [Row] {
        infos.flatMap { info -> [Row] in
            let path = prefix + info.name
            let scope = info.scope ?? inherited
            var out = [Row(path: path, info: info, scope: scope)]
            switch info.shape {
            case .value, .sweepAxes: break
            case .mapping(let keys): out += rows(of: keys, prefix: path + ".", inherited: scope)
            case .list(let items): out += rows(of: items, prefix: path + "[].", inherited: scope)
            case .namedList(let items):
                out += rows(of: items.filter { $0.scope == .segment }, prefix: path + "[].", inherited: .segment)
            }
            return out
        }
    }

    /// The table as docs/scenarios.md holds it, markers included.
    package static var markdown: String {
        ([begin, "", "| key | type | default | where | what |", "| --- | --- | --- | --- | --- |"]
            + rows.map(\.markdown) + ["", end]).joined(separator: "\n")
    }
}
