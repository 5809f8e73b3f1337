// The scenario's `objective:`: read in CostTerms' order with its units, printed back as written, refused where a weight makes no sense, and the same cost `--cost` states.
import Testing
@testable import PushSimScenarioFile
@testable import PushSimCore
@testable import PushSimExperiment
import PushSimTestSupport

@Suite struct ObjectiveDecodingTests {
    static let stated = minimalScenario + "objective:\n  latency_p90: 1/h\n  lost: 1\n  summarized: 0.3\n"

    @Test func theWeightsAreReadWithTheirUnitsAndPrintedBack() throws {
        let scenario = try ScenarioLoader.parse(text: Self.stated, file: "t.yaml")
        // In CostTerms' order, whatever the file's order.
        #expect(scenario.objective.weights == [
            .init(term: "lost", amount: 1, unit: nil), .init(term: "summarized", amount: 0.3, unit: nil),
            .init(term: "latency_p90", amount: 1, unit: "h"),
        ])
        let printed = ScenarioPrinter.yaml(scenario)
        #expect(printed.contains("objective:\n  lost: 1\n  summarized: 0.3\n  latency_p90: 1/h\n"), "\(printed)")
        // A file without one prints none: a scenario's resolved text is as before.
        #expect(!ScenarioPrinter.yaml(try ScenarioLoader.parse(text: minimalScenario, file: "t.yaml")).contains("objective"))
    }

    /// The file's objective and the same weights on the command line give one cost: an hour of
    /// p90 latency weighs 1/3600 per second of the metric.
    @Test func theFileStatesTheSameCostAsTheCommandLine() throws {
        let scenario = try ScenarioLoader.parse(text: Self.stated, file: "t.yaml")
        let fromFile = SweepCost(objective: scenario.objective)
        #expect(fromFile == (try SweepCost.parse("lost=1,summarized=0.3,latency_p90=1/h")))
        expectEqual(fromFile.expectedCost(["loss_rate": 0.01, "summarized_rate": 0.1, "latency_s.p90": 3600]), 0.01 + 0.03 + 1)
    }

    @Test func senselessWeightsAreRefusedWhereTheyAreWritten() {
        let cases: [(String, String, String)] = [
            ("objective:\n  lost: -1\n", "t.yaml:5:9", "a cost, not a reward"),
            ("objective:\n  lost: 1/h\n", "t.yaml:5:9", "takes no unit"),
            ("objective:\n  latency_p90: 2\n", "t.yaml:5:16", "needs a unit of time"),
            ("objective:\n  latency_p90: 2/week\n", "t.yaml:5:16", "s, min, h, d"),
            ("objective:\n  los: 1\n", "t.yaml:5:3", "did you mean `lost`"),
        ]
        for (text, location, words) in cases {
            let error = scenarioError(minimalScenario + text)
            #expect(place(error) == location && error?.message.contains(words) == true, "\(text): \(String(describing: error))")
        }
        // And by --set, located in the argument.
        let set = scenarioError(minimalScenario, overrides: ["objective.resent=-0.5"])
        expectEqual(set?.message.contains("a cost, not a reward"), true, "\(String(describing: set))")
    }
}
