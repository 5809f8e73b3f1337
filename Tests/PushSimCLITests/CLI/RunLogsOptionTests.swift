// `pushsim run --logs FILE.csv`: the log and its hourly summary written, the same bytes on any --jobs, nonsense refused with nothing written.
import Foundation
import Testing
@testable import PushSimCLI
@testable import PushSimCore
@testable import PushSimReport
@testable import PushSimScenarioFile
import PushSimTestSupport

@Suite struct RunLogsOptionTests {
    private let quickstart = SmallScenarios.path("quickstart")
    private let small = ["--set", "devices=12"]

    @Test func theLogAndItsHourlySummaryAreWritten() throws {
        let dir = TemporaryDirectory()
        let logs = dir.file("logs.csv")
        let run = runPushsim(["run", quickstart, "--json", "--no-write", "--jobs", "1", "--logs", logs] + small)
        expectEqual(run.status, 0, "\(run.err)")
        expectEqual(dir.listing, ["logs.csv", "logs.hourly.csv"])
        // The JSON is the run's without --logs, byte for byte.
        let plain = runPushsim(["run", quickstart, "--json", "--no-write", "--jobs", "1"] + small)
        expectEqual(run.out, plain.out)
        let rows = try ExtensionLogReader.read(path: logs)
        #expect(!rows.isEmpty)
        let hourly = try String(contentsOfFile: dir.file("logs.hourly.csv"), encoding: .utf8)
        expectEqual(hourly, ExtensionLogCSV.hourly(ExtensionLogSummary(rows)))
        // Two threads: the same bytes.
        let again = dir.file("again.csv")
        expectEqual(runPushsim(["run", quickstart, "--no-write", "--jobs", "2", "--logs", again] + small).status, 0)
        try expectEqual(String(contentsOfFile: again, encoding: .utf8), String(contentsOfFile: logs, encoding: .utf8))
    }

    /// A folder, a path ending with `/`, the scenario file itself, a shard: refused before any
    /// work (exit 2), nothing written, the results folder included.
    @Test func nonsenseIsRefusedAndNothingIsWritten() throws {
        let dir = TemporaryDirectory()
        let folder = dir.file("a-folder")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let scenario = dir.write("copy.yaml", try String(contentsOfFile: quickstart, encoding: .utf8))
        let before = dir.listing
        let cases: [([String], String)] = [
            (["--logs", folder], "it is a folder"),
            (["--logs", dir.file("logs/")], "names a folder"),
            (["--logs", scenario], "this command reads"),
            (["--logs", dir.file("x.csv"), "--shard", "1/2"], "--shard"),
        ]
        for (extra, words) in cases {
            let run = runPushsim(["run", scenario, "--out", dir.file("results")] + small + extra)
            expectEqual(run.status, 2, "\(extra): \(run.err)")
            #expect(run.err.contains(words), "\(extra): \(run.err)")
            expectEqual(dir.listing, before, "\(extra) wrote something")
        }
        // The hourly file's path is checked too.
        try FileManager.default.createDirectory(atPath: dir.file("x.hourly.csv"), withIntermediateDirectories: false)
        let run = runPushsim(["run", scenario, "--out", dir.file("results"), "--logs", dir.file("x.csv")] + small)
        #expect(run.status == 2 && run.err.contains("x.hourly.csv"), "\(run.err)")
        #expect(!FileManager.default.fileExists(atPath: dir.file("x.csv")) && !FileManager.default.fileExists(atPath: dir.file("results")))
    }

    /// A bad row of a log read back is a located error the command line shows as it is, with
    /// exit status 2 (the path `calibrate` will take).
    @Test func aBadLogRowIsALocatedBadInput() throws {
        let dir = TemporaryDirectory()
        let path = dir.write("team.csv", "device,time_us,position,gap_found,gap_size,answer\n0,5,1,0,0,none\n0,9,3,1,1,maybe\n")
        let before = dir.listing
        do {
            _ = try ExtensionLogReader.read(path: path)
            Issue.record("the bad row was read")
        } catch {
            let failure = InputError(error)
            expectEqual(failure.exitStatus, ExitStatus.badInput.code)
            expectEqual(failure.exitStatus, 2)
            #expect(failure.text(command: RunCommand.spec).hasPrefix("\(path):3:11: `answer`"), "\(failure.text(command: RunCommand.spec))")
        }
        expectEqual(dir.listing, before)
    }
}
