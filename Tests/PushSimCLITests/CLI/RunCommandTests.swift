// End-to-end tests of `pushsim run` and `pushsim validate`, in process.
import Foundation
import Testing
@testable import PushSimCore
@testable import PushSimCLI
import PushSimTestSupport

@Suite struct RunCommandTests {
    func run(_ arguments: [String]) -> (status: Int32, out: String, err: String) { runPushsim(arguments) }

    @Test func runJsonFollowsTheContract() throws {
        let dir = TemporaryDirectory()
        let file = dir.write("small.yaml", smallScenarioText)
        let (status, out, _) = run(["run", file, "--json", "--no-write", "--jobs", "1"])
        expectEqual(status, 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
        expectEqual(object["scenario"] as? String, "small")
        expectEqual(object["seed"] as? Int, 3)
        let runs = try #require(object["runs"] as? [[String: Any]])
        expectEqual(runs.map { $0["queue"] as? String }, ["off", "on"])
        for arm in runs {
            let letters = try #require(arm["letters"] as? Int)
            let delivered = try #require(arm["delivered"] as? Int)
            let summarized = try #require(arm["summarized"] as? Int)
            let lost = try #require(arm["lost"] as? Int)
            #expect(letters > 0)
            expectEqual(delivered + summarized + lost, letters)
            let causes = try #require(arm["causes"] as? [String: Int])
            expectEqual(Set(causes.keys), Set(LossCause.allCases.filter(\.listedWhenZero).map(\.key)))
            expectEqual(causes.values.reduce(0, +), lost)
        }
        #expect(runs[1]["re_requests"] != nil && runs[1]["resent"] != nil)
        #expect(runs[1]["summaries"] != nil && runs[1]["extension_timeouts"] != nil)
    }

    /// Without `--load-bin` a run takes the scenario's default bin, which widens past 100 000
    /// minutes (docs/model.md §14); the option's documented default must not stand in for it
    /// (it did: a 200-day run asked for 1-minute bins and a run of millennia was refused).
    @Test func theLoadBinWidensForALongRunUnlessOneIsGiven() throws {
        let dir = TemporaryDirectory()
        let file = dir.write("small.yaml", smallScenarioText)
        func binSeconds(_ extra: [String]) throws -> [Double] {
            let (status, out, err) = run(["run", file, "--json", "--no-write", "--jobs", "1", "--set", "devices=2",
                                          "--set", "duration=200d", "--set", "mail.rate=1/d"] + extra)
            expectEqual(status, 0, "\(err)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
            let runs = try #require(object["runs"] as? [[String: Any]])
            return runs.compactMap { ($0["load"] as? [String: Any])?["bin_s"] as? Double }
        }
        // 200 days and the drain are over 100 000 minutes: 5-minute bins, under 100 000 of them.
        try expectEqual(binSeconds([]), [300, 300])
        try expectEqual(binSeconds(["--load-bin", "1m"]), [60, 60])
    }

    @Test func jsonKeysAreSorted() {
        let dir = TemporaryDirectory()
        let file = dir.write("small.yaml", smallScenarioText)
        let (_, out, _) = run(["run", file, "--json", "--no-write"])
        // Every key that opens an object member appears in sorted order within its object.
        var stack: [[String]] = []
        var sorted = true
        var index = out.startIndex
        var expectKey = false
        while index < out.endIndex {
            let ch = out[index]
            if ch == "{" { stack.append([]); expectKey = true }
            else if ch == "}" { if let keys = stack.popLast(), keys != keys.sorted() { sorted = false } }
            else if ch == "," { expectKey = !stack.isEmpty }
            else if ch == "\"" {
                var end = out.index(after: index)
                while end < out.endIndex && out[end] != "\"" { end = out.index(after: end) }
                if expectKey && !stack.isEmpty { stack[stack.count - 1].append(String(out[out.index(after: index)..<end])) }
                expectKey = false
                index = end
            } else if ch == "[" { expectKey = false }
            index = out.index(after: index)
        }
        #expect(sorted)
    }

    @Test func runWritesSummaryFilesToOut() {
        let dir = TemporaryDirectory()
        let file = dir.write("small.yaml", smallScenarioText)
        let out = dir.file("results")
        let (status, table, _) = run(["run", file, "--out", out])
        expectEqual(status, 0)
        #expect(table.contains("queue off") && table.contains("queue on") && table.contains("loss rate"))
        #expect(FileManager.default.fileExists(atPath: out + "/summary.json"))
        #expect(FileManager.default.fileExists(atPath: out + "/summary.md"))
        #expect(dir.listing.filter { $0.hasSuffix(".tmp") }.isEmpty)
    }

    @Test func setAndSeedOverrideTheFile() throws {
        let dir = TemporaryDirectory()
        let file = dir.write("small.yaml", smallScenarioText)
        let (status, out, _) = run(["run", file, "--json", "--no-write", "--seed", "99",
                                    "--set", "queue.mode=on", "--set", "devices=5"])
        expectEqual(status, 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
        expectEqual(object["seed"] as? Int, 99)
        expectEqual((object["runs"] as? [[String: Any]])?.map { $0["queue"] as? String }, ["on"])
    }

    @Test func badInputExitsTwoWithLocationAndWritesNothing() {
        let dir = TemporaryDirectory()
        let file = dir.write("bad.yaml", "name: bad\nduration: 1d\ndevices: 10\nqueue:\n  repeat_max_cont: 3\n")
        let out = dir.file("results")
        let (status, stdout, err) = run(["run", file, "--out", out])
        expectEqual(status, 2)
        #expect(stdout.isEmpty)
        #expect(err.contains("bad.yaml:5:3"))
        #expect(err.contains("repeat_max_count"))
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func unknownOptionIsAUsageError() {
        let (status, _, err) = run(["run", "x.yaml", "--jsn"])
        expectEqual(status, 2)
        #expect(err.contains("did you mean --json"))
    }

    @Test func unknownCommandSuggestsNearest() {
        let (status, _, err) = run(["rnu"])
        expectEqual(status, 2)
        #expect(err.contains("did you mean 'run'"))
    }

    @Test func validateReportsOkOrTheLocatedError() {
        let dir = TemporaryDirectory()
        let good = dir.write("good.yaml", smallScenarioText)
        expectEqual(run(["validate", good]).status, 0)
        let bad = dir.write("bad.yaml", "name: x\nduration: 1d\ndevices: 0\n")
        let result = run(["validate", bad])
        expectEqual(result.status, 2)
        #expect(result.err.contains("bad.yaml:3:"))
    }

    @Test func jobsNeverChangeTheResult() {
        let dir = TemporaryDirectory()
        let file = dir.write("small.yaml", smallScenarioText)
        let one = run(["run", file, "--json", "--no-write", "--jobs", "1"]).out
        let two = run(["run", file, "--json", "--no-write", "--jobs", "2"]).out
        expectEqual(one, two)
        #expect(!one.isEmpty)
    }
}

/// Usage errors say what was wrong, the usage line, and where the rest is; `help COMMAND` works.
@Suite struct UsageMessageTests {
    @Test func aUsageErrorPrintsTheUsageLineAndWhereTheRestIs() {
        let (status, out, err) = runPushsim(["run", "--bogus"])
        expectEqual(status, ExitStatus.badInput.code)
        #expect(out.isEmpty)
        #expect(err.hasPrefix("pushsim run: "))
        #expect(err.contains("Usage: pushsim run FILE"))
        #expect(err.hasSuffix("See 'pushsim run --help'.\n"))
        #expect(!err.contains("--json            print"), "the options' descriptions belong to --help")
    }

    @Test func helpCommandIsCommandDashDashHelp() {
        for command in PushSimTool.commands {
            let viaHelp = runPushsim(["help", command.name])
            let viaFlag = runPushsim([command.name, "--help"])
            expectEqual(viaHelp.status, ExitStatus.success.code)
            #expect(viaHelp.out == viaFlag.out && !viaHelp.out.isEmpty, "\(command.name)")
        }
    }
}
