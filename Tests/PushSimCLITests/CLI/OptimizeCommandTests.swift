// End-to-end tests of `pushsim optimize`: it picks a clearly best value on a bundled scenario, is byte-for-byte deterministic across --jobs, and refuses bad input with exit 2 and nothing written.
import Foundation
import Testing
@testable import PushSimExperiment
@testable import PushSimCLI
import PushSimTestSupport

@Suite struct OptimizeCommandTests {
    /// nightly-offline cut to 200 phones for two days: repeat_max_count = 50 re-sends every
    /// letter of a night and leaves none to a summary (summarized_rate 0), 0 and 10 leave
    /// about 18 % and 16 %: the best by far more than δ = 1 %.
    static let nightly = Shell.packageRoot + "/scenarios/nightly-offline.yaml"
    static let small = ["--set", "devices=200", "--set", "duration=2d", "--over", "queue.repeat_max_count=0,10,50"]

    @Test func picksTheClearlyBestValueAndWritesBothFiles() throws {
        let dir = TemporaryDirectory()
        let out = dir.file("out")
        let console = Console.capturing()
        let status = PushSimTool.main(["optimize", Self.nightly] + Self.small
            + ["--objective", "summarized_rate", "--indifference", "1%", "--first-stage", "5", "--jobs", "1", "--json", "--out", out],
            console: console)
        expectEqual(status, 0, "\(console.standardError)")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(console.standardOutput.utf8)) as? [String: Any])
        expectEqual(root["chosen"] as? String, "queue.repeat_max_count=50")
        expectEqual(root["finished"] as? Bool, true)
        expectEqual((root["guarantee"] as? String)?.contains("With probability ≥ 95"), true)
        // 50 is the grid's largest value: the files and standard error say the best may lie beyond,
        // and continue the last step (40): 90, 130.
        let edges = try #require(root["grid_edge"] as? [[String: Any]])
        #expect(edges.count == 1 && edges.first?["side"] as? String == "largest")
        expectEqual(edges.first?["suggestions"] as? [String], ["90", "130"])
        #expect(console.standardError.contains("at the edge of the grid") && console.standardError.contains("=50,90,130"))
        // The others are worse by more than δ: only the chosen value is within δ of the best.
        let within = try #require(root["within_delta_of_best"] as? [String: Any])
        expectEqual(within["candidates"] as? [String], ["queue.repeat_max_count=50"])
        let systems = try #require(root["systems"] as? [[String: Any]])
        expectEqual(systems.count, 3)
        // The two losers were screened out; each carries its paired difference with the chosen one.
        for loser in systems.prefix(2) {
            #expect(loser["eliminated"] is [String: Any])
            let difference = try #require(loser["difference_from_chosen"] as? [String: Any])
            #expect((difference["mean"] as? Double ?? 0) > 0.01)
        }
        try expectEqual(FileManager.default.contentsOfDirectory(atPath: out).sorted(), ["optimize.json", "optimize.md", "optimize.svg", "report.html"])
        let svg = try String(contentsOfFile: out + "/optimize.svg", encoding: .utf8)
        #expect(svg.contains("indifference zone, 0 to δ") && svg.contains("<rect class=\"zone\"") && svg.contains("class=\"interval\"") && !svg.contains("<polyline"))
        let markdown = try String(contentsOfFile: out + "/optimize.md", encoding: .utf8)
        #expect(markdown.contains("**Chosen: `queue.repeat_max_count=50`**"))
        #expect(markdown.contains("**At the edge of the grid:** `queue.repeat_max_count=50` is the largest value"))
        #expect(markdown.contains("Within δ = 0.01 of the best"))
        // The chosen one's MCB interval says it is the best (upper bound 0); the others' that they are not (lower bound 0).
        let bounds = try systems.map { try #require($0["versus_best_of_others"] as? [String: Any]) }
        #expect(bounds[2]["upper"] as? Double == 0 && (bounds[2]["lower"] as? Double ?? 0) < 0)
        #expect(bounds.prefix(2).allSatisfy { $0["lower"] as? Double == 0 && ($0["upper"] as? Double ?? 0) > 0.01 })
        // KN spent no more than the fixed-sample procedure of the same guarantee would.
        let fixed = try #require(root["fixed_sample"] as? [String: Any])
        #expect((root["total_replications"] as? Int ?? .max) <= (fixed["total_replications"] as? Int ?? 0))
    }

    /// The objective of one segment: `--segment` reads the metric in that segment's figures,
    /// and the old names (`--vary`, `--cost`, `--delta`) still work as aliases.
    @Test func aSegmentsObjectiveThroughTheAliases() throws {
        let console = Console.capturing()
        let status = PushSimTool.main(["optimize", Shell.packageRoot + "/scenarios/channels.yaml", "--set", "devices=150", "--set", "duration=2d",
                                       "--vary", "queue.repeat_max_count=0,50", "--cost", "lost=1,summarized=0.3", "--segment", "iphone-pushkit",
                                       "--delta", "0.01", "--first-stage", "3", "--max-replications", "4", "--jobs", "1", "--json", "--no-write"],
                                      console: console)
        expectEqual(status, 0, "\(console.standardError)")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(console.standardOutput.utf8)) as? [String: Any])
        expectEqual(root["metric"] as? String, "segments.iphone-pushkit.expected_cost")
        #expect(root["segment"] as? String == "iphone-pushkit" && root["objective"] as? String == "lost=1,summarized=0.3")
    }

    /// The same seed gives the same optimize.json byte for byte, at --jobs 1 and --jobs 2, on
    /// the study's office population (cut to 100 phones and two days); the objective here is a
    /// stated cost, the other road into the metric.
    @Test func theResultIsTheSameAtOneAndTwoJobs() throws {
        let dir = TemporaryDirectory()
        var written: [String] = []
        for jobs in ["1", "2"] {
            let out = dir.file("out-\(jobs)")
            let console = Console.capturing()
            let status = PushSimTool.main(["optimize", Shell.packageRoot + "/scenarios/study-office.yaml", "--set", "devices=100", "--set", "duration=2d",
                                           "--over", "queue.repeat_max_count=0,50", "--objective", "lost=1,summarized=0.3",
                                           "--indifference", "0.005", "--first-stage", "3", "--max-replications", "6",
                                           "--jobs", jobs, "--out", out], console: console)
            expectEqual(status, 0, "\(console.standardError)")
            written.append(try String(contentsOfFile: out + "/optimize.json", encoding: .utf8))
        }
        expectEqual(written[0], written[1])
        #expect(written[0].contains("\"metric\": \"expected_cost\""))
    }

    @Test func badInputExitsWithTwoNamingTheOptionAndWritesNothing() throws {
        let input = try TemporaryScenario(SweepFixture.text + "\nsweep:\n  queue.repeat_max_count: [0, 50]\n")
        defer { input.cleanUp() }
        let out = input.directory.appendingPathComponent("out").path
        let cases: [([String], String)] = [
            ([], "--indifference"),
            (["--indifference", "0"], "--indifference"),
            (["--indifference", "-0.01"], "--indifference"),
            (["--indifference", "lots"], "--indifference"),
            (["--indifference", "0.01", "--confidence", "40%"], "--confidence"),
            (["--indifference", "0.01", "--confidence", "100%"], "--confidence"),
            (["--indifference", "0.01", "--confidence", "1.5"], "--confidence"),
            (["--indifference", "0.01", "--first-stage", "1"], "--first-stage"),
            (["--indifference", "0.01", "--first-stage", "5", "--max-replications", "3"], "--max-replications"),
            (["--indifference", "0.01", "--over", "queue.repeat_max_count=5"], "two candidate values"),
            (["--indifference", "0.01", "--over", "queue.repeat_max_count=1,lots"], "--over:1:"),
            (["--indifference", "0.01", "--objective", "lost=-1"], "--objective:1:"),
            (["--indifference", "0.01", "--cost", "lost=1", "--metric", "loss_rate"], "is given twice"),
            (["--indifference", "0.01", "--objective", "no_such_metric"], "--objective `no_such_metric`"),
            (["--indifference", "0.01", "--segment", "commuters"], "--segment"),
        ]
        for (arguments, named) in cases {
            let console = Console.capturing()
            let status = PushSimTool.main(["optimize", input.path, "--out", out, "--jobs", "1"] + arguments, console: console)
            expectEqual(status, 2, "\(arguments): \(console.standardError)")
            #expect(console.standardError.contains(named), "\(arguments): \(console.standardError)")
            #expect(!FileManager.default.fileExists(atPath: out), "\(arguments) wrote \(out)")
        }
    }

    @Test func theHelpListsTheCommand() {
        #expect(PushSimTool.help.contains("optimize"))
        let console = Console.capturing()
        expectEqual(PushSimTool.main(["optimize", "--help"], console: console), 0)
        #expect(console.standardOutput.contains("--indifference δ") && console.standardOutput.contains("also --delta"))
    }

    /// Without --objective, a file's own `objective:` is what is minimised (and `sweep` reports it).
    @Test func theFilesObjectiveIsTheDefault() throws {
        let input = try TemporaryScenario(SweepFixture.text + "\nobjective:\n  lost: 1\n  summarized: 0.3\n")
        defer { input.cleanUp() }
        let console = Console.capturing()
        let status = PushSimTool.main(["optimize", input.path, "--over", "queue.repeat_max_count=0,50", "--indifference", "0.01",
                                       "--first-stage", "2", "--max-replications", "3", "--jobs", "1", "--json", "--no-write"],
                                      console: console)
        expectEqual(status, 0, "\(console.standardError)")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(console.standardOutput.utf8)) as? [String: Any])
        expectEqual(root["metric"] as? String, "expected_cost")
        expectEqual(root["objective"] as? String, "lost=1,summarized=0.3 (the file's objective)")
    }
}
