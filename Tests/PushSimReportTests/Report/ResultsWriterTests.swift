// Result sets written whole: a folder changes as one unit, keeps what is not its own, survives failures at every step.
import Foundation
import Testing
@testable import PushSimScenarioFile
@testable import PushSimExperiment
@testable import PushSimReport
@testable import PushSimCore
import PushSimTestSupport

/// The hook and the exchange switch are process-wide: these tests take turns.
@Suite(.serialized) struct ResultsWriterTests {
    private func contents(_ folder: String) -> [String: String] {
        var files: [String: String] = [:]
        for name in FileTree.names(in: folder) ?? [] {
            files[name] = (try? String(contentsOfFile: folder + "/" + name, encoding: .utf8)) ?? "<folder>"
        }
        return files
    }

    @Test func aSetReplacesItsFamilyAndKeepsTheRest() throws {
        let dir = TemporaryDirectory()
        let out = dir.file("out")
        try ResultsWriter.write([("sweep.csv", "a"), ("loss_rate.svg", "old chart")], to: out, replacing: SweepResult.family)
        try ResultsWriter.write([("summary.json", "run"), ("summary.md", "run")], to: out, replacing: RunSummary.family)
        dir.write("out/notes.txt", "mine")
        try expectEqual(ResultsDestination.resolve(out).mode, .swap)
        // A new sweep without that chart: the stale chart goes, the run's files and the notes stay.
        try ResultsWriter.write([("sweep.csv", "b")], to: out, replacing: SweepResult.family)
        expectEqual(contents(out), ["sweep.csv": "b", "summary.json": "run", "summary.md": "run", "notes.txt": "mine"])
        #expect(dir.listing.allSatisfy { !$0.contains(".pushsim-") })
    }

    @Test func aFolderThatIsNotAResultsFolderIsUpdatedFileByFileNeverRecreated() throws {
        let dir = TemporaryDirectory()
        let out = dir.file("home")
        try FileManager.default.createDirectory(atPath: out + "/sub", withIntermediateDirectories: true)
        dir.write("home/sub/deep.txt", "deep")
        dir.write("home/summary.md", "old")
        let before = try FileManager.default.attributesOfItem(atPath: out)[.systemFileNumber] as? Int
        try expectEqual(ResultsDestination.resolve(out).mode, .inPlace)
        try ResultsWriter.write([("summary.json", "new")], to: out, replacing: RunSummary.family)
        try expectEqual(FileManager.default.attributesOfItem(atPath: out)[.systemFileNumber] as? Int, before)
        expectEqual(contents(out), ["summary.json": "new", "sub": "<folder>"])
        try expectEqual(String(contentsOfFile: out + "/sub/deep.txt", encoding: .utf8), "deep")
    }

    @Test(arguments: [true, false])
    func aFailureAtAnyStepLeavesTheOldSetAndNoLeftovers(exchange: Bool) throws {
        defer { ResultsWriter.stepHook = nil; ResultsWriter.exchangeFolders = true }
        ResultsWriter.exchangeFolders = exchange
        for step in [ResultsWriteStep.staged, .filesWritten, .carried] {
            let dir = TemporaryDirectory()
            let out = dir.file("out")
            try ResultsWriter.write([("summary.json", "old"), ("summary.md", "old")], to: out)
            ResultsWriter.stepHook = { if $0 == step { throw ResultsWriteError(description: "stop at \(step)") } }
            #expect(throws: ResultsWriteError.self) { try ResultsWriter.write([("summary.json", "new"), ("summary.md", "new")], to: out) }
            ResultsWriter.stepHook = nil
            expectEqual(contents(out), ["summary.json": "old", "summary.md": "old"], "\(step)")
            expectEqual(dir.listing, ["out", "out/summary.json", "out/summary.md"], "\(step)")
        }
    }

    @Test func aFailedFirstWriteRemovesTheFoldersItCreated() throws {
        defer { ResultsWriter.stepHook = nil }
        let dir = TemporaryDirectory()
        ResultsWriter.stepHook = { if $0 == .filesWritten { throw ResultsWriteError(description: "stop") } }
        #expect(throws: ResultsWriteError.self) { try ResultsWriter.write([("a", "x")], to: dir.file("new/deeper/out")) }
        #expect(dir.listing.isEmpty)
    }

    @Test func orphansOfADeadWriterAreCleanedAndAParkedSetIsPutInPlace() throws {
        let dir = TemporaryDirectory()
        let out = dir.file("out")
        // A process id that is not running: a child that has exited.
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/true")
        try child.run()
        child.waitUntilExit()
        let dead = child.processIdentifier
        // The writer died between its two renames: `out` is missing, the complete new set parked.
        let new = dir.file(ResultsOrphans.sibling("new", of: "out", tag: "\(dead).1"))
        let old = dir.file(ResultsOrphans.sibling("old", of: "out", tag: "\(dead).1"))
        for folder in [new, old] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        dir.write(FilePath.lastComponent(of: new) + "/summary.json", "new")
        dir.write(FilePath.lastComponent(of: old) + "/summary.json", "old")
        dir.write(".summary.json.\(dead).3.tmp", "half")
        dir.write(ResultsOrphans.temporaryFile(for: "x.svg", tag: "\(getpid()).999"), "ours, alive")
        ResultsOrphans.clean(name: "out", parent: dir.path, folder: out)
        expectEqual(contents(out), ["summary.json": "new"])
        #expect(dir.listing == [ResultsOrphans.temporaryFile(for: "x.svg", tag: "\(getpid()).999"), "out", "out/summary.json"])
    }

    @Test func aSymbolicLinkToAFolderIsWrittenThroughAndKept() throws {
        let dir = TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir.file("real"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dir.file("link"), withDestinationPath: "real")
        try ResultsWriter.write([("summary.json", "x")], to: dir.file("link"))
        expectEqual(FileTree.kind(dir.file("link")), .link)
        expectEqual(contents(dir.file("real")), ["summary.json": "x"])
    }

    @Test func badDestinationsAreRefusedBeforeAnyWork() throws {
        let dir = TemporaryDirectory()
        try FileManager.default.createSymbolicLink(atPath: dir.file("loop"), withDestinationPath: "loop")
        try FileManager.default.createSymbolicLink(atPath: dir.file("dangling"), withDestinationPath: "nowhere/x")
        dir.write("file", "mine")
        let cases: [(String, String)] = [
            ("", "the path is empty"),
            (dir.file("loop"), "a symbolic link in a loop"),
            (dir.file("loop") + "/sub", "loops"),
            (dir.file("dangling"), "a symbolic link to 'nowhere/x', which does not exist"),
            (dir.file(String(repeating: "a", count: 300)), "is 300 bytes, longer than a file name can be (255)"),
            (dir.file(String(repeating: "abcdefgh/", count: 500)), "longer than the system allows (4095)"),
            (dir.file("file"), "it is a file, not a folder"),
            (dir.file("file/sub"), "is a file, not a folder"),
        ]
        for (path, expected) in cases {
            do {
                try ResultsWriter.checkDestination(path, createParents: true)
                Issue.record("accepted \(path)")
            } catch let error as ResultsWriteError {
                #expect(error.description.contains(expected), "\(error)")
            }
        }
        expectEqual(dir.listing, ["dangling", "file", "loop"])
    }

    @Test func theCurrentFolderIsWrittenInPlace() throws {
        let dir = TemporaryDirectory()
        let destination = try ResultsDestination.resolve(FileManager.default.currentDirectoryPath)
        expectEqual(destination.mode, .inPlace)
        try expectEqual(ResultsDestination.resolve(dir.path).mode, .swap)
    }
}
