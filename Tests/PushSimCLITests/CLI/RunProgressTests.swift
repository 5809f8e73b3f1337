// Tests of the progress line of `pushsim run`: on a terminal only, never with --json; shards always.
import Foundation
import Testing
@testable import PushSimCLI
@testable import PushSimCore
import PushSimTestSupport

@Suite struct RunProgressTests {
    private func run(_ arguments: [String], terminal: Bool) -> (status: Int32, out: String, err: String) {
        runPushsim(arguments, console: Console(live: false, errorIsTerminal: terminal))
    }

    @Test func theLineSaysDevicesEventsPerSecondAndTimeLeft() {
        let line = RunProgress.line(label: "run 'x'", devices: 250_000, total: 1_000_000, events: 50_000_000, seconds: 2)
        expectEqual(line, "run 'x': 250,000/1,000,000 devices, 25.0 M events/s, about 6 s left")
        #expect(RunProgress.line(label: "r", devices: 3, total: 3, events: 0, seconds: 1).hasSuffix("3/3 devices, 0.0 M events/s, done"))
    }

    @Test func aRunShowsProgressOnATerminalOnlyAndNeverWithJSON() {
        let dir = TemporaryDirectory()
        let file = dir.write("small.yaml", smallScenarioText)
        let onTerminal = run(["run", file, "--no-write", "--jobs", "1"], terminal: true)
        expectEqual(onTerminal.status, 0)
        #expect(onTerminal.err.contains("devices, ") && onTerminal.err.contains(" M events/s"))
        #expect(!onTerminal.out.contains("events/s"), "progress belongs on standard error")
        let piped = run(["run", file, "--no-write", "--jobs", "1"], terminal: false)
        #expect(!piped.err.contains("devices, "))
        let json = run(["run", file, "--no-write", "--json", "--jobs", "1"], terminal: true)
        #expect(!json.err.contains("devices, "))
    }

    @Test func aShardPrintsProgressLinesIntoItsLog() {
        let dir = TemporaryDirectory()
        let file = dir.write("small.yaml", smallScenarioText)
        let shard = run(["run", file, "--shard", "0/2", "--jobs", "1"], terminal: false)
        expectEqual(shard.status, 0)
        let lines = shard.err.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("shard 0/2 of 'small': ") && $0.hasSuffix("done") })
        #expect(!shard.err.contains("\r"), "a log gets whole lines")
    }
}
