// docs/scenarios.md against the reader's key table (ScenarioSchema): every key documented, no documented key the reader refuses.
import Foundation
import Testing
@testable import PushSimScenarioFile

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
}
