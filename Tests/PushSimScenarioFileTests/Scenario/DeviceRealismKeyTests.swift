// Tests of the device-realism keys (`extension.early_kill`, `device.id_change`, `device.reinstall`, …): defaults, ranges, printing.
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
import PushSimTestSupport

@Suite struct DeviceRealismKeyTests {
    private func decode(_ text: String) throws -> Scenario {
        try ScenarioLoader.parse(text: text, file: "t.yaml", overrides: [])
    }

    @Test func earlyKillIsAProbabilityPrintedWhenSet() throws {
        try expectEqual(decode(minimalScenario).extension.earlyKill, 0)
        let s = try decode(minimalScenario + "extension: {early_kill: 5%}\n")
        expectEqual(s.extension.earlyKill, 0.05)
        try expectEqual(decode(ScenarioPrinter.yaml(s)).extension.earlyKill, 0.05)
        #expect(!ScenarioPrinter.yaml(try decode(minimalScenario)).contains("early_kill"))
        expectEqual(place(scenarioError(minimalScenario + "extension:\n  early_kill: 2\n")), "t.yaml:5:15")
    }

    @Test func idChangeIsARateOfAtMostOneAnHour() throws {
        try expectEqual(decode(minimalScenario).device.idChangeRatePerMicrosecond, 0)
        let s = try decode(minimalScenario + "device: {id_change: 1/30d}\n")
        expectEqual(s.device.idChangeRatePerMicrosecond, 1.0 / Double(30 * SimTime.day))
        try expectEqual(decode(ScenarioPrinter.yaml(s)).device.idChangeRatePerMicrosecond, s.device.idChangeRatePerMicrosecond)
        let tooOften = scenarioError(minimalScenario + "device:\n  id_change: 2/h\n")
        expectEqual(place(tooOften), "t.yaml:5:14")
        expectEqual(tooOften?.message.contains("at most 1/h"), true)
    }

    @Test func reinstallIsARateOfAtMostOneAnHourWithADelay() throws {
        let plain = try decode(minimalScenario)
        #expect(plain.device.reinstallRatePerMicrosecond == 0 && !ScenarioPrinter.yaml(plain).contains("reinstall"))
        let s = try decode(minimalScenario + "device: {reinstall: 1/60d, reinstall_delay: exponential(2h)}\n")
        expectEqual(s.device.reinstallRatePerMicrosecond, 1.0 / Double(60 * SimTime.day))
        expectEqual(s.device.reinstallDelay, .exponential(mean: Double(2 * SimTime.hour)))
        let again = try decode(ScenarioPrinter.yaml(s))
        expectEqual(again.device.reinstallRatePerMicrosecond, s.device.reinstallRatePerMicrosecond)
        expectEqual(again.device.reinstallDelay, s.device.reinstallDelay)
        let tooOften = scenarioError(minimalScenario + "device:\n  reinstall: 3/h\n")
        expectEqual(place(tooOften), "t.yaml:5:14")
        expectEqual(tooOften?.message.contains("at most 1/h (app reinstalls)"), true)
        expectEqual(place(scenarioError(minimalScenario + "device:\n  reinstall_delay: soon\n")), "t.yaml:5:20")
    }

    @Test func concurrencyIsSerialOrParallelWithASaveDelayPrintedWhenSet() throws {
        let plain = try decode(minimalScenario)
        #expect(plain.extension.concurrency == .serial && plain.extension.saveDelay == nil)
        #expect(!ScenarioPrinter.yaml(plain).contains("concurrency") && !ScenarioPrinter.yaml(plain).contains("save_delay"))
        let s = try decode(minimalScenario + "extension: {concurrency: parallel, save_delay: 2s}\n")
        #expect(s.extension.concurrency == .parallel && s.extension.saveDelay?.description == "2s")
        let again = try decode(ScenarioPrinter.yaml(s))
        #expect(again.extension.concurrency == .parallel && again.extension.saveDelay?.description == "2s")
        let wrong = scenarioError(minimalScenario + "extension:\n  concurrency: threads\n")
        expectEqual(place(wrong), "t.yaml:5:16")
    }
}
