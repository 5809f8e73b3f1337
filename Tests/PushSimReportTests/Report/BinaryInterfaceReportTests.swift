// The binary interface's counts in the documents: the arm's `binary` object, table rows, partial results, sweep metrics.
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
@testable import PushSimExperiment
@testable import PushSimReport
import PushSimTestSupport

@Suite struct BinaryInterfaceReportTests {
    /// An arm whose connections wrote 40 notifications: 2 errors, 5 discarded, 3 of them rewritten,
    /// one letter rejected and two discarded for good.
    private func binaryArm(_ arm: Arm) -> ArmResult {
        var l = Ledger()
        l.record(.delivered(latency: 1_000_000)); l.record(.lost(.rejected))
        l.record(.lost(.connectionDiscard)); l.record(.lost(.connectionDiscard))
        l.binary.written = 40; l.binary.errors = 2; l.binary.discarded = 5; l.binary.rewritten = 3
        return ArmResult(arm, ledger: l)
    }

    private func object(_ value: JSONValue?) -> [String: JSONValue] {
        guard case .object(let members)? = value else { return [:] }
        return members
    }

    @Test func armCarriesBinaryOnlyWhenWritten() {
        let arm = object(binaryArm(.off).json())
        expectEqual(object(arm["binary"]), ["written": .int(40), "errors": .int(2), "discarded": .int(5), "rewritten": .int(3)])
        let causes = object(arm["causes"])
        #expect(causes["rejected"] == .int(1) && causes["connection_discard"] == .int(2))
        // Under HTTP/2 nothing is written on a connection: no `binary`, the two causes at 0.
        var http2 = Ledger()
        http2.record(.delivered(latency: 5))
        let plain = object(ArmResult(.off, ledger: http2).json())
        #expect(plain["binary"] == nil)
        #expect(object(plain["causes"])["rejected"] == .int(0) && object(plain["causes"])["connection_discard"] == .int(0))
        // The writer sorts keys: `binary`'s four in alphabetical order.
        #expect(JSONValue.object(["binary": arm["binary"] ?? .null]).text
                == #"{"binary":{"discarded":5,"errors":2,"rewritten":3,"written":40}}"#)
    }

    @Test func tableHasBinaryRowsOnlyWhenWritten() {
        let result = RunResult(scenario: "b", seed: 1, arms: [binaryArm(.off), binaryArm(.on)], devices: 0..<1, totalDevices: 1)
        let rows = ReportTable(result).rows
        #expect(rows.contains(["  written again from the resend buffer", "3", "3"]))
        #expect(rows.contains(["  rejected", "1", "1"]) && rows.contains(["  connection_discard", "2", "2"]))
        var http2 = result
        for i in http2.arms.indices {
            http2.arms[i].ledger.binary.written = 0
        }
        #expect(!ReportTable(http2).rows.contains { $0.first == "APNs' binary interface" })
    }

    @Test func partialResultsCarryTheBinaryCounts() throws {
        var part = try #require(try HostileParts.parts(count: 1).first)
        part.result.arms = part.result.arms.map { binaryArm($0.arm) }
        let read = try #require(try PartialResult.read(part.json.text, source: "p").first)
        expectEqual(read, part)
        #expect(read.result.arms.allSatisfy { $0.ledger.binary.rewritten == 3 && $0.ledger.count(of: .connectionDiscard) == 2 })
    }

    @Test func sweepMetricsCountRewritesPerLetter() {
        let metrics = ArmMetrics(binaryArm(.off))
        expectEqual(metrics.values["rewrites_per_letter"], 3.0 / 4.0)
        #expect(metrics.values["binary.written"] == 40 && metrics.values["causes.connection_discard"] == 2)
        var http2 = Ledger()
        http2.record(.delivered(latency: 5))
        #expect(ArmMetrics(ArmResult(.off, ledger: http2)).values["rewrites_per_letter"] == nil)
    }

    /// A binary run is cut by partitions but has no XIVA queue to chart: `run` and `merge` write
    /// the queue's series only with a finite capacity.
    @Test func onlyAFiniteCapacityWritesTheQueueChart() throws {
        let binary = try ScenarioLoader.parse(text: minimalScenario + "apns: {interface: binary}\nxiva: {partitions: 2}\n", file: "t.yaml")
        let capacity = try ScenarioLoader.parse(text: minimalScenario + "xiva: {capacity: 10/s, partitions: 2}\n", file: "t.yaml")
        let result = RunResult(scenario: "t", seed: 1, arms: [binaryArm(.off), binaryArm(.on)], devices: 0..<10, totalDevices: 10)
        expectEqual(RunSummary.files(result, scenario: binary).map(\.name), ["summary.json", "summary.md", "load.csv", "load.svg", "costs.svg", "report.html"])
        #expect(RunSummary.files(result, scenario: capacity).map(\.name).contains(XivaQueueReport.csvName))
        #expect(!Provenance(binary).xivaCapacityIsFinite && Provenance(capacity).xivaCapacityIsFinite)
    }
}
