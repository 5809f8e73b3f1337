// The built pushsim under hostile conditions: /dev/full, kills between the steps of a result write, floods, concurrent writers.
import Foundation
import Testing
@testable import PushSimReport
@testable import PushSimCLI
@testable import PushSimCore
import PushSimTestSupport

/// Runs the built `pushsim` with an environment and, optionally, standard output sent to a file.
private func pushsim(_ arguments: [String], environment: [String: String] = [:], stdoutPath: String? = nil,
                     stdinPath: String? = nil) throws -> (status: Int32, output: String, error: String) {
    let url = try BuiltTool.required()
    let process = Process()
    process.executableURL = url
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let out = Pipe(), err = Pipe()
    if let stdoutPath, let handle = FileHandle(forWritingAtPath: stdoutPath) {
        process.standardOutput = handle
    } else {
        process.standardOutput = out
    }
    process.standardError = err
    if let stdinPath, let handle = FileHandle(forReadingAtPath: stdinPath) { process.standardInput = handle }
    try process.run()
    let output = stdoutPath == nil ? out.fileHandleForReading.readDataToEndOfFile() : Data()
    let error = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: error, as: UTF8.self))
}

private let quickstart = SmallScenarios.path("quickstart")
private let small = ["--set", "devices=6", "--jobs", "1"]


