// FilePath: the path arithmetic that replaced Foundation's (which trapped on `--out r`).
import Foundation
import Testing
@testable import PushSimScenarioFile
@testable import PushSimCore
import PushSimTestSupport

@Suite struct FilePathTests {
    @Test(arguments: [
        ("r", "."), ("o/deep", "o"), ("a/b/c", "a/b"), ("/a", "/"), ("/", "/"), ("", "."),
        ("a//b/", "a"), ("./r", "."), ("../x", ".."), ("/tmp/x/", "/tmp"),
    ])
    func parentOfAPath(path: String, parent: String) {
        expectEqual(FilePath.parent(of: path), parent)
    }

    @Test(arguments: [("r", "r"), ("a/b", "b"), ("a/b/", "b"), ("/", "/"), ("", ""), ("/x/summary.json", "summary.json")])
    func lastComponentOfAPath(path: String, last: String) {
        expectEqual(FilePath.lastComponent(of: path), last)
    }

    @Test func joinPutsOneSlashBetween() {
        expectEqual(FilePath.join("a", "b"), "a/b")
        expectEqual(FilePath.join("a/", "b"), "a/b")
        expectEqual(FilePath.join("", "b"), "b")
        expectEqual(FilePath.join("/", "b"), "/b")
    }

    @Test func normalizedFoldsSlashes() {
        expectEqual(FilePath.normalized("a//b///c/"), "a/b/c")
        expectEqual(FilePath.normalized("//"), "/")
        expectEqual(FilePath.normalized(""), "")
    }
}

/// `--out` with a short relative path crashed inside Foundation (SIGILL); run the real tool
/// in a fresh folder so the relative path resolves there.
@Suite(.serialized) struct RelativeOutTests {
    @Test(arguments: ["r", "o/deep", "./x", "a//b/"])
    func aRelativeOutWritesItsResults(out: String) throws {
        _ = try BuiltTool.required()
        let dir = TemporaryDirectory()
        let file = dir.write("small.yaml", smallScenarioText)
        let result = try BuiltTool.run(["run", file, "--out", out, "--jobs", "1"], in: dir.path)
        expectEqual(result.status, 0, "\(result.error)")
        #expect(FileManager.default.fileExists(atPath: dir.file(out + "/summary.json")))
        #expect(FileManager.default.fileExists(atPath: dir.file(out + "/summary.md")))
    }
}
