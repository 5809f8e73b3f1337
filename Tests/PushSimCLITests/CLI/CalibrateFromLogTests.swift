// An observation file's `extension_log`: calibrate reads a team's raw extension log through the summary `run --logs` writes; a bad row is located.
import Foundation
import Testing
@testable import PushSimCLI
@testable import PushSimCore
@testable import PushSimExperiment
@testable import PushSimReport
@testable import PushSimScenarioFile
import PushSimTestSupport

@Suite struct CalibrateFromLogTests {
    /// The hourly summary file `run --logs` writes beside the log, read back as a team would:
    /// gap sizes over every gap, gaps per push summed by hour of day.
    static func observations(fromHourly text: String) -> CalibrationObservations {
        let lines = text.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let columns = lines[0]
        func column(_ name: String) -> Int { columns.firstIndex(of: name)! }
        var byHour = Array(repeating: (pushes: 0, gaps: 0), count: 24)
        var sizes = Array(repeating: 0, count: CalibrationObservations.gapSizeCategories.count)
        for row in lines.dropFirst() {
            let hour = Int(row[column("hour")])! % 24
            byHour[hour].pushes += Int(row[column("pushes")])!
            byHour[hour].gaps += Int(row[column("gaps")])!
            for (b, name) in CalibrationObservations.gapSizeCategories.enumerated() { sizes[b] += Int(row[column(name)])! }
        }
        let gaps = sizes.reduce(0, +)
        var out = CalibrationObservations()
        if gaps > 0 {
            out.gapSizes = ObservedShares(shares: zip(CalibrationObservations.gapSizeCategories, sizes).map { .init(category: $0, value: Double($1) / Double(gaps)) },
                                          sampleSize: Double(gaps))
        }
        out.gapsPerPush = byHour.enumerated().filter { $0.element.pushes > 0 }.map {
            ObservedGapsPerPush(hour: $0.offset, value: Double($0.element.gaps) / Double($0.element.pushes), pushes: Double($0.element.pushes))
        }
        return out
    }

    /// `run --logs`, then an observation file naming the log (relative to itself): the same
    /// gap sizes and gaps per push by hour as the hourly summary file, and calibrate runs on it.
    @Test func aLogRecoversTheSummarysObservations() throws {
        let dir = TemporaryDirectory()
        let scenario = CalibrationFixture.file(in: dir)
        let logs = dir.file("logs.csv")
        let run = runPushsim(["run", scenario, "--no-write", "--jobs", "1", "--set", "devices=40", "--logs", logs])
        expectEqual(run.status, 0, "\(run.err)")
        let observed = dir.write("obs.json", "{\"extension_log\": \"logs.csv\"}")
        let fromLog = try ObservationFile.read(path: observed)
        let fromSummary = Self.observations(fromHourly: try String(contentsOfFile: dir.file("logs.hourly.csv"), encoding: .utf8))
        expectEqual(fromLog, fromSummary)
        #expect(fromLog.gapSizes != nil && fromLog.gapsPerPush.count == 24)
        // What a simulated run's log gives calibrate is the same summary.
        let loaded = try ScenarioLoader.load(path: scenario, overrides: ["devices=40"])
        let (result, rows) = Simulator.run(loaded, logs: true)
        let measured = CalibrationObservations.measured(result, logs: rows, scenario: loaded, byHour: true)
        expectEqual(measured.gapSizes, fromLog.gapSizes)
        expectEqual(measured.gapsPerPush, fromLog.gapsPerPush)
        // And calibrate fits from it.
        let fit = runPushsim(["calibrate", scenario, "--observed", observed, "--fit", "connectivity.offline.median=10m..2h",
                              "--set", "devices=40", "--max-evaluations", "3", "--replications", "2", "--jobs", "1", "--json", "--no-write"])
        expectEqual(fit.status, 0, "\(fit.err)")
        #expect(fit.out.contains("gap_sizes.gaps_1") && fit.out.contains("gaps_per_push.hour_23"))
    }

    /// A bad row of the log: exit 2, `FILE.csv:LINE:COLUMN`, nothing written.
    @Test(arguments: [
        ("device,time_us,position,gap_found,gap_size,answer\n1,100,1,0,0,none\n2,200,x,0,0,none\n", "logs.csv:3:7", "`position`"),
        ("device,time_us,position,gap_found,gap_size,answer\n1,100,4,1,0,answered\n", "logs.csv:2:11", "`gap_size`"),
        ("device,time,position\n", "logs.csv:1:1", "expected the header"),
    ])
    func aBadRowIsLocated(log: String, location: String, words: String) throws {
        let dir = TemporaryDirectory()
        _ = dir.write("logs.csv", log)
        CalibrateCommandTests.expectRefused(in: dir, observed: dir.write("obs.json", "{\"extension_log\": \"logs.csv\"}"),
                                            fit: "device.alerts_off=0..0.4", location: location, words: words)
    }

    /// The key itself: a path that is not a string, a log that is missing or empty, and figures
    /// given twice (from the log and by hand) are refused at the observation file's place.
    @Test(arguments: [
        ("{\"extension_log\": 3}", "obs.json:1:2", "a string"),
        ("{\"extension_log\": \"missing.csv\"}", "obs.json:1:2", "cannot read the extension log"),
        ("{\"extension_log\": \"empty.csv\"}", "obs.json:1:2", "has no rows"),
        ("{\"extension_log\": \"empty.csv\",\n \"gap_sizes\": {\"gaps\": 5, \"shares\": {\"gaps_1\": 1}}}", "obs.json:2:2", "give one or the other"),
    ])
    func badLogKeys(text: String, location: String, words: String) throws {
        let dir = TemporaryDirectory()
        _ = dir.write("empty.csv", "device,time_us,position,gap_found,gap_size,answer\n")
        let observed = dir.write("obs.json", text)
        #expect {
            _ = try ObservationFile.read(path: observed)
        } throws: { error in
            let text = "\(error)"
            return text.contains(location) && text.contains(words)
        }
    }
}