/// A folder's files with report.html's command row taken out: two commands that write the same
/// results into other folders (or from shards) differ only there.
func besidesCommand(_ files: [String: Data]) -> [String: Data] {
    var files = files
    if let page = files["report.html"] {
        files["report.html"] = Data(String(decoding: page, as: UTF8.self).replacingOccurrences(
            of: #"<tr><th scope="row">command</th><td>.*?</td></tr>"#, with: "", options: .regularExpression).utf8)
    }
    return files
}

@Suite(.serialized) struct HostileCommandTests {
    @Test func aFullStandardOutputIsReportedNotATrap() throws {
        _ = try BuiltTool.required()
        guard FileManager.default.fileExists(atPath: "/dev/full") else { return }
        for extra in [["--json", "--no-write"], ["--json", "--shard", "0/2"], ["--no-write"]] {
            let run = try pushsim(["run", quickstart] + small + extra, stdoutPath: "/dev/full")
            expectEqual(run.status, 2, "\(extra): \(run.status) \(run.error)")
            #expect(run.error.contains("cannot write to standard output: No space left on device (the disk is full)"), "\(run.error)")
        }
    }

    @Test(arguments: ["0", "1"])
    func aKillBetweenAnyTwoStepsLeavesOneWholeSet(noExchange: String) throws {
        _ = try BuiltTool.required()
        let dir = TemporaryDirectory()
        let out = dir.file("out")
        try expectEqual(pushsim(["run", quickstart, "--out", out, "--seed", "1"] + small).status, 0)
        let before = besidesCommand(snapshot(out))
        let fresh = TemporaryDirectory()
        try expectEqual(pushsim(["run", quickstart, "--out", fresh.file("o"), "--seed", "2"] + small).status, 0)
        let after = besidesCommand(snapshot(fresh.file("o")))
        for step in ResultsWriteStep.allCases {
            let killed = try pushsim(["run", quickstart, "--out", out, "--seed", "2"] + small,
                                     environment: ["PUSHSIM_TEST_WRITER_STEP": "\(step.rawValue):kill", "PUSHSIM_TEST_NO_EXCHANGE": noExchange])
            #expect(killed.status == 9 || killed.status == 137 || killed.status == 0, "\(step): \(killed.status)")
            let now = besidesCommand(snapshot(out))
            // Killed between the two renames of the fallback, the folder is missing for a moment,
            // its new set parked whole: the next write (or here, the cleaning) puts it in place.
            if step == .betweenRenames && noExchange == "1" {
                ResultsOrphans.clean(name: "out", parent: dir.path, folder: out)
                expectEqual(besidesCommand(snapshot(out)), after, "\(step)")
            } else {
                #expect(now == before || now == after, "\(step): a mixed set \(now.keys.sorted())")
            }
            // The next write cleans whatever the dead one left.
            try expectEqual(pushsim(["run", quickstart, "--out", out, "--seed", "1"] + small).status, 0)
            expectEqual(besidesCommand(snapshot(out)), before)
            #expect(dir.listing == ["out", "out/costs.svg", "out/load.csv", "out/load.svg", "out/report.html", "out/summary.json", "out/summary.md"],
                    "\(step): \(dir.listing)")
        }
    }

    @Test func aSweepKilledMidwayLeavesTheOldSetWithItsCharts() throws {
        _ = try BuiltTool.required()
        let dir = TemporaryDirectory()
        let out = dir.file("out")
        let sweep = ["sweep", quickstart, "--out", out, "--vary", "apns.loss=0,0.1"] + small
        try expectEqual(pushsim(sweep).status, 0)
        let before = snapshot(out)
        #expect(before.keys.contains("loss_rate.svg") && before.keys.contains("sweep.csv"))
        let killed = try pushsim(sweep + ["--replications", "2"], environment: ["PUSHSIM_TEST_WRITER_STEP": "carried:kill"])
        #expect(killed.status != 0)
        expectEqual(snapshot(out), before)
    }

    @Test func sigtermWhileMergeOrCheckUpdateWritesFinishesTheSetThenExits143() throws {
        _ = try BuiltTool.required()
        let dir = TemporaryDirectory()
        var parts: [String] = []
        for k in 0..<2 {
            let part = try pushsim(["run", quickstart, "--shard", "\(k)/2", "--json"] + small)
            parts.append(dir.write("part-\(k).json", part.output))
        }
        let merged = try pushsim(["merge"] + parts + ["--out", dir.file("merged")],
                                 environment: ["PUSHSIM_TEST_WRITER_STEP": "files-written:term"])
        expectEqual(merged.status, 143, "\(merged.error)")
        #expect(merged.error.contains("pushsim: interrupted (SIGTERM): the merge was not finished"), "\(merged.error)")
        // The whole set is written (the load series' files too) before the signal is acted on.
        expectEqual(Set(snapshot(dir.file("merged")).keys), ["summary.json", "summary.md", "load.csv", "load.svg", "costs.svg", "report.html"])
        let baseline = dir.file("base/summary.json")
        let update = try pushsim(["check", quickstart, "--baseline", baseline, "--update"] + small,
                                 environment: ["PUSHSIM_TEST_WRITER_STEP": "carried:term"])
        expectEqual(update.status, 143, "\(update.error)")
        #expect(update.error.contains("interrupted (SIGTERM): the check of 'quickstart' was not finished"), "\(update.error)")
        expectEqual(Set(snapshot(dir.file("base")).keys), ["summary.json", "summary.md", "load.csv", "load.svg", "costs.svg", "report.html", "device-counts.csv"])
        #expect(!dir.listing.contains { $0.contains(".pushsim-") })
    }

    @Test func mergeWritesTheSameSummaryMarkdownAsRun() throws {
        _ = try BuiltTool.required()
        let dir = TemporaryDirectory()
        try expectEqual(pushsim(["run", quickstart, "--out", dir.file("run")] + small).status, 0)
        var parts: [String] = []
        for k in 0..<3 {
            parts.append(dir.write("p\(k).json", try pushsim(["run", quickstart, "--shard", "\(k)/3", "--json"] + small).output))
        }
        try expectEqual(pushsim(["merge", "--out", dir.file("merged")] + parts).status, 0)
        expectEqual(besidesCommand(snapshot(dir.file("run"))), besidesCommand(snapshot(dir.file("merged"))))
        #expect(String(decoding: snapshot(dir.file("merged"))["summary.md"] ?? Data(), as: UTF8.self).contains("6 devices × "))
    }

    @Test func mergeOfAnEndlessStreamStopsAtTheCap() throws {
        _ = try BuiltTool.required()
        let started = Date()
        let flood = try pushsim(["merge", "-"], stdinPath: "/dev/zero")
        expectEqual(flood.status, 2)
        #expect(flood.error.contains("standard input: cannot read the partial result: it holds more than 64 MiB"), "\(flood.error)")
        #expect(Date().timeIntervalSince(started) < 20)
        let folder = try pushsim(["merge", NSTemporaryDirectory()])
        #expect(folder.status == 2 && folder.error.contains("it is a folder, not a file"))
    }

    @Test func concurrentWritersIntoOneFolderNeverMixTheirFiles() throws {
        let url = try BuiltTool.required()
        let dir = TemporaryDirectory()
        let out = dir.file("out")
        for trial in 0..<6 {
            let processes = (0..<2).map { k -> Process in
                let p = Process()
                p.executableURL = url
                p.arguments = ["run", quickstart, "--out", out, "--seed", "\(100 + 2 * trial + k)"] + small
                p.standardOutput = FileHandle.nullDevice
                p.standardError = FileHandle.nullDevice
                return p
            }
            for p in processes { try p.run() }
            for p in processes { p.waitUntilExit(); expectEqual(p.terminationStatus, 0) }
            let json = (try? String(contentsOfFile: out + "/summary.json", encoding: .utf8)) ?? ""
            let markdown = (try? String(contentsOfFile: out + "/summary.md", encoding: .utf8)) ?? ""
            // The top-level seed (the resolved scenario inside holds one too, as a string).
            let object = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any]
            let seed = (object?["seed"] as? NSNumber).map { "\($0)" } ?? ""
            #expect(!seed.isEmpty && markdown.contains("seed \(seed) "), "trial \(trial): json seed \(seed)")
        }
        expectEqual(dir.listing, ["out", "out/costs.svg", "out/load.csv", "out/load.svg", "out/report.html", "out/summary.json", "out/summary.md"])
    }

    @Test func everyCommandThatRunsScenariosEstimatesFirst() throws {
        let dir = TemporaryDirectory()
        let baseline = dir.file("b/summary.json")
        let commands: [[String]] = [
            ["trace", quickstart, "--device", "0", "--max-events", "1000"],
            ["check", quickstart, "--baseline", baseline, "--max-events", "1000"],
            ["check", quickstart, "--baseline", baseline, "--update", "--max-events", "1000"],
            ["check", "--all", SmallScenarios.directory.path, "--results", dir.file("r"), "--max-events", "1000"],
            ["sweep", quickstart, "--vary", "apns.loss=0,0.1", "--out", dir.file("s"), "--max-events", "1000"],
            ["bench", "--devices", "1000", "--max-events", "1000"],
        ]
        for command in commands {
            let console = Console.capturing()
            let started = Date()
            let status = PushSimTool.main(command, console: console)
            expectEqual(status, 2, "\(command)")
            #expect(console.standardError.contains("over the limit of 1000 (--max-events)"), "\(command): \(console.standardError)")
            #expect(Date().timeIntervalSince(started) < 5, "\(command)")
        }
        #expect(dir.listing.isEmpty)
    }

    @Test func aHugeGridIsRefusedFromItsAxesInMilliseconds() throws {
        let dir = TemporaryDirectory()
        // Three axes of 1000 values: 10^9 points, from an 18 KB file.
        let list = { (f: (Int) -> String) in "[" + (0..<1000).map(f).joined(separator: ", ") + "]" }
        let file = dir.write("grid.yaml", "name: grid\nduration: 1d\ndevices: 3\nsweep:\n"
                             + "  queue.repeat_max_count: \(list { "\($0)" })\n  devices: \(list { "\($0 + 1)" })\n"
                             + "  xiva.drop: \(list { "\(Double($0) / 10_000)" })\n")
        let console = Console.capturing()
        let started = Date()
        expectEqual(PushSimTool.main(["sweep", file, "--no-write"], console: console), 2)
        #expect(console.standardError.contains("1000000000 points (1000 × 1000 × 1000)"), "\(console.standardError)")
        #expect(Date().timeIntervalSince(started) < 10)
    }

    @Test func sigintWhileTheGridIsBuiltSaysSo() throws {
        let url = try BuiltTool.required()
        let dir = TemporaryDirectory()
        let file = dir.write("g.yaml", "name: g\nduration: 1h\ndrain: 0\ndevices: 1\nmail:\n  rate: 1/h\n")
        let hundred = (0..<100).map { "\($0)" }.joined(separator: ",")
        let process = Process()
        process.executableURL = url
        // 10 000 points to build (a second or more in a debug build), then refused: no run starts.
        process.arguments = ["sweep", file, "--vary", "queue.repeat_max_count=\(hundred)",
                             "--vary", "xiva.drop=\((0..<100).map { "\(Double($0) / 1000)" }.joined(separator: ","))",
                             "--no-write", "--max-events", "1"]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        usleep(400_000)
        kill(process.processIdentifier, SIGINT)
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        // Had the machine built the grid before the signal, the sweep is refused (exit 2) instead.
        if process.terminationStatus == 130 {
            #expect(message.contains("interrupted (SIGINT): the sweep of 'g' was not finished (building its grid of 10000 points); nothing was written"), "\(message)")
        } else {
            expectEqual(process.terminationStatus, 2, "\(message)")
        }
    }

    @Test func escapesInWhatIsPrintedAreMadeVisible() throws {
        let console = Console.capturing()
        expectEqual(PushSimTool.main(["run", "\u{1B}[31mred\u{202E}.yaml"], console: console), 2)
        #expect(console.standardError.contains("\\u001B[31mred\\u202E.yaml"), "\(console.standardError)")
        #expect(!console.standardError.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x202E })
        expectEqual(TerminalText.sanitized("a\tb\nc\r"), "a\tb\nc\r")
        // Inside a JSON string the escape means the same character.
        let json = TerminalText.sanitized(JSONValue.object(["name": .string("x\u{202E}\u{7F}\u{85}")]).text)
        try expectEqual(JSONValue.parse(json), .object(["name": .string("x\u{202E}\u{7F}\u{85}")]))
    }
}
