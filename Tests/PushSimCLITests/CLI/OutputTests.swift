// Where results go: atomic replacement, and an unusable --out refused before any work with nothing half written.
import Foundation
import Testing
@testable import PushSimReport
@testable import PushSimCLI
@testable import PushSimCore
import PushSimTestSupport

private let tiny = """
name: tiny
duration: 1d
drain: 1h
devices: 5
mail:
  rate: 10/d

"""

/// A fresh folder holding the tiny scenario as `s.yaml`.
private final class Workspace {
    let folder = NSTemporaryDirectory() + "pushsim-output-\(UUID().uuidString)"
    var scenario: String { folder + "/s.yaml" }
    init() {
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: scenario, contents: Data(tiny.utf8))
    }
    deinit { try? FileManager.default.removeItem(atPath: folder) }

    func run(_ extra: [String]) -> (status: Int32, err: String) {
        let console = Console.capturing()
        let status = PushSimTool.main(["run", scenario, "--jobs", "1"] + extra, console: console)
        return (status, console.standardError)
    }

    /// Every path below the folder, sorted.
    var listing: [String] { (FileManager.default.subpaths(atPath: folder) ?? []).sorted() }
}

@Suite struct OutputTests {
    @Test func resultsReplaceEarlierOnesWholeAndLeaveNoTemporaryFiles() throws {
        let w = Workspace()
        let out = w.folder + "/out"
        expectEqual(w.run(["--out", out]).status, 0)
        let first = try String(contentsOfFile: out + "/summary.json", encoding: .utf8)
        #expect(first.contains("\"scenario\": \"tiny\"") || first.contains("\"scenario\":\"tiny\""))
        _ = FileManager.default.createFile(atPath: out + "/summary.json", contents: Data("old".utf8))
        expectEqual(w.run(["--out", out]).status, 0)
        try expectEqual(String(contentsOfFile: out + "/summary.json", encoding: .utf8), first)
        expectEqual(w.listing, ["out", "out/costs.svg", "out/load.csv", "out/load.svg", "out/report.html", "out/summary.json", "out/summary.md", "s.yaml"])
    }

    @Test func outThatIsAFileIsRefusedBeforeRunning() throws {
        let w = Workspace()
        let path = w.folder + "/taken"
        _ = FileManager.default.createFile(atPath: path, contents: Data("mine".utf8))
        let (status, err) = w.run(["--out", path])
        expectEqual(status, 2)
        #expect(err.contains("it is a file, not a folder"))
        expectEqual(FileManager.default.contents(atPath: path), Data("mine".utf8))
        // A path through a file is refused the same way.
        let (throughFile, message) = w.run(["--out", path + "/sub"])
        expectEqual(throughFile, 2)
        #expect(message.contains("is a file, not a folder"))
        expectEqual(w.listing, ["s.yaml", "taken"])
    }

    @Test func outWithMissingParentsIsCreatedWithThem() {
        // `pushsim check` and scripts write to `…/results/NAME` in fresh folders.
        let w = Workspace()
        let (status, _) = w.run(["--out", w.folder + "/missing/deeper/out"])
        expectEqual(status, 0)
        #expect(w.listing == ["missing", "missing/deeper", "missing/deeper/out", "missing/deeper/out/costs.svg", "missing/deeper/out/load.csv",
                              "missing/deeper/out/load.svg", "missing/deeper/out/report.html", "missing/deeper/out/summary.json",
                              "missing/deeper/out/summary.md", "s.yaml"])
    }

    @Test func unwritableOutIsRefused() throws {
        // Permissions do not stop root, so use a place no one can create files in.
        let (status, err) = Workspace().run(["--out", "/proc/pushsim-results"])
        expectEqual(status, 2)
        #expect(err.contains("cannot write results to '/proc/pushsim-results'"), "\(err)")
    }

    @Test func checkDestinationCreatesNothing() throws {
        let w = Workspace()
        try ResultsWriter.checkDestination(w.folder + "/a/b/c", createParents: true)
        try ResultsWriter.checkDestination(w.folder + "/new", createParents: false)
        try ResultsWriter.checkDestination(w.folder, createParents: false)
        expectEqual(w.listing, ["s.yaml"])
        #expect(throws: ResultsWriteError.self) { try ResultsWriter.checkDestination(w.folder + "/a/b", createParents: false) }
    }

    @Test func aFailedWriteLeavesEarlierResultsAndNoNewFolders() throws {
        let w = Workspace()
        let out = w.folder + "/out"
        try ResultsWriter.write([("a.json", "first")], to: out)
        // The second file cannot be created (its folder is missing): nothing may change.
        #expect(throws: ResultsWriteError.self) {
            try ResultsWriter.write([("a.json", "second"), ("missing/b.md", "x")], to: out)
        }
        try expectEqual(String(contentsOfFile: out + "/a.json", encoding: .utf8), "first")
        expectEqual(w.listing, ["out", "out/a.json", "s.yaml"])
        // Into folders the writer had to create: they are taken away again.
        #expect(throws: ResultsWriteError.self) {
            try ResultsWriter.write([("a.json", "x"), ("missing/b.md", "x")], to: w.folder + "/new/deep")
        }
        expectEqual(w.listing, ["out", "out/a.json", "s.yaml"])
    }

    @Test func interruptionCleanupRemovesRegisteredTemporaries() throws {
        let w = Workspace()
        let files = TemporaryFiles()
        let temporary = w.folder + "/.summary.json.1.tmp"
        _ = FileManager.default.createFile(atPath: temporary, contents: Data("partial".utf8))
        files.remember(temporary)
        expectEqual(files.pending, [temporary])
        files.removeAll()
        #expect(files.pending.isEmpty)
        expectEqual(w.listing, ["s.yaml"])
        // Writes go on afterwards unless the process is on its way out.
        files.writing { }
    }
}
