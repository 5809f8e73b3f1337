// Every bundled scenario is in the README's table, opens with a comment saying what it studies, and has committed results.
import Foundation
import Testing
import PushSimTestSupport

@Suite struct ScenarioCatalogueTests {
    private var bundled: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: Shell.packageRoot + "/scenarios")) ?? []
        return names.filter { $0.hasSuffix(".yaml") }.sorted()
    }

    @Test func everyScenarioIsInTheReadmesTable() throws {
        let readme = try String(contentsOfFile: Shell.packageRoot + "/README.md", encoding: .utf8)
        // Table rows name scenarios as `name.yaml`, one or more to a row.
        let rows = readme.split(separator: "\n").filter { $0.hasPrefix("| `") }
        #expect(bundled.count >= 10)
        for name in bundled {
            #expect(rows.contains { $0.contains("`\(name)`") }, "scenarios/\(name) is missing from README.md's scenario table")
        }
    }

    @Test func everyScenarioSaysWhatItStudiesAndHasResults() throws {
        for name in bundled {
            let text = try String(contentsOfFile: Shell.packageRoot + "/scenarios/" + name, encoding: .utf8)
            #expect(text.hasPrefix("#"), "scenarios/\(name) does not open with a comment")
            let results = Shell.packageRoot + "/results/" + name.dropLast(".yaml".count) + "/summary.json"
            #expect(FileManager.default.fileExists(atPath: results), "no committed results for scenarios/\(name)")
        }
    }
}
