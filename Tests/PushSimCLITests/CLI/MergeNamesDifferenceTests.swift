// `pushsim merge` of shards run with different settings: exit 2, naming the scenario keys that differ and both values.
import Foundation
import Testing
@testable import PushSimCLI
import PushSimTestSupport

@Suite struct MergeNamesDifferenceTests {
    func run(_ words: [String]) -> (Int32, Console) {
        let console = Console.capturing()
        return (PushSimTool.main(words, console: console), console)
    }

    @Test func shardsOfDifferentSettingsNameTheKeysThatDiffer() throws {
        let path = SmallScenarios.path("quickstart")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pushsim-merge-differs-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var files: [String] = []
        for (k, sets) in [(0, ["--set", "apns.loss=0.1"]), (1, ["--set", "apns.loss=0.3", "--set", "mail.rate=20/d"])] {
            let (status, console) = run(["run", path, "--set", "devices=10", "--shard", "\(k)/2", "--json"] + sets)
            expectEqual(status, 0, "\(console.standardError)")
            let file = folder.appendingPathComponent("part-\(k).json")
            try Data(console.standardOutput.utf8).write(to: file)
            files.append(file.path)
        }
        let (status, console) = run(["merge"] + files)
        expectEqual(status, 2)
        #expect(console.standardOutput.isEmpty)
        let message = console.standardError
        // Both keys, with the value each part holds and where it came from; not the fingerprints.
        #expect(message.contains("`apns.loss` (0.1 in \(files[0]), 0.3 in \(files[1]))"), "\(message)")
        #expect(message.contains("`mail.rate`"), "\(message)")
        #expect(!message.contains("fingerprints"), "\(message)")
    }
}
