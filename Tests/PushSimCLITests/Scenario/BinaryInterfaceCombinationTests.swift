// Tests of the combinations the binary interface refuses (HTTP/2 answer keys, other channels) and allows (its keys under HTTP/2, unused).
import Foundation
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
@testable import PushSimExperiment
@testable import PushSimCLI
import PushSimTestSupport

@Suite struct BinaryInterfaceCombinationTests {
    private let binary = minimalScenario + "apns:\n  interface: binary\n"

    /// Each HTTP/2 answer key, with `apns.interface: binary`, is refused where it is written.
    @Test(arguments: [("apns", "token_limit: 3"), ("apns", "token_window: 1s"), ("apns", "server_error: 0.1"),
                      ("apns", "answer_loss: 0.1"), ("xiva", "retry: {attempts: 3}")])
    func http2AnswerKeysAreRefusedWithBinary(section: String, line: String) throws {
        let text = section == "apns" ? binary + "  \(line)\n" : binary + "\(section):\n  \(line)\n"
        let error = try #require(scenarioError(text))
        let key = String(line.prefix { $0 != ":" })
        expectEqual(place(error), (section == "apns" ? "t.yaml:6:3" : "t.yaml:7:3"))
        #expect(error.message.contains("`\(section).\(key)`: the binary interface answers only errors")
                && error.message.contains("is an HTTP/2 answer"), "\(error.message)")
        // Under HTTP/2 the same key is what it always was.
        #expect(scenarioError(text.replacingOccurrences(of: "interface: binary", with: "interface: http2")) == nil)
    }

    @Test func otherChannelsAreRefusedWithBinary() throws {
        let top = try #require(scenarioError(binary + "channel: pushkit\n"))
        #expect(place(top) == "t.yaml:6:1" && top.message.hasPrefix("`channel`: `apns.interface: binary`"))
        #expect(top.message.contains("found `pushkit`"))
        let segments = binary + "segments:\n  - name: a\n    share: 50%\n  - name: b\n    share: 50%\n    channel: fcm\n"
        let segment = try #require(scenarioError(segments))
        #expect(place(segment) == "t.yaml:11:5" && segment.message.hasPrefix("`segments.b.channel`:"), "\(segment.message)")
        // `channel: apns`, written or not, is the binary interface's own.
        #expect(scenarioError(binary + "channel: apns\n") == nil)
        #expect(scenarioError(segments.replacingOccurrences(of: "channel: fcm", with: "channel: apns")) == nil)
    }

    /// The binary keys under HTTP/2 are read and unused: the run is the same bytes as without
    /// them, uninstalls (which `feedback_delay` would act on) and payload sizes included.
    @Test func binaryKeysAreAllowedAndUnusedWithHTTP2() throws {
        let base = "name: t\nduration: 2d\ndevices: 12\nseed: 5\nmail: {rate: 40/d, payload_size: lognormal(700B, 2KB)}\n"
            + "device: {uninstall: 1/2d}\nconnectivity: {online: exponential(3h), offline: exponential(30m)}\n"
        let keys = "apns: {malformed: 30%, error_delay: 5s, connection_rate: 1/s, feedback_delay: 1h}\nxiva: {resend_buffer: 10}\n"
        let plain = try ScenarioLoader.parse(text: base, file: "t.yaml")
        let withKeys = try ScenarioLoader.parse(text: base + keys, file: "t.yaml")
        expectEqual(withKeys.apns.interface, .http2)
        expectEqual(withKeys.apns.malformed, 0.3)
        expectEqual(withKeys.xiva.resendBuffer, 10)
        let a = Simulator.run(plain), b = Simulator.run(withKeys)
        expectEqual(a.arms.map(\.ledger), b.arms.map(\.ledger))
        #expect(a.arms.allSatisfy { $0.ledger.uninstall.undeliverable > 0 && $0.ledger.binary.written == 0 })
        // The same file on the binary interface does use them.
        let binary = try ScenarioLoader.parse(text: base + keys, file: "t.yaml", overrides: ["apns.interface=binary"])
        #expect(Simulator.run(binary).arms.allSatisfy { $0.ledger.binary.errors > 0 })
    }

    /// An override that switches the interface meets the file's keys: the error names the file's key.
    @Test func overridesAreCheckedWithTheFile() throws {
        let error = try #require(scenarioError(minimalScenario + "apns:\n  server_error: 1%\n", overrides: ["apns.interface=binary"]))
        #expect(place(error) == "t.yaml:5:3" && error.message.contains("`apns.server_error`"))
        #expect(scenarioError(minimalScenario + "xiva:\n  resend_buffer: 4\n", overrides: ["apns.interface=binary"]) == nil)
        #expect(scenarioError(minimalScenario + "xiva:\n  resend_buffer: 4\n", overrides: ["apns.interface=http2"]) == nil)
    }

    /// `pushsim validate` and `pushsim run` say so with the file's place, exit 2, and write nothing.
    @Test func commandsExitWithStatusTwo() {
        let dir = TemporaryDirectory()
        let file = dir.write("b.yaml", binary + "  token_limit: 2\n")
        for command in ["validate", "run"] {
            let result = runPushsim([command, file, "--no-write"].filter { command == "run" || $0 != "--no-write" })
            #expect(result.status == 2 && result.err.contains("b.yaml:6:3") && result.out.isEmpty, "\(command): \(result.err)")
        }
    }
}
