// `check`'s small promises: --json says the text's words, the first --update gives no advice to
// run itself, --update --baseline PATH writes what docs/ci.md says, and one FILE finds its
// baseline where --all does.
import Foundation
import Testing
@testable import PushSimReport
@testable import PushSimCLI
@testable import PushSimCore
import PushSimTestSupport

@Suite(.serialized) struct CheckWordsAndPathsTests {
    typealias S = CheckTestSupport

    @Test func theJSONSaysTheWordsTheTextSays() {
        // Every verdict: the JSON value is the table's word (lower case, without parentheses).
        for verdict in [CheckVerdict.identical, .within, .better, .worse, .changed] {
            let row = CheckRow(arm: "on", metric: CheckMetrics.catalogue(PushSimCore.Arm.on)[1], baseline: 1, now: 1, tolerance: nil,
                               verdict: verdict)
            let word = CheckReport.verdictText(row).lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "()"))
            expectEqual(verdict.rawValue, word)
        }
        // Every outcome: the JSON value is the closing paragraph's first word.
        for outcome in [CheckOutcome.identical, .pass, .regression] {
            var report = CheckReport(scenario: "s", baselinePath: "b", baselineSeed: 1, seed: 1, rows: [])
            let metric = CheckMetrics.catalogue(PushSimCore.Arm.on)[1]
            switch outcome {
            case .identical: break
            case .pass: report.rows = [CheckRow(arm: "on", metric: metric, baseline: 1, now: 2, tolerance: 5, verdict: .within)]
            case .regression: report.rows = [CheckRow(arm: "on", metric: metric, baseline: 1, now: 9, tolerance: 1, verdict: .worse)]
            }
            expectEqual(report.outcome, outcome)
            #expect(report.verdictParagraph.lowercased().hasPrefix(outcome.rawValue + ":"), "\(report.verdictParagraph)")
        }
        // And the suite's: its line starts with the verdict's word.
        var suite = CheckSuiteReport()
        #expect(suite.verdictLine.lowercased().hasPrefix(suite.verdict.rawValue + ":"))
        suite.entries.append((file: "a.yaml", report: nil, error: "unreadable"))
        #expect(suite.verdictLine.lowercased().hasPrefix(suite.verdict.rawValue + ":"))
    }

    @Test func theFirstUpdateWritesWithoutAdvisingItself() throws {
        let folder = try S.temporaryFolder()
        defer { S.remove(folder) }
        let scenario = folder + "/s.yaml"
        try S.write(S.scenarioText(devices: 20), to: scenario)
        let baseline = folder + "/results/checktest/summary.json"
        let first = S.pushsim(["check", scenario, "--baseline", baseline, "--update", "--jobs", "1"])
        expectEqual(first.status, 0, "\(first.err)")
        #expect(first.err.contains("no baseline at \(baseline) yet; writing the first one"), "\(first.err)")
        #expect(!first.err.contains("--update") && !first.err.contains("pushsim run FILE"), "\(first.err)")
        // check --all --update says the same of each scenario.
        let scenarios = folder + "/scenarios"
        try S.write(S.scenarioText(name: "other", devices: 20), to: scenarios + "/other.yaml")
        let all = S.pushsim(["check", "--all", scenarios, "--results", folder + "/r", "--update", "--jobs", "1"])
        #expect(all.status == 0 && all.err.contains("yet; writing the first one") && !all.err.contains("--update"), "\(all.err)")
    }

    @Test func updateWithABaselinePathWritesWhatTheDocsSay() throws {
        let (folder, scenario, runBaseline) = try S.scenarioWithBaseline(S.scenarioText(devices: 20))
        defer { S.remove(folder) }
        // A path named summary.json: the set `pushsim run` writes there, summary.md beside it.
        let set = folder + "/elsewhere/summary.json"
        expectEqual(S.pushsim(["check", scenario, "--baseline", set, "--update", "--jobs", "1"]).status, 0)
        expectEqual(S.read(set), S.read(runBaseline))
        let runMarkdown = (runBaseline as NSString).deletingLastPathComponent + "/summary.md"
        expectEqual(S.read(folder + "/elsewhere/summary.md"), S.read(runMarkdown))
        // Any other name: that one JSON document (summary.json's bytes), nothing beside it.
        let single = folder + "/single/gate.json"
        expectEqual(S.pushsim(["check", scenario, "--baseline", single, "--update", "--jobs", "1"]).status, 0)
        expectEqual(S.read(single), S.read(runBaseline))
        #expect((try FileManager.default.contentsOfDirectory(atPath: folder + "/single")) == ["gate.json"])
        expectEqual(S.pushsim(["check", scenario, "--baseline", single]).status, 0)
    }

    @Test func oneFileFindsItsBaselineWhereAllDoes() throws {
        let (folder, scenario, _) = try S.scenarioWithBaseline(S.scenarioText(devices: 20))
        defer { S.remove(folder) }
        let results = folder + "/results"
        let all = S.pushsim(["check", "--all", folder + "/scenarios", "--results", results])
        let one = S.pushsim(["check", scenario, "--results", results])
        expectEqual(all.status, 0, "\(all.err)\(one.err)")
        expectEqual(one.status, 0, "\(all.err)\(one.err)")
        #expect(one.out.contains("baseline \(results)/checktest/summary.json"))
        #expect(all.out.contains("identical to \(results)/checktest/summary.json"))
        // A results folder without it: the same missing path, both ways.
        let empty = folder + "/nothing"
        let missing = S.pushsim(["check", scenario, "--results", empty])
        #expect(missing.status == 2 && missing.err.contains("\(empty)/checktest/summary.json: no such baseline"), "\(missing.err)")
        expectEqual(S.pushsim(["check", scenario, "--results", results, "--baseline", folder + "/x.json"]).status, 2)
    }
}
