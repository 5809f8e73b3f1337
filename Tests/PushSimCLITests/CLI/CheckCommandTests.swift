// End-to-end tests of `pushsim check`, in-process: verdicts, exit statuses, messages, --update, --all.
import Foundation
import Testing
@testable import PushSimReport
@testable import PushSimCLI
@testable import PushSimCore
import PushSimTestSupport

@Suite(.serialized) struct CheckCommandTests {
    typealias S = CheckTestSupport

    @Test func verdictsBecomeExitStatusesInOnePlace() {
        expectEqual(ExitStatus(CheckOutcome.identical).code, 0)
        expectEqual(ExitStatus(CheckOutcome.pass).code, 0)
        expectEqual(ExitStatus(CheckOutcome.regression).code, 1)
        var suite = CheckSuiteReport()
        expectEqual(suite.verdict, .pass)
        expectEqual(ExitStatus(suite.verdict).code, 0)
        suite.entries.append((file: "a.yaml", report: nil, error: "unreadable"))
        expectEqual(suite.verdict, .error)
        expectEqual(ExitStatus(suite.verdict).code, 2)
        #expect(suite.json.prettyText.contains("\"outcome\": \"error\""))
    }

    @Test func anUnchangedRunIsReportedIdentical() throws {
        let (folder, scenario, baseline) = try S.scenarioWithBaseline(S.scenarioText(devices: 150))
        defer { S.remove(folder) }
        let check = S.pushsim(["check", scenario, "--baseline", baseline])
        expectEqual(check.status, 0)
        #expect(check.out.contains("identical: every metric is exactly the baseline's."))
        #expect(!check.out.contains("WORSE"))
        let json = S.pushsim(["check", scenario, "--baseline", baseline, "--json"])
        expectEqual(json.status, 0)
        #expect(json.out.contains("\"outcome\": \"identical\""))
    }

    @Test func aBaselineDoctoredToBeBetterFailsNamingTheMetric() throws {
        let (folder, scenario, baseline) = try S.scenarioWithBaseline(S.scenarioText(devices: 150))
        defer { S.remove(folder) }
        try S.doctor(baseline) { top in
            S.editArm(&top, queue: "off") { fields in
                if case .double(let rate)? = fields["loss_rate"] { fields["loss_rate"] = .double(rate / 2) }
            }
        }
        let check = S.pushsim(["check", scenario, "--baseline", baseline])
        expectEqual(check.status, 1)
        #expect(check.out.contains("REGRESSION: worse beyond tolerance: off.loss_rate."))
        #expect(check.out.split(separator: "\n").contains { $0.contains("loss_rate") && $0.hasSuffix("WORSE") })
        // The machine-readable twin names it too.
        let json = S.pushsim(["check", scenario, "--baseline", baseline, "--json"])
        expectEqual(json.status, 1)
        guard case .object(let top) = try JSONValue.parse(json.out) else { Issue.record("not an object"); return }
        expectEqual(top["worse"], .array([.string("off.loss_rate")]))
        expectEqual(top["outcome"], .string("regression"))
        // A deliberate tolerance accepts it.
        let tolerated = S.pushsim(["check", scenario, "--baseline", baseline, "--tolerance", "off.loss_rate=100%"])
        expectEqual(tolerated.status, 0)
        #expect(tolerated.out.contains(", given)"))
    }

    @Test func anImprovementIsReportedAndNeverFails() throws {
        let (folder, scenario, baseline) = try S.scenarioWithBaseline(S.scenarioText(devices: 150))
        defer { S.remove(folder) }
        try S.doctor(baseline) { top in
            S.editArm(&top, queue: "on") { fields in
                if case .int(let n)? = fields["re_requests"] { fields["re_requests"] = .int(n * 3) }
            }
        }
        let check = S.pushsim(["check", scenario, "--baseline", baseline])
        expectEqual(check.status, 0)
        #expect(check.out.contains("better: on.re_requests"))
    }

