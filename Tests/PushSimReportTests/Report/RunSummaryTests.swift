// Tests of what a run records about itself: the version, the seed and the resolved scenario.
import Testing
@testable import PushSimScenarioFile
@testable import PushSimExperiment
@testable import PushSimReport
@testable import PushSimCore
import PushSimTestSupport

@Suite struct RunSummaryTests {
    @Test func summaryRecordsVersionSeedAndOverrides() throws {
        let scenario = try ScenarioLoader.parse(text: "name: t\nduration: 1d\ndevices: 3\n", file: "t.yaml",
                                                overrides: ["apns.expiration=1h", "seed=11"])
        let result = Simulator.run(scenario)
        guard case .object(let document) = RunSummary.document(result, scenario: scenario),
              case .object(let resolved)? = document["resolved_scenario"],
              case .object(let apns)? = resolved["apns"] else {
            Issue.record("no resolved_scenario object"); return
        }
        expectEqual(document["pushsim_version"], .string(PushSimVersion.current))
        expectEqual(apns["expiration"], .string("1h"))
        expectEqual(resolved["seed"], .string("11"))
        // The contract's fields are untouched: the document is the run's JSON plus provenance.
        guard case .object(let plain) = result.json else { return }
        for (key, value) in plain { expectEqual(document[key], value) }

        let files = RunSummary.files(result, scenario: scenario)
        expectEqual(files.map(\.name), ["summary.json", "summary.md", "load.csv", "load.svg", "costs.svg", "report.html"])
        #expect(files[1].contents.contains("PushSim \(PushSimVersion.current) (commit \(PushSimVersion.commit)), seed 11"))
        #expect(files[1].contents.contains("```yaml\n" + ScenarioPrinter.yaml(scenario) + "```\n"))
    }

    @Test func twoRunsThatDifferOnlyByAnOverrideWriteDifferentSummaries() throws {
        let text = "name: t\nduration: 1d\ndevices: 2\n"
        let a = try ScenarioLoader.parse(text: text, file: "t.yaml", overrides: ["xiva.drop=0.5"])
        let b = try ScenarioLoader.parse(text: text, file: "t.yaml", overrides: ["xiva.drop=0.25"])
        #expect(RunSummary.provenanceMarkdown(a) != RunSummary.provenanceMarkdown(b))
    }
}
