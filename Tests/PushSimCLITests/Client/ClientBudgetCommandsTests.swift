// A user's client stopped at --max-events wherever it runs: a shard, check and check --update, trace, find, sweep, optimize, calibrate.
import Foundation
import PushSimClient
import PushSimClientRunner
import PushSimTestSupport
import Testing

/// A version-2 client that waits a microsecond on every push and on every wake, until the
/// deadline: each push keeps its run awake for millions of wakes.
struct WaitsForEver: ServiceExtensionClient {
    func freshState() -> Int { 0 }
    func pushArrived(_ push: ArrivingPush, state: inout Int) -> ExtensionAnswer { again(push, at: push.arrival) }
    func woke(_ push: ArrivingPush, at now: ClientTime, state: inout Int) -> ExtensionAnswer { again(push, at: now) }
    private func again(_ push: ArrivingPush, at now: ClientTime) -> ExtensionAnswer {
        let next = ClientTime(microseconds: now.microseconds + 1)
        return next < push.deadline ? .wait(until: next) : .show
    }
}

/// A version-2 client that summarizes every position before the push's own, each as a range
/// of its own: no push is sent again, but every answer holds thousands of ranges.
struct ThousandsOfRanges: ServiceExtensionClient {
    func freshState() -> Int { 0 }
    func pushArrived(_ push: ArrivingPush, state: inout Int) -> ExtensionAnswer {
        let p = push.payload.position
        return p > 1 ? .summarize((1..<p).map { $0...$0 }) : .show
    }
}

@Suite(.serialized) struct ClientBudgetCommandsTests {
    /// One phone for eight hours, 20 letters, offline ~40 min every ~3 h: a client that
    /// re-requests everything makes millions of events of it.
    static let one = """
        name: one
        duration: 8h
        devices: 1
        mail:
          rate: 60/d
        connectivity:
          online: exponential(3h)
          offline: exponential(40m)
        queue:
          mode: on

        """

    static func stopped(_ result: CommandResult, client: String = "ReRequestEverything", _ comment: Comment? = nil) {
        expectEqual(result.status, 2, "\(result.errors)")
        #expect(result.errors.contains("the answers of the user's client \(client) made"), "\(result.errors)")
        #expect(result.errors.contains("(--max-events)"), "\(result.errors)")
    }

    static func command(_ arguments: [String]) -> CommandResult {
        PushSim.command(arguments, client: ReRequestEverything(), name: "ReRequestEverything")
    }

    /// A shard ran the client unguarded (the guard was the whole run's only).
    @Test func aShardIsStopped() {
        let dir = TemporaryDirectory()
        let scenario = dir.write("one.yaml", Self.one)
        let started = Date()
        let result = Self.command(["run", scenario, "--shard", "0/1", "--max-events", "1e5"])
        Self.stopped(result)
        #expect(result.output.isEmpty, "a part must not be printed: \(result.output.prefix(200))")
        #expect(Date().timeIntervalSince(started) < 60)
    }

    /// check and check --update ran the client unguarded: the baseline is not touched.
    @Test func checkAndItsUpdateAreStoppedAndTheBaselineIsKept() throws {
        let dir = TemporaryDirectory()
        let scenario = dir.write("one.yaml", Self.one)
        let results = dir.file("results")
        expectEqual(runPushsim(["run", scenario, "--out", results + "/one"]).status, 0)
        let baseline = results + "/one/summary.json"
        let before = try String(contentsOfFile: baseline, encoding: .utf8)
        Self.stopped(Self.command(["check", scenario, "--results", results, "--max-events", "1e5"]))
        Self.stopped(Self.command(["check", scenario, "--results", results, "--update", "--max-events", "1e5"]))
        try expectEqual(String(contentsOfFile: baseline, encoding: .utf8), before)
        // A folder of scenarios, with --update: stopped, the baseline as it was.
        Self.stopped(Self.command(["check", "--all", dir.path, "--results", results, "--update", "--max-events", "1e5"]))
        try expectEqual(String(contentsOfFile: baseline, encoding: .utf8), before)
    }

