// End-to-end: shards run as separate `pushsim` processes and merged equal one run, byte for byte.
import Foundation
import Testing
@testable import PushSimCLI
@testable import PushSimCore
import PushSimTestSupport

@Suite(.serialized) struct ShardProcessTests {
    @Test func theExecutableIsBuilt() {
        #expect(BuiltTool.url != nil, "pushsim was not found next to the test bundle")
    }

    @Test(arguments: ["quickstart", "flaky-network", "field-mix"])
    func shardProcessesMergeIntoTheSingleRunsBytes(name: String) throws {
        _ = try BuiltTool.required()
        let path = SmallScenarios.path(name)
        let common = ["--set", "devices=30", "--json"]
        let single = try BuiltTool.run(["run", path, "--no-write", "--jobs", "1"] + common)
        expectEqual(single.status, 0)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pushsim-shards-\(getpid())-\(name)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var files: [String] = []
        var concatenated = ""
        for k in 0..<3 {
            let part = try BuiltTool.run(["run", path, "--shard", "\(k)/3", "--jobs", "2"] + common)
            expectEqual(part.status, 0, "\(part.error)")
            let file = folder.appendingPathComponent("part-\(k).json")
            try Data(part.output.utf8).write(to: file)
            files.append(file.path)
            concatenated = part.output + concatenated
        }
        let merged = try BuiltTool.run(["merge"] + files.reversed())
        expectEqual(merged.status, 0, "\(merged.error)")
        expectEqual(merged.output, single.output)
        let fromInput = try BuiltTool.run(["merge", "-"], input: Data(concatenated.utf8))
        expectEqual(fromInput.output, single.output)
        let missing = try BuiltTool.run(["merge", files[0], files[2]])
        #expect(missing.status == 2 && missing.output.isEmpty && missing.error.contains("missing 1 of 3 shards: 1/3"))
        let twice = try BuiltTool.run(["merge", files[0], files[1], files[1], files[2]])
        #expect(twice.status == 2 && twice.error.contains("more than once"))
    }

    @Test func runsInSeparateProcessesAreIdentical() throws {
        _ = try BuiltTool.required()
        let arguments = ["run", SmallScenarios.path("commuters"), "--set", "devices=60", "--json", "--no-write"]
        let a = try BuiltTool.run(arguments + ["--jobs", "1"])
        let b = try BuiltTool.run(arguments + ["--jobs", "2"])
        #expect(a.status == 0 && !a.output.isEmpty)
        expectEqual(a.output, b.output)
    }
}

@Suite struct MergeAndShardCommandTests {
    func run(_ words: [String]) -> (Int32, Console) {
        let console = Console.capturing()
        return (PushSimTool.main(words, console: console), console)
    }

    @Test func badShardsAreUsageErrors() {
        let path = SmallScenarios.path("quickstart")
        for bad in ["3/3", "x/2", "1/0", "-1/3"] {
            let (status, console) = run(["run", path, "--shard", bad, "--json"])
            expectEqual(status, 2)
            #expect(console.standardError.contains("--shard"))
            #expect(console.standardOutput.isEmpty)
        }
        let (status, console) = run(["run", path, "--shard", "0/2", "--out", "/tmp/never"])
        #expect(status == 2 && console.standardError.contains("writes no results folder"))
    }

    @Test func shardRunPrintsAPartialAndWritesNothing() throws {
        // A name of its own, so the default results folder it must not create is known
        // (no change of directory: other tests run at the same time).
        let name = "shard-nowrite-\(getpid())"
        let (status, console) = run(["run", SmallScenarios.path("quickstart"), "--set", "devices=12",
                                     "--set", "name=\(name)", "--shard", "1/2", "--json"])
        expectEqual(status, 0)
        #expect(console.standardOutput.contains("\"format\":\"pushsim-partial/2\""))
        #expect(!FileManager.default.fileExists(atPath: "results/\(name)"))
    }

    @Test func mergeOfNothingOrJunkIsExitTwo() throws {
        expectEqual(run(["merge"]).0, 2)
        expectEqual(run(["merge", "/nonexistent/part.json"]).0, 2)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("pushsim-junk-\(getpid()).json")
        try Data("{\"runs\": []}".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let (status, console) = run(["merge", file.path])
        #expect(status == 2 && console.standardError.contains("full run's document"))
    }

    @Test func benchCommandPrintsJSONAndChecksABaseline() throws {
        let (status, console) = run(["bench", "--devices", "8", "--days", "1", "--repetitions", "1", "--jobs", "1", "--json"])
        expectEqual(status, 0)
        #expect(console.standardOutput.contains("\"events_per_s\""))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("pushsim-bench-\(getpid()).json")
        try Data("{\"rungs\": [{\"name\": \"8x1d\", \"letters_per_s\": 1000000000000}]}".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let (slower, output) = run(["bench", "--devices", "8", "--days", "1", "--repetitions", "1", "--jobs", "1",
                                    "--baseline", file.path, "--tolerance", "50"])
        expectEqual(slower, 1)
        #expect(output.standardOutput.contains("SLOWER"))
        expectEqual(run(["bench", "--tolerance", "lots"]).0, 2)
        expectEqual(run(["bench", "--devices", "0"]).0, 2)
        expectEqual(run(["bench", "--baseline", "/nonexistent"]).0, 2)
    }
}
