// End-to-end tests of `pushsim sweep`: the JSON on standard output, the files, usage errors.
import Foundation
import Testing
@testable import PushSimExperiment
@testable import PushSimCLI
@testable import PushSimCore
import PushSimTestSupport

/// A scenario file in a fresh temporary folder, removed by `cleanUp`.
struct TemporaryScenario {
    let directory: URL
    let path: String

    init(_ text: String, name: String = "scenario.yaml") throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("pushsim-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        path = directory.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    func cleanUp() { try? FileManager.default.removeItem(at: directory) }
}

@Suite struct SweepCommandTests {
    @Test func sweepPrintsJSONAndWritesEveryFile() throws {
        let input = try TemporaryScenario(SweepFixture.text + "\nsweep:\n  queue.repeat_max_count: [1, 3]\n")
        defer { input.cleanUp() }
        let out = input.directory.appendingPathComponent("out").path
        let console = Console.capturing()
        let status = PushSimTool.main(["sweep", input.path, "--replications", "2", "--json", "--out", out, "--jobs", "1"], console: console)
        expectEqual(status, 0, "\(console.standardError)")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(console.standardOutput.utf8)) as? [String: Any])
        let points = try #require(root["points"] as? [[String: Any]])
        expectEqual(points.compactMap { ($0["set"] as? [String: Any])?["queue.repeat_max_count"] as? Int }, [1, 3])
        #expect(console.standardError.isEmpty, "no progress when standard error is not a terminal")
        let files = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        expectEqual(files, (["report.html", "sweep.csv", "sweep.json", "sweep.md"] + SweepResult.chartSpecs.map(\.file)).sorted())
        let written = try String(contentsOfFile: out + "/sweep.json", encoding: .utf8)
        let reparsed = try JSONSerialization.jsonObject(with: Data(written.utf8)) as? [String: Any]
        expectEqual((reparsed?["points"] as? [Any])?.count, 2)
    }

    @Test func varyOnTheCommandLineReplacesTheFilesAxis() throws {
        let input = try TemporaryScenario(SweepFixture.text + "\nsweep:\n  queue.repeat_max_count: [1, 3]\n")
        defer { input.cleanUp() }
        let console = Console.capturing()
        let status = PushSimTool.main(["sweep", input.path, "--vary", "queue.repeat_max_count=0,5,20", "--no-write", "--json"],
                                      console: console)
        expectEqual(status, 0)
        #expect(console.standardOutput.contains("\"replications\":1"))
        expectEqual(console.standardOutput.components(separatedBy: "\"set\":").count, 4)
    }

    @Test func badSweepsExitWithStatusTwoAndWriteNothing() throws {
        let input = try TemporaryScenario(SweepFixture.text)
        defer { input.cleanUp() }
        let out = input.directory.appendingPathComponent("out").path
        for arguments in [["--vary", "queue.repeat_max_count=1,lots"], ["--vary", "queue.repeat_max_count"],
                          ["--vary", "queue.nope=1"], ["--replications", "0"], ["--vary", "seed=1,2"]] {
            let console = Console.capturing()
            let status = PushSimTool.main(["sweep", input.path, "--out", out] + arguments, console: console)
            expectEqual(status, 2, "\(arguments)")
            #expect(!console.standardError.isEmpty)
        }
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}

/// `--vary` beside the file's own `sweep:`: said before the run, and `--only-vary` to drop the file's axis.
@Suite struct SweepAxesNoteTests {
    static let file = SweepFixture.text + "\nsweep:\n  queue.repeat_max_count: [1, 3, 5]\n"

    @Test func combiningAxesIsSaidBeforeTheRun() throws {
        let input = try TemporaryScenario(Self.file)
        defer { input.cleanUp() }
        let console = Console.capturing()
        let status = PushSimTool.main(["sweep", input.path, "--vary", "apns.loss=0,1%", "--replications", "2",
                                       "--no-write", "--json", "--jobs", "1"], console: console)
        expectEqual(status, 0, "\(console.standardError)")
        #expect(console.standardError.contains("--vary `apns.loss` (2 values) combines with the file's own sweep: "
            + "`queue.repeat_max_count` (3 values): 6 points, not 2, × 2 replications = 12 runs"))
        #expect(console.standardError.contains("add --only-vary"))
        expectEqual(console.standardOutput.components(separatedBy: "\"set\":").count, 1 + 6 + 1, "six points and the reference")
    }

    @Test func onlyVaryRunsTheAskedAxesAlone() throws {
        let input = try TemporaryScenario(Self.file)
        defer { input.cleanUp() }
        let console = Console.capturing()
        let status = PushSimTool.main(["sweep", input.path, "--vary", "apns.loss=0,1%", "--only-vary", "--replications", "2",
                                       "--no-write", "--json", "--jobs", "1"], console: console)
        expectEqual(status, 0, "\(console.standardError)")
        #expect(console.standardError.isEmpty)
        let root = try #require(try JSONSerialization.jsonObject(with: Data(console.standardOutput.utf8)) as? [String: Any])
        expectEqual((root["points"] as? [Any])?.count, 2)
        expectEqual((root["reference"] as? [String: Any])?["chosen"] as? String, "file", "apns.loss 0 is the file's own")
    }

    @Test func badReferenceAndOnlyVaryAreUsageErrors() throws {
        let input = try TemporaryScenario(Self.file)
        defer { input.cleanUp() }
        for arguments in [["--only-vary"], ["--reference", "queue.repeat_max_count=2", "--replications", "2"],
                          ["--reference", "queue.repeat_max_count=3"], ["--reference", "=3", "--replications", "2"],
                          ["--cost", "lost=-1"], ["--cost", "latency_p90=1"], ["--cost", "lose=1"]] {
            let console = Console.capturing()
            let status = PushSimTool.main(["sweep", input.path, "--no-write"] + arguments, console: console)
            expectEqual(status, 2, "\(arguments): \(console.standardError)")
            #expect(console.standardOutput.isEmpty)
        }
    }
}
