// The fourth hostile round, the command side: a log over the results, the clock's end, weights
// that overflow, damaged baselines, and the messages that named the wrong thing.
import Foundation
import Testing
@testable import PushSimCLI
@testable import PushSimReport
import PushSimTestSupport

/// The issue's scratch scenario: 200 phones for a day, offline ~40 min every ~3 h (the later
/// hostile rounds start from it too).
let hostileScratchScenario = """
    name: base
    duration: 1d
    devices: 200
    mail:
      rate: 40/d
    connectivity:
      online: exponential(3h)
      offline: exponential(40m)

    """
private let base = hostileScratchScenario

/// A scenario of `duration` with almost nothing in it, so a run near the clock's end is quick.
private func sparse(_ duration: String) -> String {
    """
    name: sparse
    duration: \(duration)
    devices: 2
    mail:
      rate: 1/1000000d
    connectivity:
      online: exponential(100000d)
      offline: exponential(40m)

    """
}


@Suite(.serialized) struct HostileRoundFourCommandTests {
    /// `--logs o1/summary.json` wrote the log's rows over the results; `--logs o1` with `o1` not
    /// there yet wrote the results first and only then failed. Both are refused before the run.
    @Test func aLogThatIsOneOfTheResultsIsRefusedBeforeTheRun() {
        let dir = TemporaryDirectory()
        let scenario = dir.write("base.yaml", base)
        let out = dir.file("o1")
        expectEqual(runPushsim(["run", scenario, "--out", out]).status, 0)
        let before = snapshot(out)
        for name in ["summary.json", "summary.md", "load.csv", "load.svg"] {
            let result = runPushsim(["run", scenario, "--out", out, "--logs", out + "/" + name])
            expectEqual(result.status, 2, "\(name)")
            #expect(result.err.contains("cannot write '\(out)/\(name)' (--logs): it is the results' '\(name)' in '\(out)', which this command writes; give another path"), "\(result.err)")
        }
        expectEqual(snapshot(out), before)
        // The folder itself, not there yet: nothing is written.
        let fresh = dir.file("o2")
        let folder = runPushsim(["run", scenario, "--out", fresh, "--logs", fresh])
        expectEqual(folder.status, 2)
        #expect(folder.err.contains("cannot write '\(fresh)' (--logs): it is the results folder '\(fresh)' this command writes; give a path outside it"), "\(folder.err)")
        #expect(!FileManager.default.fileExists(atPath: fresh))
        // A folder holding the results, and the same place written two ways.
        let holding = runPushsim(["run", scenario, "--out", dir.file("o3/deep"), "--logs", dir.file("o3")])
        #expect(holding.status == 2 && holding.err.contains("it is a folder holding the results folder"), "\(holding.err)")
        #expect(!FileManager.default.fileExists(atPath: dir.file("o3")))
        let twice = runPushsim(["run", scenario, "--out", dir.file("./o1"), "--logs", dir.file("o1//summary.json")])
        expectEqual(twice.status, 2, "\(twice.err)")
        // A log beside the results in their folder is fine.
        expectEqual(runPushsim(["run", scenario, "--out", out, "--logs", out + "/logs.csv"]).status, 0)
        #expect(FileManager.default.fileExists(atPath: out + "/logs.hourly.csv"))
    }

    /// `--logs base.yaml/x.csv` was blamed on `--out`, an option the user never gave.
    @Test func aLogInsideAFileNamesTheLogNotTheResults() {
        let dir = TemporaryDirectory()
        let scenario = dir.write("base.yaml", base)
        let result = runPushsim(["run", scenario, "--no-write", "--logs", scenario + "/x.csv"])
        expectEqual(result.status, 2)
        #expect(result.err.contains("cannot write '\(scenario)/x.csv': '\(scenario)' is a file, not a folder; give another path"), "\(result.err)")
        #expect(!result.err.contains("--out"), "\(result.err)")
    }