    @Test func anotherSeedPassesAndARealDegradationFails() throws {
        // Both runs are the same size; only the random draws differ (seed 21 vs 22). The
        // default tolerances, measured over devices, must let that through. (Not a lucky pair:
        // at this size seeds 22…61 all pass against seed 21, and with the degradation below
        // seeds 22…41 all fail.)
        let (folder, scenario, baseline) = try S.scenarioWithBaseline(S.scenarioText(devices: 400))
        defer { S.remove(folder) }
        let reseeded = S.pushsim(["check", scenario, "--baseline", baseline, "--seed", "22"])
        expectEqual(reseeded.status, 0, "\(reseeded.out)")
        #expect(reseeded.out.contains("this run seed 22"))
        // ...and catch a real change of the chain at the same size: XIVA dropping 3 % of
        // letters instead of 0.5 % (about +2.5 % loss in both arms).
        let degraded = S.pushsim(["check", scenario, "--baseline", baseline, "--seed", "22", "--set", "xiva.drop=3%"])
        expectEqual(degraded.status, 1)
        #expect(degraded.out.contains("on.loss_rate"))
        #expect(degraded.out.contains("on.causes.xiva_drop"))
    }

    @Test func aMissingBaselineIsBadInput() throws {
        let folder = try S.temporaryFolder()
        defer { S.remove(folder) }
        let scenario = (folder as NSString).appendingPathComponent("s.yaml")
        try S.write(S.scenarioText(devices: 20), to: scenario)
        let missing = (folder as NSString).appendingPathComponent("results/checktest/summary.json")
        let check = S.pushsim(["check", scenario, "--baseline", missing])
        expectEqual(check.status, 2)
        #expect(check.err.contains(missing))
        #expect(check.err.contains("no such baseline"))
        #expect(check.out.isEmpty)
    }

    @Test func aBaselineOfTheWrongShapeIsBadInput() throws {
        let (folder, scenario, baseline) = try S.scenarioWithBaseline(S.scenarioText(devices: 20))
        defer { S.remove(folder) }
        let cases: [(text: String, message: String)] = [
            ("[1, 2]", "expected a JSON object"),
            ("{\"scenario\": \"checktest\"", "not valid JSON: line 1, column 25"),
            ("{\"scenario\": \"checktest\", \"runs\": {}}", "missing the \"runs\" array"),
            ("{\"runs\": []}", "missing the \"scenario\" name"),
            ("{\"scenario\": \"checktest\", \"runs\": [{\"queue\": \"sideways\"}]}", "runs[0] needs \"queue\""),
        ]
        for (text, message) in cases {
            try S.write(text, to: baseline)
            let check = S.pushsim(["check", scenario, "--baseline", baseline])
            expectEqual(check.status, 2, "\(text)")
            #expect(check.err.contains(baseline) && check.err.contains(message), "\(check.err)")
        }
    }

    @Test func aBaselineMissingAMetricIsBadInput() throws {
        let (folder, scenario, baseline) = try S.scenarioWithBaseline(S.scenarioText(devices: 20))
        defer { S.remove(folder) }
        try S.doctor(baseline) { top in
            S.editArm(&top, queue: "on") { fields in
                guard case .object(var causes)? = fields["causes"] else { return }
                causes["unfinished"] = nil
                fields["causes"] = .object(causes)
                fields["resent"] = .string("many")
            }
        }
        let check = S.pushsim(["check", scenario, "--baseline", baseline])
        expectEqual(check.status, 2)
        #expect(check.err.contains("\(baseline): runs[1] (queue on) is missing the metric 'causes.unfinished'"))

        try S.doctor(baseline) { top in
            S.editArm(&top, queue: "on") { fields in
                guard case .object(var causes)? = fields["causes"] else { return }
                causes["unfinished"] = .int(0)
                fields["causes"] = .object(causes)
            }
        }
        let wrongType = S.pushsim(["check", scenario, "--baseline", baseline])
        expectEqual(wrongType.status, 2)
        #expect(wrongType.err.contains("'resent' should be a number, found a string"))
    }

