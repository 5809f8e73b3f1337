// Tests of the binary interface's keys: apns.interface, malformed, error_delay, connection_rate, feedback_delay, xiva.resend_buffer.
import Foundation
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
import PushSimTestSupport

@Suite struct BinaryInterfaceKeyTests {
    private func decode(_ text: String) throws -> Scenario {
        try ScenarioLoader.parse(text: text, file: "t.yaml", overrides: [])
    }

    /// Unset, the keys keep the defaults of docs/model.md §11 and the printed scenario does not name them.
    @Test func unsetKeysKeepTheDefaultsAndAreNotPrinted() throws {
        let plain = try decode(minimalScenario)
        expectEqual(plain.apns.interface, .http2)
        expectEqual(plain.apns.malformed, 0)
        expectEqual(plain.apns.errorDelay, .constant(SimTime(microseconds: 100_000)))
        #expect(plain.apns.connectionRatePerMicrosecond == nil)
        expectEqual(plain.apns.feedbackDelay, SimTime(microseconds: SimTime.day))
        expectEqual(plain.xiva.resendBuffer, 0)
        let printed = ScenarioPrinter.yaml(plain)
        for key in ["interface", "malformed", "error_delay", "connection_rate", "feedback_delay", "resend_buffer"] {
            #expect(!printed.contains(key), "\(key)")
        }
    }

    @Test func setKeysReadAndPrintBack() throws {
        let text = minimalScenario + """
            apns: {interface: binary, malformed: 0.1%, error_delay: exponential(200ms), connection_rate: 500/s, feedback_delay: 6h}
            xiva: {resend_buffer: 50}

            """
        let s = try decode(text)
        expectEqual(s.apns.interface, .binary)
        expectEqual(s.apns.malformed, 0.001)
        expectEqual(s.apns.errorDelay, .exponential(mean: 200_000))
        expectEqual(s.apns.connectionRatePerMicrosecond, 500.0 / 1e6)
        expectEqual(s.apns.feedbackDelay, SimTime(microseconds: 6 * SimTime.hour))
        expectEqual(s.xiva.resendBuffer, 50)
        let again = try decode(ScenarioPrinter.yaml(s))
        expectEqual(again.apns.interface, .binary)
        expectEqual(again.apns.malformed, s.apns.malformed)
        expectEqual(again.apns.errorDelay, s.apns.errorDelay)
        expectEqual(again.apns.feedbackDelay, s.apns.feedbackDelay)
        expectEqual(again.apns.connectionRatePerMicrosecond, s.apns.connectionRatePerMicrosecond)
        expectEqual(again.xiva.resendBuffer, 50)
        #expect(try decode(minimalScenario + "apns: {interface: binary, connection_rate: forever}\n").apns.connectionRatePerMicrosecond == nil)
    }

    /// Bad values name the value's place; a misspelt interface names the nearest.
    @Test func badValuesNameTheirPlace() throws {
        expectEqual(place(scenarioError(minimalScenario + "apns:\n  interface: http3\n")), "t.yaml:5:14")
        expectEqual(scenarioError(minimalScenario + "apns:\n  interface: binery\n")?.message.contains("binary"), true)
        expectEqual(place(scenarioError(minimalScenario + "apns:\n  malformed: 2\n")), "t.yaml:5:14")
        expectEqual(place(scenarioError(minimalScenario + "apns:\n  connection_rate: 0/s\n")), "t.yaml:5:20")
        expectEqual(place(scenarioError(minimalScenario + "xiva:\n  resend_buffer: -1\n")), "t.yaml:5:18")
    }
}