    /// A bin near the clock's end trapped in the run's bin count and the chart's tick loop; a
    /// duration of 106 751 990 days in run and `check --update`; trace --svg of 95 million days.
    @Test func binsAndRunsNearTheClocksEndDoNotTrap() throws {
        let dir = TemporaryDirectory()
        let scenario = dir.write("base.yaml", base)
        for bin in ["106751991d", "106751990d"] {
            let result = runPushsim(["run", scenario, "--out", dir.file(bin), "--load-bin", bin])
            expectEqual(result.status, 0, "\(bin): \(result.err)")
            let svg = try String(contentsOfFile: dir.file(bin + "/load.svg"), encoding: .utf8)
            #expect(svg.components(separatedBy: "class=\"tick\"").count - 1 <= 41, "\(bin)")
        }
        let long = dir.write("long.yaml", sparse("106751990d"))
        expectEqual(runPushsim(["run", long, "--out", dir.file("long")]).status, 0)
        let update = runPushsim(["check", long, "--baseline", dir.file("b/summary.json"), "--update"])
        expectEqual(update.status, 0, "\(update.err)")
        let trace = dir.write("trace.yaml", sparse("95000000d"))
        let traced = runPushsim(["trace", trace, "--device", "0", "--svg", dir.file("t.svg")])
        expectEqual(traced.status, 0, "\(traced.err)")
        let ticks = try String(contentsOfFile: dir.file("t.svg"), encoding: .utf8).components(separatedBy: "text-anchor=\"middle\">").count
        #expect(ticks < 20)
    }

    /// Parts run with a bin near the clock's end merge, and their chart has few ticks.
    @Test func partsWithABinNearTheClocksEndMerge() throws {
        let dir = TemporaryDirectory()
        let scenario = dir.write("base.yaml", base)
        var parts: [String] = []
        for k in 0..<2 {
            let part = runPushsim(["run", scenario, "--shard", "\(k)/2", "--json", "--load-bin", "106751990d"])
            expectEqual(part.status, 0, "\(part.err)")
            parts.append(dir.write("part-\(k).json", part.out))
        }
        let merged = runPushsim(["merge"] + parts + ["--out", dir.file("m")])
        expectEqual(merged.status, 0, "\(merged.err)")
        #expect(FileManager.default.fileExists(atPath: dir.file("m/load.svg")))
    }

    /// `--load-bin 100000000d` drew 274 726 tick labels (steps stopped at 364 days).
    @Test func aChartOfCenturiesHasAtMostFortyTicksInYears() throws {
        let dir = TemporaryDirectory()
        let scenario = dir.write("base.yaml", base)
        expectEqual(runPushsim(["run", scenario, "--out", dir.file("o"), "--load-bin", "100000000d"]).status, 0)
        let svg = try String(contentsOfFile: dir.file("o/load.svg"), encoding: .utf8)
        let ticks = svg.components(separatedBy: "class=\"tick\"").count - 1
        #expect(ticks >= 2 && ticks <= 40, "\(ticks)")
        #expect(svg.contains(">year 0<") && svg.contains("years of 365 days"))
        #expect(svg.utf8.count < 100_000)
    }

    /// Hexadecimal weights were read as 16 (daily_profile refuses them), and weights whose
    /// weighted sum overflows were accepted: `optimize` chose a mean of `inf`.
    @Test func weightsFollowTheOneNumberGrammarAndStayBounded() {
        let dir = TemporaryDirectory()
        let scenario = dir.write("base.yaml", base)
        let hex = runPushsim(["validate", scenario, "--set", "objective.lost=0x10"])
        expectEqual(hex.status, 2)
        #expect(hex.err.contains("`objective.lost`: expected a weight ≥ 0 written in decimal digits such as `0.3` (no sign, exponent or hexadecimal), found `0x10`"), "\(hex.err)")
        let fileHex = runPushsim(["validate", dir.write("hex.yaml", base + "objective:\n  lost: 0x10\n")])
        #expect(fileHex.status == 2 && fileHex.err.contains("hex.yaml:10:"), "\(fileHex.err)")
        let optimize = ["optimize", scenario, "--over", "queue.repeat_max_count=5,10", "--indifference", "0.01", "--no-write"]
        for objective in ["lost=0x10", "lost=1e308,summarized=1e308", "lost=1,summarized=2000000000000"] {
            let result = runPushsim(optimize + ["--objective", objective])
            expectEqual(result.status, 2, "\(objective)")
            #expect(result.err.contains("--objective:1:"), "\(objective): \(result.err)")
        }
        let huge = runPushsim(["sweep", scenario, "--vary", "apns.loss=0,0.1", "--no-write", "--cost", "lost=1,resent=10000000000000"])
        expectEqual(huge.status, 2)
        #expect(huge.err.contains("--cost:1:15: --cost `resent`: expected a weight of at most 1000000000000 (only the weights' ratios matter: divide them all by the same number)"), "\(huge.err)")
        let fileHuge = runPushsim(["validate", dir.write("huge.yaml", base + "objective:\n  lost: 1e308\n")])
        #expect(fileHuge.status == 2 && fileHuge.err.contains("huge.yaml:10:"), "\(fileHuge.err)")
        // The grammar's own forms still read.
        expectEqual(runPushsim(["validate", scenario, "--set", "objective.lost=0.5", "--set", "objective.latency_p90=2/h"]).status, 0)
    }