    @Test func anotherScenarioOrOtherArmsOrAnotherSizeIsBadInput() throws {
        let (folder, scenario, baseline) = try S.scenarioWithBaseline(S.scenarioText(devices: 40))
        defer { S.remove(folder) }
        let arms = S.pushsim(["check", scenario, "--baseline", baseline, "--set", "queue.mode=on"])
        expectEqual(arms.status, 2)
        #expect(arms.err.contains("the baseline has the arms off, on but the scenario runs on"))
        let size = S.pushsim(["check", scenario, "--baseline", baseline, "--set", "devices=80"])
        expectEqual(size.status, 2)
        #expect(size.err.contains("another size"))
        try S.doctor(baseline) { top in top["scenario"] = .string("commuters") }
        let name = S.pushsim(["check", scenario, "--baseline", baseline])
        expectEqual(name.status, 2)
        #expect(name.err.contains("the baseline is of scenario 'commuters', but the scenario file is 'checktest'"))
    }

    @Test func updateRewritesTheBaselineOnPurpose() throws {
        let (folder, scenario, baseline) = try S.scenarioWithBaseline(S.scenarioText(devices: 40))
        defer { S.remove(folder) }
        let original = S.read(baseline)
        try S.doctor(baseline) { top in
            S.editArm(&top, queue: "off") { fields in fields["delivered"] = .int(1_000_000) }
        }
        expectEqual(S.pushsim(["check", scenario, "--baseline", baseline]).status, 1)
        let update = S.pushsim(["check", scenario, "--baseline", baseline, "--update"])
        expectEqual(update.status, 0)
        #expect(update.err.contains("rewrote the baseline \(baseline)"))
        expectEqual(S.read(baseline), original)   // byte for byte what `pushsim run` wrote
        expectEqual(S.pushsim(["check", scenario, "--baseline", baseline]).status, 0)

        // A baseline that is garbage, or missing, is (re)created.
        try S.write("garbage", to: baseline)
        expectEqual(S.pushsim(["check", scenario, "--baseline", baseline, "--update"]).status, 0)
        expectEqual(S.read(baseline), original)
        let fresh = (folder as NSString).appendingPathComponent("elsewhere/base.json")
        expectEqual(S.pushsim(["check", scenario, "--baseline", fresh, "--update"]).status, 0)
        expectEqual(S.read(fresh), original)
    }

    @Test func allChecksEveryScenarioOfAFolder() throws {
        let (folder, _, _) = try S.scenarioWithBaseline(S.scenarioText(devices: 30))
        defer { S.remove(folder) }
        let scenarios = (folder as NSString).appendingPathComponent("scenarios")
        let results = (folder as NSString).appendingPathComponent("results")
        let second = (scenarios as NSString).appendingPathComponent("second.yaml")
        try S.write(S.scenarioText(name: "second", devices: 30, seed: 4), to: second)
        expectEqual(S.pushsim(["run", second, "--out", (results as NSString).appendingPathComponent("second")]).status, 0)

        let all = S.pushsim(["check", "--all", scenarios, "--results", results])
        expectEqual(all.status, 0, "\(all.out)\(all.err)")
        #expect(all.out.contains("checktest: identical"))
        #expect(all.out.contains("second: identical"))
        #expect(all.out.contains("ok: 2 scenarios checked, none worse"))
        // A folder as FILE means the same.
        expectEqual(S.pushsim(["check", scenarios, "--results", results]).status, 0)

        // One regression: exit 1, the line names the metric, the full table follows.
        try S.doctor((results as NSString).appendingPathComponent("second/summary.json")) { top in
            // (A baseline with a negative count is refused as damaged: a regression needs a valid one.)
            S.editArm(&top, queue: "on") { fields in fields["re_requests"] = .int(0) }
        }
        let worse = S.pushsim(["check", "--all", scenarios, "--results", results])
        expectEqual(worse.status, 1)
        #expect(worse.out.contains("second: WORSE — on.re_requests"))
        #expect(worse.out.contains("REGRESSION: 1 of 2 scenarios got worse"))
        #expect(worse.out.contains("pushsim check · second"))

        // A missing baseline: exit 2, whatever else happened.
        try FileManager.default.removeItem(atPath: (results as NSString).appendingPathComponent("checktest"))
        let missing = S.pushsim(["check", "--all", scenarios, "--results", results, "--json"])
        expectEqual(missing.status, 2)
        #expect(missing.out.contains("\"outcome\": \"error\""))
        #expect(missing.out.contains("no such baseline"))
    }

