// Tests of `extension.early_kill`: its default, its range and its printing.
import Testing
@testable import PushSim

@Suite struct EarlyKillKeyTests {
    private func decode(_ text: String) throws -> Scenario {
        try ScenarioLoader.parse(text: text, file: "t.yaml", overrides: [])
    }

    @Test func earlyKillIsAProbabilityPrintedWhenSet() throws {
        #expect(try decode(minimalScenario).extension.earlyKill == 0)
        let s = try decode(minimalScenario + "extension: {early_kill: 5%}\n")
        #expect(s.extension.earlyKill == 0.05)
        #expect(try decode(ScenarioPrinter.yaml(s)).extension.earlyKill == 0.05)
        #expect(!ScenarioPrinter.yaml(try decode(minimalScenario)).contains("early_kill"))
        #expect(place(scenarioError(minimalScenario + "extension:\n  early_kill: 2\n")) == "t.yaml:5:15")
    }
}
