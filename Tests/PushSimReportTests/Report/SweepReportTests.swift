// Tests of the sweep's files: the JSON document's shape and the tidy CSV.
import Foundation
import Testing
@testable import PushSimScenarioFile
@testable import PushSimExperiment
@testable import PushSimReport
@testable import PushSimCore
import PushSimTestSupport

@Suite struct SweepReportTests {
    static let result: SweepResult = {
        let axes = [SweepFixture.axis, SweepAxis(path: "apns.loss", values: ["0", "5%"])]
        // The fixture is valid, so the plan cannot fail; an empty result would fail every test.
        guard let plan = try? SweepFixture.plan(axes, replications: 2) else {
            return SweepResult(scenario: "", axes: [], seeds: [], points: [])
        }
        return SweepRunner.run(plan)
    }()

    @Test func jsonHasTheContractShape() throws {
        let data = Data(Self.result.json.text.utf8)
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        expectEqual(root["scenario"] as? String, "sweep-fixture")
        expectEqual(root["replications"] as? Int, 2)
        let points = try #require(root["points"] as? [[String: Any]])
        expectEqual(points.count, 6)
        let set = try #require(points[5]["set"] as? [String: Any])
        expectEqual(set["queue.repeat_max_count"] as? Int, 50)
        expectEqual(set["apns.loss"] as? String, "5%")
        let runs = try #require(points[0]["runs"] as? [[String: Any]])
        expectEqual(runs.map { $0["queue"] as? String }, ["off", "on"])
        let loss = try #require(runs[1]["loss_rate"] as? [String: Any])
        #expect(loss["mean"] is Double && loss["ci95"] is Double)
        let p90 = try #require((runs[1]["latency_s"] as? [String: Any])?["p90"] as? [String: Any])
        #expect(p90["mean"] != nil && p90["ci95"] != nil)
        #expect((runs[1]["telemetry"] as? [String: Any])?["estimated_loss_rate"] != nil)
        #expect(runs[0]["re_requests"] == nil && runs[1]["re_requests"] != nil)
    }

    @Test func oneReplicationWritesANullInterval() throws {
        let result = SweepRunner.run(try SweepFixture.plan([], replications: 1))
        #expect(result.json.text.contains("\"loss_rate\":{\"ci95\":null,\"mean\":"))
    }

    @Test func csvHasOneRowPerPointArmAndReplicationPlusTwoSummaryRows() throws {
        let lines = Self.result.csv.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        let header = lines[0].split(separator: ",").map(String.init)
        expectEqual(Array(header.prefix(7)), ["kind", "point", "queue.repeat_max_count", "apns.loss", "queue", "replication", "seed"])
        #expect(header.contains("loss_rate") && header.contains("latency_s.p99") && header.contains("resent_per_letter"))
        // 6 points × 2 arms × (2 runs + mean + ci95 + diff_mean + diff_ci95).
        expectEqual(lines.count, 1 + 6 * 2 * 6)
        #expect(lines.dropFirst().allSatisfy { $0.split(separator: ",", omittingEmptySubsequences: false).count == header.count })
        let kinds = lines.dropFirst().map { $0.split(separator: ",").first.map(String.init) ?? "" }
        expectEqual(Array(kinds.prefix(6)), ["run", "run", "mean", "ci95", "diff_mean", "diff_ci95"])
        #expect(lines[1].hasPrefix("run,0,0,0,off,0,5,"))
    }

    @Test func csvQuotesFieldsWithCommas() {
        expectEqual(SweepCSV.field("uniform(1s, 2s)"), "\"uniform(1s, 2s)\"")
        expectEqual(SweepCSV.field("say \"hi\", then"), "\"say \"\"hi\"\", then\"")
        expectEqual(SweepCSV.number(12), "12")
        expectEqual(SweepCSV.number(0.25), "0.25")
    }

    @Test func markdownListsEveryPointAndArm() {
        let md = Self.result.markdown
        #expect(md.contains("| `queue.repeat_max_count` | `apns.loss` | queue | loss rate |"))
        // Once in the table, once in the harms and costs, once in the comparison with the reference.
        expectEqual(md.components(separatedBy: "\n| 50 | 5% | on |").count, 4)
        #expect(md.contains("![Letters lost](loss_rate.svg)"))
    }
}
