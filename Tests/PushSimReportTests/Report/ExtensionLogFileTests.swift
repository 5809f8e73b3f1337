// `run --logs` on every bundled scenario: the rows are the telemetry's counts, read back they give the same summary, and threads change no byte.
import Foundation
import Testing
@testable import PushSimCore
@testable import PushSimExperiment
@testable import PushSimReport
@testable import PushSimScenarioFile
import PushSimTestSupport

@Suite struct ExtensionLogFileTests {
    static let bundled: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: SmallScenarios.directory.path)) ?? [])
        .filter { $0.hasSuffix(".yaml") }.map { String($0.dropLast(5)) }.sorted()

    @Test func everyBundledScenarioIsFound() {
        #expect(Self.bundled.count >= SmallScenarios.names.count)
    }

    /// Logging changes no count; the rows add up to the queue arm's telemetry; the CSV read back
    /// gives the same rows and so the same summary; --jobs 1 and 2 give the same bytes.
    @Test(arguments: bundled) func theLogOfABundledScenario(name: String) throws {
        let scenario = try SmallScenarios.load(name, devices: 16)
        let plain = Simulator.run(scenario, jobs: 1)
        let (result, rows) = Simulator.run(scenario, jobs: 1, logs: true)
        expectEqual(result, plain, "logging changed a count")
        let queueArm = result.arms.first { $0.arm == .on && scenario.recovery == .queue }
        if let ledger = queueArm?.ledger {
            let total = ExtensionLogSummary(rows).total
            expectEqual(total.pushes, ledger.pushesSeenByExtensions)
            expectEqual(total.gaps, ledger.gapsDetected)
            expectEqual(total.missed, ledger.missedInGaps)
            expectEqual(total.reRequests, ledger.reRequests)
        } else {
            #expect(rows.isEmpty, "a scenario without the queue arm logs nothing")
        }
        // By device, then in time order.
        #expect(zip(rows, rows.dropFirst()).allSatisfy { $0.device < $1.device || ($0.device == $1.device && $0.time <= $1.time) })
        let text = ExtensionLogCSV.rows(rows)
        let back = try ExtensionLogReader.read(bytes: Array(text.utf8), file: "\(name).csv")
        expectEqual(back, rows)
        expectEqual(ExtensionLogSummary(back), ExtensionLogSummary(rows))
        let (_, parallel) = Simulator.run(scenario, jobs: 2, logs: true)
        expectEqual(ExtensionLogCSV.rows(parallel), text, "--jobs 2 changed the log")
    }

    @Test func theHourlyFileHasAColumnPerFigure() {
        let rows = [LoggedPush(device: 0, time: 5, position: 1, gapSize: 0, answer: .none),
                    LoggedPush(device: 1, time: 6, position: 4, gapSize: 2, answer: .answered),
                    LoggedPush(device: 1, time: 3 * SimTime.hour, position: 9, gapSize: 4, answer: .timeout)]
        let lines = ExtensionLogCSV.hourly(ExtensionLogSummary(rows)).split(separator: "\n").map(String.init)
        #expect(lines == [
            "hour,pushes,gaps,gaps_per_push,missed,gaps_1,gaps_2,gaps_3_4,gaps_5_8,gaps_9_16,gaps_17_32,gaps_33_64,gaps_65_up,re_requests,answer_none,answer_summarized,answer_answered,answer_error,answer_timeout,answer_not_sent,answer_pending,devices",
            "0,2,1,0.500000,2,0,1,0,0,0,0,0,0,1,1,0,1,0,0,0,0,2",
            "3,1,1,1.000000,4,0,0,1,0,0,0,0,0,1,0,0,0,0,1,0,0,1",
        ])
    }

    @Test func theHourlyFileGoesBesideTheLog() {
        expectEqual(ExtensionLogCSV.hourlyPath(for: "out/logs.csv"), "out/logs.hourly.csv")
        expectEqual(ExtensionLogCSV.hourlyPath(for: "logs"), "logs.hourly.csv")
    }
}

@Suite struct ExtensionLogCSVTests {
    /// The digits are written by hand: the extremes read back as they were.
    @Test func extremeNumbersRoundTrip() throws {
        let rows = [LoggedPush(device: 0, time: 0, position: 1, gapSize: 0, answer: .none),
                    LoggedPush(device: Int(Int32.max), time: Int64.max, position: 1_000_000_007, gapSize: 10, answer: .pending)]
        let text = ExtensionLogCSV.rows(rows)
        expectEqual(text, "device,time_us,position,gap_found,gap_size,answer\n0,0,1,0,0,none\n2147483647,9223372036854775807,1000000007,1,10,pending\n")
        try expectEqual(ExtensionLogReader.read(bytes: Array(text.utf8), file: "x.csv"), rows)
    }
}