    /// A baseline with a negative, string or null figure, another format, or figures too large
    /// to print was taken; with nothing left to compare, the gate printed a header and passed.
    @Test func benchRefusesADamagedBaselineAndAGateOverNothing() throws {
        let dir = TemporaryDirectory()
        let scenario = dir.write("base.yaml", base)
        let saved = runPushsim(["bench", scenario, "--repetitions", "1", "--json"])
        expectEqual(saved.status, 0, "\(saved.err)")
        guard case .object(let top)? = try? JSONValue.parse(saved.out), case .array(let rungs)? = top["rungs"],
              case .object(let rung)? = rungs.first else { Issue.record("no bench document"); return }
        func baseline(_ name: String, _ change: (inout [String: JSONValue], inout [String: JSONValue]) -> Void) -> String {
            var document = top, first = rung
            change(&document, &first)
            document["rungs"] = .array([.object(first)])
            return dir.write(name, JSONValue.object(document).text)
        }
        let cases: [(String, String)] = [
            (baseline("negative.json") { _, r in r["letters_per_cpu_s"] = .int(-5) }, "`rungs[0].letters_per_cpu_s`: expected a number from 0 to 10^15, found -5"),
            (baseline("string.json") { _, r in r["letters_per_cpu_s"] = .string("fast") }, "`rungs[0].letters_per_cpu_s`: expected a number from 0 to 10^15, found \"fast\""),
            (baseline("null.json") { _, r in r["letters_per_cpu_s"] = .null }, "`rungs[0].letters_per_cpu_s`: expected a number from 0 to 10^15, found null"),
            (baseline("format.json") { d, _ in d["format"] = .string("pushsim-bench/9") }, "`format`: expected \"pushsim-bench/1\", found \"pushsim-bench/9\""),
            (baseline("huge.json") { _, r in r["letters_per_s"] = .double(1e300) }, "`rungs[0].letters_per_s`: expected a number from 0 to 10^15, found"),
        ]
        for (path, message) in cases {
            let result = runPushsim(["bench", scenario, "--repetitions", "1", "--baseline", path])
            expectEqual(result.status, 2, "\(path)")
            #expect(result.err.contains(message), "\(path): \(result.err)")
            #expect(result.err.count < 400, "\(result.err)")
        }
        var zero = top
        zero["parallel"] = nil
        zero["rungs"] = .array(rungs.map { item in
            guard case .object(var r) = item else { return item }
            r["letters_per_s"] = .int(0); r["letters_per_cpu_s"] = .int(0)
            return .object(r)
        })
        let nothing = runPushsim(["bench", scenario, "--repetitions", "1", "--baseline", dir.write("zero.json", JSONValue.object(zero).text)])
        expectEqual(nothing.status, 2, "\(nothing.err)")
        #expect(nothing.err.contains("no rung could be compared"), "\(nothing.err)")
    }
}

/// The guards blind to calibrate and --logs, and the messages that named the wrong thing.
@Suite(.serialized) struct HostileRoundFourGuardTests {
    /// A small observation file for calibrate.
    static let observed = #"{"apns_console": {"pushes": 1000, "shares": {"delivered": 0.8, "delivered_from_storage": 0.1, "discarded_disabled": 0, "stored_device_offline": 0.1}}}"#

    /// calibrate's candidates ran unestimated: `--fit mail.rate=1/d..400000/d` made candidates of
    /// 140 M events under --max-events 1e6.
    @Test func calibrateEstimatesTheHeaviestCornerOfItsBox() {
        let dir = TemporaryDirectory()
        let scenario = dir.write("base.yaml", base)
        let observed = dir.write("obs.json", Self.observed)
        let result = runPushsim(["calibrate", scenario, "--observed", observed, "--no-write", "--max-events", "1e6",
                                 "--fit", "mail.rate=1/d..400000/d", "--fit", "device.alerts_off=0..0.5"])
        expectEqual(result.status, 2)
        #expect(result.err.contains("refusing to calibrate 'base': a candidate at the --fit box's corner (mail.rate=400000/d"), "\(result.err)")
        let memory = runPushsim(["calibrate", scenario, "--observed", observed, "--no-write", "--max-memory", "1G",
                                 "--fit", "mail.rate=1/d..1000000000/us"])
        #expect(memory.status == 2 && memory.err.contains("--fit box's corner"), "\(memory.err)")
        // Hundreds of --fit on one key each resolve the box twice, not every bound: the refusal is quick.
        let many = (0..<300).flatMap { _ in ["--fit", "device.alerts_off=0..0.5"] }
        let started = Date()
        let clash = runPushsim(["calibrate", scenario, "--observed", observed, "--no-write", "--max-events", "1"] + many)
        expectEqual(clash.status, 2)
        #expect(Date().timeIntervalSince(started) < 5)
    }

