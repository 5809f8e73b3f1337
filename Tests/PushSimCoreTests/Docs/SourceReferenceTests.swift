// Every source file the documents and the sources' comments name exists: a move of a file cannot leave a reader at a dead end.
import Foundation
import Testing
import PushSimTestSupport

@Suite struct SourceReferenceTests {
    static let root = FuzzCorpus.repositoryRoot

    /// The texts a reader follows: README, docs/ and every source and test file (CHANGELOG is
    /// left out on purpose: it records history, where the old names are right).
    static var texts: [(name: String, text: String)] {
        var names = ["README.md"]
        let fm = FileManager.default
        names += ((try? fm.contentsOfDirectory(atPath: root + "/docs")) ?? []).filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
        for folder in ["Sources", "Tests"] {
            names += (fm.subpaths(atPath: root + "/" + folder) ?? []).filter { $0.hasSuffix(".swift") }.map { folder + "/" + $0 }
        }
        return names.sorted().compactMap { name in
            (try? String(contentsOfFile: root + "/" + name, encoding: .utf8)).map { (name, $0) }
        }
    }

    /// Every `Name.swift` in the tree, and every path to one.
    static var swiftFiles: (names: Set<String>, paths: Set<String>) {
        var names: Set<String> = [], paths: Set<String> = []
        // The example clients' sources too (docs/client.md names them); not their .build.
        for folder in ["Sources", "Tests", "examples/client-gate/Sources", "examples/team-client/Sources"] {
            for path in FileManager.default.subpaths(atPath: root + "/" + folder) ?? [] where path.hasSuffix(".swift") {
                let full = folder + "/" + path
                paths.insert(full)
                var parts = full.split(separator: "/").map(String.init)
                while !parts.isEmpty { paths.insert(parts.joined(separator: "/")); parts.removeFirst() }
                names.insert(String(path.split(separator: "/").last ?? ""))
            }
        }
        return (names, paths)
    }

    @Test func everyNamedSourceFileExists() throws {
        let (names, paths) = Self.swiftFiles
        #expect(names.count > 100)
        let pattern = try NSRegularExpression(pattern: #"[A-Za-z0-9_/+.-]*[A-Za-z0-9_+-]+\.swift"#)
        var dead: [String] = []
        for (file, text) in Self.texts where !file.hasSuffix("SourceReferenceTests.swift") {
            let range = NSRange(text.startIndex..., in: text)
            for match in pattern.matches(in: text, range: range) {
                guard let r = Range(match.range, in: text) else { continue }
                var reference = String(text[r])
                while reference.hasPrefix("/") || reference.hasPrefix(".") { reference.removeFirst() }
                // A glob (`ResourceEstimate*.swift`), a placeholder or the manifest are not files.
                if reference.contains("*") || reference.hasPrefix("Package.") || reference.hasSuffix("ThisFile.swift") { continue }
                let resolves = reference.contains("/") ? paths.contains(reference) : names.contains(reference)
                if !resolves { dead.append("\(file): \(reference)") }
            }
        }
        #expect(dead.isEmpty, "\(dead.count) dead references: \(dead.prefix(20))")
    }
}
