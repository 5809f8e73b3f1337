// Tests of the recovery keys: `recovery` and `device.app_open`, their defaults, errors and printing.
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
import PushSimTestSupport

@Suite struct RecoveryKeysTests {
    private func decode(_ text: String, overrides: [String] = []) throws -> Scenario {
        try ScenarioLoader.parse(text: text, file: "t.yaml", overrides: overrides)
    }

    @Test func defaultsAreTheQueueAndNoOpenings() throws {
        let s = try decode(minimalScenario)
        #expect(s.recovery == .queue && s.device.appOpen == nil)
        #expect(!ScenarioPrinter.yaml(s).contains("recovery") && !ScenarioPrinter.yaml(s).contains("app_open"))
    }

    @Test func catchUpReadsAndPrintsBack() throws {
        let s = try decode(minimalScenario + "recovery: catch_up\ndevice: {app_open: exponential(4h)}\n")
        expectEqual(s.recovery, .catchUp)
        expectEqual(s.device.appOpen, .exponential(mean: Double(4 * SimTime.hour)))
        let again = try decode(ScenarioPrinter.yaml(s))
        expectEqual(again.recovery, .catchUp)
        expectEqual(again.device.appOpen, s.device.appOpen)
        try expectEqual(decode(minimalScenario, overrides: ["recovery=none"]).recovery, RecoveryDesign.none)
    }

    @Test func badValuesAreLocated() {
        let unknown = scenarioError(minimalScenario + "recovery: pull\n")
        expectEqual(place(unknown), "t.yaml:4:11")
        expectEqual(unknown?.message.contains("queue, catch_up, background_sync, none"), true)
        let noOpenings = scenarioError(minimalScenario + "recovery: catch_up\n")
        expectEqual(place(noOpenings), "t.yaml:4:11")
        expectEqual(noOpenings?.message.contains("set `device.app_open`"), true)
        let tooOften = scenarioError(minimalScenario + "device:\n  app_open: 500ms\n")
        expectEqual(place(tooOften), "t.yaml:5:13")
        expectEqual(tooOften?.message.contains("a mean of at least 1s"), true)
    }
}
