// docs/scenarios.md against the key tables (Sources/PushSimScenarioFile/Keys): its keys table is the declarations', every key documented, no documented key the reader refuses.
import Foundation
import Testing
@testable import PushSimScenarioFile
import PushSimTestSupport

@Suite struct ScenarioKeysDocumentedTests {
    static let text = (try? String(contentsOfFile: FuzzCorpus.repositoryRoot + "/docs/scenarios.md", encoding: .utf8)) ?? ""

    /// The lines of the document's YAML examples.
    static var yamlLines: [String] {
        var inside = false, lines: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { inside = line.hasPrefix("```yaml"); continue }
            if inside { lines.append(String(line)) }
        }
        return lines
    }

    /// Every key the reader takes, in every section, is shown in one of the YAML examples or
    /// named as `section.key`.
    @Test func everyKeyTheReaderTakesIsDocumented() {
        let yaml = Self.yamlLines.map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(yaml.count > 50)
        var missing: [String] = []
        for key in ScenarioSchema.topLevelKeys where !yaml.contains(where: { $0.hasPrefix(key + ":") }) { missing.append(key) }
        for section in ScenarioSchema.sections {
            for key in section.keys {
                let written = yaml.contains { $0.hasPrefix(key + ":") } || Self.text.contains("`\(section.name).\(key)`")
                if !written { missing.append(section.name + "." + key) }
            }
        }
        #expect(missing.isEmpty, "not in docs/scenarios.md: \(missing)")
    }

    /// Every `section.key` the document names is a key the reader takes (a renamed or removed
    /// key cannot linger in the docs).
    @Test func everyDocumentedKeyIsOneTheReaderTakes() throws {
        let names = ScenarioSchema.sections.map(\.name).joined(separator: "|")
        let pattern = try NSRegularExpression(pattern: "`(\(names))\\.([a-z_0-9]+)")
        var unknown: Set<String> = []
        let range = NSRange(Self.text.startIndex..., in: Self.text)
        for match in pattern.matches(in: Self.text, range: range) {
            guard let s = Range(match.range(at: 1), in: Self.text), let k = Range(match.range(at: 2), in: Self.text) else { continue }
            let section = String(Self.text[s]), key = String(Self.text[k])
            if !(ScenarioSchema.keys(ofSection: section)?.contains(key) ?? false) { unknown.insert(section + "." + key) }
        }
        #expect(unknown.isEmpty, "docs/scenarios.md names keys the reader refuses: \(unknown.sorted())")
    }

    /// The rows of the keys table in the document, by path, as written.
    static var documentedRows: [(path: String, line: String)] {
        guard let start = text.range(of: KeysTableDocument.begin), let end = text.range(of: KeysTableDocument.end) else { return [] }
        return text[start.upperBound..<end.lowerBound].split(separator: "\n").compactMap { line in
            guard line.hasPrefix("| `"), let close = line.dropFirst(3).firstIndex(of: "`") else { return nil }
            return (String(line[line.index(line.startIndex, offsetBy: 3)..<close]), String(line))
        }
    }

    /// Both ways: every declared key has its row with its default, every row is a declared key,
    /// and the table is the one the declarations write (in their order). To write it again:
    /// `PUSHSIM_KEYS_TABLE_OUT=/tmp/keys.md swift test --filter ScenarioKeysDocumentedTests`, then
    /// paste the file over the table.
    @Test func theKeysTableIsTheDeclarations() throws {
        if let out = ProcessInfo.processInfo.environment["PUSHSIM_KEYS_TABLE_OUT"] {
            try (KeysTableDocument.markdown + "\n").write(toFile: out, atomically: true, encoding: .utf8)
        }
        let documented = Self.documentedRows
        let declared = KeysTableDocument.rows
        #expect(documented.count > 100)
        let documentedPaths = Set(documented.map(\.path)), declaredPaths = Set(declared.map(\.path))
        expectEqual(declaredPaths.subtracting(documentedPaths).sorted(), [], "declared but not in the keys table of docs/scenarios.md")
        expectEqual(documentedPaths.subtracting(declaredPaths).sorted(), [], "in the keys table of docs/scenarios.md but not declared")
        for row in declared {
            guard let line = documented.first(where: { $0.path == row.path })?.line else { continue }
            // | path | type | default | … : the default is the fourth piece; an escaped bar (`off \| on`) splits no cell.
            let cells = line.replacingOccurrences(of: "\\|", with: "¦").split(separator: "|", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(cells.count > 3 && cells[3] == row.info.defaultValue.text, "`\(row.path)`: the table says default \(cells.count > 3 ? cells[3] : "nothing"), the declaration \(row.info.defaultValue.text)")
            expectEqual(line, row.markdown, "`\(row.path)`: the row differs from the declaration's")
        }
        #expect(Self.text.contains(KeysTableDocument.markdown), "the keys table of docs/scenarios.md is not in the declarations' order; expected:\n\(KeysTableDocument.markdown)")
    }
}