    /// A 900 MB extension log passed 3 GiB under --max-memory 1G: refused from its size.
    @Test func anExtensionLogIsRefusedFromItsSizeUnderTheMemoryLimit() throws {
        let dir = TemporaryDirectory()
        let scenario = dir.write("base.yaml", base)
        let log = dir.file("log.csv")
        #expect(FileManager.default.createFile(atPath: log, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        try handle.truncate(atOffset: 64 << 20)   // sparse: 64 MiB of nothing, never read
        try handle.close()
        let observed = dir.write("obs.json", #"{"extension_log": "log.csv"}"#)
        let result = runPushsim(["calibrate", scenario, "--observed", observed, "--no-write", "--max-memory", "256M",
                                 "--fit", "device.alerts_off=0..0.5"])
        expectEqual(result.status, 2)
        #expect(result.err.contains("the extension log \"\(log)\" is 67108864 bytes: reading it could take"), "\(result.err)")
        #expect(result.err.contains("over the limit of 256.0 MB (--max-memory)"), "\(result.err)")
    }

    /// `run --logs` peaked past --max-memory: the log's rows are counted.
    @Test func runWithLogsCountsTheRows() {
        let dir = TemporaryDirectory()
        let scenario = dir.write("base.yaml", base)
        let sets = ["--set", "devices=20000", "--set", "mail.rate=400/d", "--set", "queue.mode=on", "--max-memory", "1G", "--jobs", "1"]
        let without = runPushsim(["run", scenario, "--no-write", "--max-events", "1"] + sets)
        let with = runPushsim(["run", scenario, "--no-write", "--logs", dir.file("l.csv"), "--max-events", "1"] + sets)
        #expect(!without.err.contains("--logs (about"), "\(without.err)")
        #expect(with.err.contains("over the limit of 1.0 GB (--max-memory), most of it for --logs"), "\(with.err)")
        #expect(!FileManager.default.fileExists(atPath: dir.file("l.csv")))
    }

    /// The summary's times were not estimated: every 4 s over 300 days ran 7× past the estimate.
    @Test func theSummarysTimesAreEstimated() {
        let dir = TemporaryDirectory()
        let times = (0..<21_600).map { "      - \($0 * 4)s\n" }.joined()
        let scenario = dir.write("summary.yaml", base + "device:\n  notification_summary:\n    share: 1\n    times:\n" + times)
        let result = runPushsim(["run", scenario, "--no-write", "--set", "duration=300d", "--max-events", "1e9"])
        expectEqual(result.status, 2)
        #expect(result.err.contains("most of them from device.notification_summary"), "\(result.err)")
    }

    @Test func messagesNameWhatTheUserTyped() {
        let dir = TemporaryDirectory()
        let scenario = dir.write("base.yaml", base)
        let observed = dir.write("obs.json", Self.observed)
        let calibrate = ["calibrate", scenario, "--observed", observed, "--no-write"]
        // A bound past 2^53 was quoted back as another number and called out of range.
        let big = runPushsim(calibrate + ["--fit", "queue.repeat_max_count=0..9223372036854775807"])
        expectEqual(big.status, 2)
        #expect(big.err.contains("--fit:1:27: --fit `queue.repeat_max_count`: HIGH `9223372036854775807` is more than 2^53"), "\(big.err)")
        // A key of a section the file does not give: not "missing required key `times`".
        let section = runPushsim(calibrate + ["--fit", "device.notification_summary.share=0..1"])
        expectEqual(section.status, 2)
        #expect(section.err.contains("the scenario has no `device.notification_summary`"), "\(section.err)")
        #expect(!section.err.contains("missing required key"), "\(section.err)")
        // An observation of 1e308 made every candidate "invalid".
        let huge = runPushsim(["calibrate", scenario, "--observed", dir.write("huge.json", Self.observed.replacingOccurrences(of: "1000", with: "1e308")),
                               "--no-write", "--fit", "device.alerts_off=0..0.5"])
        expectEqual(huge.status, 2)
        #expect(huge.err.contains("of at most 10^15 (no observation counts more), found 1e+308"), "\(huge.err)")
        // optimize has no --replications, and its --over is not --vary.
        let optimize = ["optimize", scenario, "--indifference", "0.01", "--no-write"]
        let seed = runPushsim(optimize + ["--over", "seed=1,2"])
        expectEqual(seed.status, 2)
        #expect(seed.err.contains("--over:1:1: --over cannot vary `seed`"), "\(seed.err)")
        #expect(!seed.err.contains("--replications"), "\(seed.err)")
        let summary = dir.write("summary.yaml", base + "device:\n  notification_summary:\n    share: 0.5\n    times: [8h]\n")
        let share = runPushsim(["optimize", summary, "--indifference", "0.01", "--no-write", "--over", "device.notification_summary.share=0.5,1.5"])
        expectEqual(share.status, 2)
        #expect(share.err.hasPrefix("pushsim optimize: --over:1:") || share.err.hasPrefix("--over:1:"), "\(share.err)")
        // --first-stage 1 was shown as allowed, then refused.
        let first = runPushsim(optimize + ["--over", "queue.repeat_max_count=5,10", "--first-stage", "1"])
        expectEqual(first.status, 2)
        #expect(!first.err.contains("at least 2 (KN needs a variance), got 1") || !runPushsim(["help", "optimize"]).out.contains("1 … 10000"), "\(first.err)")
        // A memory limit of 0.4 bytes is 0 in whole bytes.
        let limit = runPushsim(["validate", scenario, "--set", "extension.media={share: 10%, size: 2KB, bandwidth: 1Mbit/s, memory_limit: 0.4B}"])
        expectEqual(limit.status, 2)
        #expect(limit.err.contains("found `0.4B` (0 in whole bytes)"), "\(limit.err)")
    }

    /// A merge of parts run with different --load-bin named two fingerprints.
    @Test func aMergeOfDifferentBinsNamesTheOption() {
        let dir = TemporaryDirectory()
        let scenario = dir.write("base.yaml", base)
        let parts = [("0/2", "1m"), ("1/2", "5m")].enumerated().map { n, shard in
            dir.write("p\(n).json", runPushsim(["run", scenario, "--shard", shard.0, "--json", "--load-bin", shard.1]).out)
        }
        let merged = runPushsim(["merge"] + parts)
        expectEqual(merged.status, 2)
        #expect(merged.err.contains("cannot merge shards of 'base' run with different --load-bin: 1m"), "\(merged.err)")
    }
}

/// The round's own hunt, on the command side.
@Suite struct HostileRoundFourHuntCommandTests {
    /// `xiva.partitions: +500` was read by Swift's Int (a sign is no digit of the grammar) and
    /// quoted back as `500`.
    @Test func partitionsFollowTheOneIntegerGrammar() {
        let dir = TemporaryDirectory()
        let scenario = dir.write("base.yaml", base)
        let signed = runPushsim(["validate", scenario, "--set", "xiva.partitions=+500"])
        expectEqual(signed.status, 2)
        #expect(signed.err.contains("expected an integer (decimal digits), found `+500`"), "\(signed.err)")
        let many = runPushsim(["validate", scenario, "--set", "xiva.partitions=500"])
        #expect(many.err.contains("found `500`: a partition holds at least one device"), "\(many.err)")
    }

    /// A link to the results folder and the folder's own path name one place.
    @Test func aLogNamedThroughALinkToTheResultsIsRefused() throws {
        let dir = TemporaryDirectory()
        let scenario = dir.write("base.yaml", base)
        expectEqual(runPushsim(["run", scenario, "--out", dir.file("o1")]).status, 0)
        try FileManager.default.createSymbolicLink(atPath: dir.file("link"), withDestinationPath: dir.file("o1"))
        let before = snapshot(dir.file("o1"))
        let result = runPushsim(["run", scenario, "--out", dir.file("link"), "--logs", dir.file("o1/load.csv")])
        #expect(result.status == 2 && result.err.contains("it is the results' 'load.csv'"), "\(result.err)")
        expectEqual(snapshot(dir.file("o1")), before)
    }
}