    @Test func allWithUpdateWritesEveryBaseline() throws {
        let folder = try S.temporaryFolder()
        defer { S.remove(folder) }
        let scenarios = (folder as NSString).appendingPathComponent("scenarios")
        let results = (folder as NSString).appendingPathComponent("results")
        try S.write(S.scenarioText(name: "one", devices: 20), to: (scenarios as NSString).appendingPathComponent("one.yaml"))
        try S.write(S.scenarioText(name: "two", devices: 20, seed: 9), to: (scenarios as NSString).appendingPathComponent("two.yaml"))
        expectEqual(S.pushsim(["check", "--all", scenarios, "--results", results]).status, 2)
        let update = S.pushsim(["check", "--all", scenarios, "--results", results, "--update"])
        expectEqual(update.status, 0)
        #expect(FileManager.default.fileExists(atPath: (results as NSString).appendingPathComponent("two/summary.md")))
        let check = S.pushsim(["check", "--all", scenarios, "--results", results])
        expectEqual(check.status, 0)
        #expect(check.out.contains("one: identical") && check.out.contains("two: identical"))
        // A broken scenario file is reported, and the exit status says the check is incomplete.
        try S.write("name: [", to: (scenarios as NSString).appendingPathComponent("three.yaml"))
        let broken = S.pushsim(["check", "--all", scenarios, "--results", results])
        expectEqual(broken.status, 2)
        #expect(broken.out.contains("three.yaml: ERROR"))
    }

    @Test func usageErrorsExitTwo() {
        expectEqual(S.pushsim(["check"]).status, 2)
        #expect(S.pushsim(["check", "x.yaml", "--tolerance", "loss=1"]).err.contains("unknown metric 'loss'"))
        expectEqual(S.pushsim(["check", "--all", "--baseline", "b.json"]).status, 2)
        #expect(S.pushsim(["check", "--help"]).out.contains("Usage: pushsim check (FILE | --all [DIR])"))
    }

    /// Hunt: two files of one `name` in `check --all` shared one baseline: one was checked
    /// against the other's, and `--update` let the later overwrite the earlier's. Refused
    /// before any run, naming both files.
    @Test func checkAllRefusesTwoScenariosOfOneName() throws {
        let folder = try S.temporaryFolder()
        defer { S.remove(folder) }
        let scenarios = folder + "/scenarios", results = folder + "/results"
        try FileManager.default.createDirectory(atPath: scenarios, withIntermediateDirectories: true)
        try S.write(S.scenarioText(name: "twin", devices: 5), to: scenarios + "/a.yaml")
        try S.write(S.scenarioText(name: "twin", devices: 5, seed: 9), to: scenarios + "/b.yaml")
        for update in [false, true] {
            let result = S.pushsim(["check", "--all", scenarios, "--results", results, "--jobs", "1"] + (update ? ["--update"] : []))
            expectEqual(result.status, 2, "\(result.err)")
            #expect(result.err.contains("a.yaml and \(scenarios)/b.yaml are both named 'twin'"), "\(result.err)")
            #expect(result.err.contains("give each scenario its own `name`"), "\(result.err)")
        }
        #expect(!FileManager.default.fileExists(atPath: results))
    }
}

