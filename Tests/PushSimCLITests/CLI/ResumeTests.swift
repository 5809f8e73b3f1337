// Resumable experiments: a sweep or an optimization stopped midway goes on with --resume from the runs it finished.
import Foundation
import Testing
@testable import PushSimReport
@testable import PushSimExperiment
@testable import PushSimCore
import PushSimTestSupport

private let quickstart = SmallScenarios.path("quickstart")
private let sweepArguments = ["sweep", quickstart, "--set", "devices=40", "--jobs", "1",
                              "--vary", "queue.repeat_max_count=0,5", "--replications", "2"]
private let optimizeArguments = ["optimize", quickstart, "--set", "devices=40", "--jobs", "1",
                                 "--over", "queue.repeat_max_count=0,5", "--first-stage", "2", "--max-replications", "3",
                                 "--indifference", "0.5%"]

/// The record files kept beside `out` (in `.NAME.runs/`).
private func records(of out: String) -> [String] {
    let folder = RunStore.folderName(for: (out as NSString).lastPathComponent)
    let path = ((out as NSString).deletingLastPathComponent as NSString).appendingPathComponent(folder)
    return ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted().map { (path as NSString).appendingPathComponent($0) }
}

@Suite(.serialized) struct ResumeTests {
    /// Stopped after half its runs (by Ctrl-C, or killed as by a crash), the sweep resumed
    /// writes the same bytes as one never stopped, and says what it computed and reused.
    @Test(arguments: ["int", "kill"])
    func aSweepStoppedHalfwayAndResumedWritesTheSameBytes(_ how: String) throws {
        let dir = TemporaryDirectory()
        let full = dir.file("full"), part = dir.file("part")
        try expectEqual(BuiltTool.run(sweepArguments + ["--out", full]).status, 0)
        let stopped = try BuiltTool.run(sweepArguments + ["--out", part], environment: ["PUSHSIM_TEST_STOP_AFTER_RUNS": "2:\(how)"])
        expectEqual(stopped.status, (how == "int" ? 130 : 9), "\(stopped.status) \(stopped.error)")
        #expect(!FileManager.default.fileExists(atPath: part), "the results folder is untouched until the set is written")
        expectEqual(records(of: part).count, 2)
        if how == "int" { #expect(stopped.error.contains("the runs finished are kept in"), "\(stopped.error)") }
        let resumed = try BuiltTool.run(sweepArguments + ["--out", part, "--resume"])
        expectEqual(resumed.status, 0, "\(resumed.error)")
        #expect(resumed.error.contains("sweep: computed 2 runs, reused 2"), "\(resumed.error)")
        expectEqual(besidesCommand(snapshot(part)), besidesCommand(snapshot(full)))
        #expect(records(of: part).isEmpty, "the records are removed once the results are written")
    }

    @Test func anOptimizationKilledMidwayAndResumedChoosesAlike() throws {
        let dir = TemporaryDirectory()
        let full = dir.file("full"), part = dir.file("part")
        try expectEqual(BuiltTool.run(optimizeArguments + ["--out", full]).status, 0)
        let stopped = try BuiltTool.run(optimizeArguments + ["--out", part], environment: ["PUSHSIM_TEST_STOP_AFTER_RUNS": "3:kill"])
        expectEqual(stopped.status, 9, "\(stopped.error)")
        expectEqual(records(of: part).count, 3)
        let resumed = try BuiltTool.run(optimizeArguments + ["--out", part, "--resume"])
        expectEqual(resumed.status, 0, "\(resumed.error)")
        #expect(resumed.error.contains("reused 3"), "\(resumed.error)")
        expectEqual(besidesCommand(snapshot(part)), besidesCommand(snapshot(full)))
    }

    /// A calibration killed after a few simulations and resumed fits the same values, byte for byte.
    @Test func aCalibrationKilledMidwayAndResumedFitsAlike() throws {
        let dir = TemporaryDirectory()
        let scenario = CalibrationFixture.file(in: dir)
        let observed = dir.file("obs.json")
        try expectEqual(BuiltTool.run(["run", scenario, "--set", "devices=60", "--set", "seed=3", "--observe", observed, "--no-write"]).status, 0)
        let calibrate = ["calibrate", scenario, "--set", "devices=60", "--observed", observed,
                         "--fit", "device.alerts_off=0..0.5", "--max-evaluations", "8", "--jobs", "1"]
        let full = dir.file("full"), part = dir.file("part")
        try expectEqual(BuiltTool.run(calibrate + ["--out", full]).status, 0)
        let stopped = try BuiltTool.run(calibrate + ["--out", part], environment: ["PUSHSIM_TEST_STOP_AFTER_RUNS": "4:kill"])
        expectEqual(stopped.status, 9, "\(stopped.error)")
        expectEqual(records(of: part).count, 4)
        let resumed = try BuiltTool.run(calibrate + ["--out", part, "--resume"])
        expectEqual(resumed.status, 0, "\(resumed.error)")
        #expect(resumed.error.contains("reused 4"), "\(resumed.error)")
        expectEqual(besidesCommand(snapshot(part)), besidesCommand(snapshot(full)))
        #expect(records(of: part).isEmpty)
    }

    /// A damaged record, one of another version, one whose name is another run's: each refused
    /// before anything runs, naming the file; nothing is written.
    @Test func recordsThatCannotBeTrustedAreRefusedNamingTheFile() throws {
        let dir = TemporaryDirectory()
        let part = dir.file("part")
        let stopped = try BuiltTool.run(sweepArguments + ["--out", part], environment: ["PUSHSIM_TEST_STOP_AFTER_RUNS": "2:kill"])
        expectEqual(stopped.status, 9)
        let kept = records(of: part)
        try #require(kept.count == 2)
        let texts = try kept.map { try String(contentsOfFile: $0, encoding: .utf8) }
        func refused(_ expected: String) throws {
            let resumed = try BuiltTool.run(sweepArguments + ["--out", part, "--resume"])
            expectEqual(resumed.status, 2, "\(resumed.error)")
            #expect(resumed.error.contains(kept[0]) && resumed.error.contains(expected), "\(resumed.error)")
            #expect(!FileManager.default.fileExists(atPath: part))
        }
        // A count changed after it was written: the checksum no longer matches.
        try texts[0].replacingOccurrences(of: "\"delivered\":", with: "\"delivered\":1").write(toFile: kept[0], atomically: true, encoding: .utf8)
        try refused("a damaged stored run")
        try "{\"version\":\"0.0.1\"".write(toFile: kept[0], atomically: true, encoding: .utf8)
        try refused("a damaged stored run: not valid JSON")
        try texts[0].replacingOccurrences(of: "\"version\":\"\(PushSimVersion.current)\"", with: "\"version\":\"0.0.1\"")
            .write(toFile: kept[0], atomically: true, encoding: .utf8)
        try refused("a run stored by pushsim 0.0.1, but this is pushsim \(PushSimVersion.current)")
        // The other run's record under this one's name.
        try texts[1].write(toFile: kept[0], atomically: true, encoding: .utf8)
        try refused("not the run its name says")
        // Without --resume the experiment starts afresh, whatever was kept.
        let afresh = try BuiltTool.run(sweepArguments + ["--out", part])
        expectEqual(afresh.status, 0, "\(afresh.error)")
        #expect(records(of: part).isEmpty)
    }

    /// A stored run read back is the run: the same ledgers, the same metrics (every design's too).
    @Test func aStoredRunReadBackMeasuresAsTheRun() throws {
        let dir = TemporaryDirectory()
        for recovery in ["queue", "catch_up", "background_sync"] {
            var scenario = try SmallScenarios.load("quickstart", devices: 30, extra: ["recovery=\(recovery)", "device.app_open=exponential(4h)"])
            scenario.seed = 7
            let out = dir.file("out-\(recovery)")
            let writing = try RunStore(directory: out, resume: false, writes: true)
            let run = try writing.run(scenario, jobs: 1)
            let reading = try RunStore(directory: out, resume: true, writes: true)
            let again = try reading.run(scenario, jobs: 1)
            #expect((writing.computed, writing.reused, reading.computed, reading.reused) == (1, 0, 0, 1))
            expectEqual(again, run)
            expectEqual(again.arms.map(\.recovery), run.arms.map(\.recovery))
            expectEqual(SweepMetricNames.measure(again), SweepMetricNames.measure(run), "\(recovery)")
            var other = scenario
            other.seed = 8
            _ = try reading.run(other, jobs: 1)
            expectEqual(reading.computed, 1, "another seed is another run")
        }
    }
}