    /// trace kept every event of the client's storm as a line.
    @Test func aTraceIsStopped() {
        let dir = TemporaryDirectory()
        let scenario = dir.write("one.yaml", Self.one)
        let result = Self.command(["trace", scenario, "--device", "0", "--max-events", "1e5", "--svg", dir.file("t.svg")])
        Self.stopped(result)
        #expect(!FileManager.default.fileExists(atPath: dir.file("t.svg")))
    }

    /// Every point of a sweep ran the client unguarded.
    @Test func aSweepIsStoppedAndWritesNothing() {
        let dir = TemporaryDirectory()
        let scenario = dir.write("one.yaml", Self.one)
        let result = Self.command(["sweep", scenario, "--vary", "mail.rate=30/d,60/d", "--max-events", "1e5", "--out", dir.file("s")])
        Self.stopped(result)
        #expect(!FileManager.default.fileExists(atPath: dir.file("s")))
    }

    /// Every candidate of a calibration ran the client unguarded.
    @Test func aCalibrationIsStoppedAndWritesNothing() {
        let dir = TemporaryDirectory()
        let scenario = dir.write("one.yaml", Self.one)
        let observed = dir.file("obs.json")
        expectEqual(runPushsim(["run", scenario, "--set", "devices=20", "--observe", observed, "--no-write"]).status, 0)
        let result = Self.command(["calibrate", scenario, "--observed", observed, "--fit", "device.alerts_off=0..0.5",
                                   "--max-events", "1e5", "--out", dir.file("c"), "--max-evaluations", "4"])
        Self.stopped(result)
        #expect(!FileManager.default.fileExists(atPath: dir.file("c")))
    }

    /// A version-2 client that waits again on every wake is stopped in trace as in run.
    @Test func aClientThatWaitsForEverIsStopped() {
        let dir = TemporaryDirectory()
        let scenario = dir.write("one.yaml", Self.one)
        let started = Date()
        for arguments in [["run", scenario, "--no-write"], ["trace", scenario, "--device", "0"]] {
            let result = PushSim.command(arguments + ["--max-events", "1e5"], client: WaitsForEver(), name: "WaitsForEver")
            Self.stopped(result, client: "WaitsForEver")
        }
        #expect(Date().timeIntervalSince(started) < 60)
    }

    /// Within the limit, the same commands go through with an ordinary client.
    @Test func anOrdinaryClientIsNotStopped() {
        let dir = TemporaryDirectory()
        let scenario = dir.write("one.yaml", Self.one)
        let ordinary = PushSim.command(["sweep", scenario, "--vary", "mail.rate=30/d,60/d", "--no-write", "--max-events", "1e5"],
                                       client: IntendedClient())
        expectEqual(ordinary.status, 0, "\(ordinary.errors)")
        let traced = PushSim.command(["trace", scenario, "--device", "0", "--max-events", "1e5"], client: IntendedClient())
        expectEqual(traced.status, 0, "\(traced.errors)")
    }

    /// find ran the client unguarded, and printed what it found.
    @Test func aSearchIsStoppedBeforeItPrints() {
        let dir = TemporaryDirectory()
        let scenario = dir.write("one.yaml", Self.one)
        let result = Self.command(["find", scenario, "--fate", "delivered", "--queue", "on", "--max-events", "1e5"])
        Self.stopped(result)
        #expect(result.output.isEmpty, "\(result.output.prefix(200))")
    }

    /// An answer of thousands of ranges counted as one: 3 000 letters made 4.5 million ranges
    /// under --max-events 1e6. Each range beyond the first now counts.
    @Test func everyRangeOfAnAnswerCounts() {
        let dir = TemporaryDirectory()
        let scenario = dir.write("many.yaml", Self.one.replacingOccurrences(of: "rate: 60/d", with: "rate: 9000/d"))
        let started = Date()
        let result = PushSim.command(["run", scenario, "--no-write", "--max-events", "1e6"], client: ThousandsOfRanges(), name: "ThousandsOfRanges")
        Self.stopped(result, client: "ThousandsOfRanges")
        #expect(Date().timeIntervalSince(started) < 60)
    }
}
