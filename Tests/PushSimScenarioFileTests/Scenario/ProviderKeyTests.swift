// Tests of the provider keys: byte sizes, payload_size, uninstall, the answers' keys, xiva.retry.
import Foundation
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
import PushSimTestSupport

@Suite struct ProviderKeyTests {
    private func decode(_ text: String) throws -> Scenario {
        try ScenarioLoader.parse(text: text, file: "t.yaml", overrides: [])
    }

    @Test func byteSizesReadBytesAndKilobytes() throws {
        try expectEqual(ValueParsers.byteSize("4096"), 4096)
        try expectEqual(ValueParsers.byteSize("512B"), 512)
        try expectEqual(ValueParsers.byteSize("2KB"), 2048)
        try expectEqual(ValueParsers.byteSize("1.5KB"), 1536)
        #expect(throws: ValueParsers.Failure.self) { _ = try ValueParsers.byteSize("-1KB") }
        // MB (1024 KB) for media attachments (docs/scenarios.md, extension.media); still at most 1 GB.
        try expectEqual(ValueParsers.byteSize("2MB"), 2_097_152)
        #expect(throws: ValueParsers.Failure.self) { _ = try ValueParsers.byteSize("2000MB") }
        #expect(throws: ValueParsers.Failure.self) { _ = try ValueParsers.byteSize("2000000KB") }
        try expectEqual(ValueParsers.byteDistribution("lognormal(1KB, 6KB)"), .lognormal(median: 1024, p99: 6144))
        #expect(throws: ValueParsers.Failure.self) { _ = try ValueParsers.byteDistribution("uniform(4KB, 1KB)") }
    }

    @Test func payloadSizeIsADistributionOfBytesPrintedWhenSet() throws {
        #expect(try decode(minimalScenario).mail.payloadSize == nil)
        let s = try decode(minimalScenario + "mail:\n  payload_size: lognormal(1KB, 6KB)\n")
        expectEqual(s.mail.payloadSize, .lognormal(median: 1024, p99: 6144))
        try expectEqual(decode(ScenarioPrinter.yaml(s)).mail.payloadSize, s.mail.payloadSize)
        #expect(!ScenarioPrinter.yaml(try decode(minimalScenario)).contains("payload_size"))
        expectEqual(place(scenarioError(minimalScenario + "mail:\n  payload_size: 3 apples\n")), "t.yaml:5:17")
    }

    @Test func answerKeysReadAndPrint() throws {
        let plain = try decode(minimalScenario)
        #expect(plain.apns.tokenLimit == nil && plain.apns.serverError == 0 && plain.apns.answerLoss == 0)
        #expect(plain.xiva.retry == nil && plain.device.uninstallRatePerMicrosecond == 0)
        let text = minimalScenario + """
            device: {uninstall: 1/30d}
            apns: {token_limit: 5, token_window: 1m, server_error: 1%, answer_loss: 0.5%}
            xiva:
              retry: {attempts: 3, backoff: exponential(2s)}

            """
        let s = try decode(text)
        expectEqual(s.apns.tokenLimit, 5)
        expectEqual(s.apns.tokenWindow, span(1 * minute))
        expectEqual(s.apns.serverError, 0.01)
        expectEqual(s.apns.answerLoss, 0.005)
        expectEqual(s.xiva.retry, XivaRetry(attempts: 3, backoff: .exponential(mean: 2e6)))
        expectEqual(s.device.uninstallRatePerMicrosecond, 1.0 / Double(30 * SimTime.day))
        let again = try decode(ScenarioPrinter.yaml(s))
        expectEqual(again.apns.tokenLimit, 5)
        expectEqual(again.xiva.retry, s.xiva.retry)
        expectEqual(again.apns.answerLoss, 0.005)
        expectEqual(again.device.uninstallRatePerMicrosecond, s.device.uninstallRatePerMicrosecond)
        expectEqual(place(scenarioError(minimalScenario + "apns:\n  token_limit: 0\n")), "t.yaml:5:16")
        expectEqual(place(scenarioError(minimalScenario + "xiva:\n  retry: {attempts: 0}\n")), "t.yaml:5:21")
        let unknown = scenarioError(minimalScenario + "xiva:\n  retry: {attempts: 2, backof: 1s}\n")
        expectEqual(unknown?.message.contains("backoff"), true)
        expectEqual(scenarioError(minimalScenario + "xiva:\n  retry: {backoff: 1s}\n")?.message.contains("attempts"), true)
    }

    /// The share of letters over 4096 bytes is the lognormal's tail: 1 − Φ(ln(4096/1024)/σ).
    @Test func theOversizedShareIsTheDistributionsTail() throws {
        var s = try decode("name: t\nduration: 100d\ndevices: 1\nmail:\n  rate: 200/d\n  payload_size: lognormal(1KB, 5KB)\n")
        s.seed = 3
        var script = LetterScript()
        script.generate(s, device: 0)
        let n = Double(script.count)
        let share = Double(script.filter(\.payloadTooLarge).count) / n
        let sigma = Foundation.log(5.0) / Distribution.z99
        let expected = 0.5 * erfc(Foundation.log(4.0) / sigma / 2.0.squareRoot())
        #expect(abs(share - expected) < 4 * (expected * (1 - expected) / n).squareRoot())
        // Without the key nothing is too large, and the other draws are the same.
        var plain = s
        plain.mail.payloadSize = nil
        var same = LetterScript()
        same.generate(plain, device: 0)
        expectEqual(same.map(\.time), script.map(\.time))
        expectEqual(same.map(\.apnsLatency), script.map(\.apnsLatency))
        #expect(!same.contains { $0.payloadTooLarge })
    }
}

@Suite struct PriorityAndSleepKeyTests {
    private func decode(_ text: String) throws -> Scenario {
        try ScenarioLoader.parse(text: text, file: "t.yaml", overrides: [])
    }

    @Test func priorityIsTenFiveOrAShareAtFive() throws {
        try expectEqual(decode(minimalScenario).apns.lowPriorityShare, 0)
        try expectEqual(decode(minimalScenario + "apns: {priority: 10}\n").apns.lowPriorityShare, 0)
        try expectEqual(decode(minimalScenario + "apns: {priority: 5}\n").apns.lowPriorityShare, 1)
        let share = try decode(minimalScenario + "apns: {priority: 30%}\n")
        expectEqual(share.apns.lowPriorityShare, 0.3)
        try expectEqual(decode(ScenarioPrinter.yaml(share)).apns.lowPriorityShare, 0.3)
        #expect(try decode(ScenarioPrinter.yaml(try decode(minimalScenario + "apns: {priority: 5}\n"))).apns.lowPriorityShare == 1)
        expectEqual(place(scenarioError(minimalScenario + "apns:\n  priority: 1\n")), "t.yaml:5:13")
    }

    @Test func sleepNeedsAwakeAndAsleepPeriods() throws {
        #expect(try decode(minimalScenario).device.sleep == nil)
        let s = try decode(minimalScenario + "device:\n  sleep: {awake: exponential(2h), asleep: 30m}\n")
        expectEqual(s.device.sleep, DeviceSleep(awake: .exponential(mean: Double(2 * hour)), asleep: constant(30 * minute)))
        try expectEqual(decode(ScenarioPrinter.yaml(s)).device.sleep, s.device.sleep)
        expectEqual(scenarioError(minimalScenario + "device:\n  sleep: {awake: 1h}\n")?.message.contains("asleep"), true)
        expectEqual(scenarioError(minimalScenario + "device:\n  sleep: {awake: 1h, asleep: 10ms}\n")?.message.contains("at least 1s"), true)
    }

    /// Asleep a share mean(asleep) / (mean(awake) + mean(asleep)) of the time, from the first instant.
    @Test func aDeviceSleepsItsShareOfTheTime() throws {
        let s = try decode("name: t\nduration: 20d\ndevices: 1\nmail: {rate: 0/d}\napns: {priority: 5}\ndevice:\n  sleep: {awake: exponential(3h), asleep: exponential(1h)}\n")
        var asleep = 0.0, atZero = 0.0
        let n = 200
        for d in 0..<n {
            var timeline = SleepTimeline()
            timeline.generate(s, device: d)
            asleep += Double(timeline.asleep.reduce(0) { $0 + $1.upperBound - $1.lowerBound })
            if timeline.interval(holding: 0) != nil { atZero += 1 }
        }
        let share = asleep / Double(n) / Double(s.end.microseconds)
        // About 126 periods per device of 21 d: the share's spread is small; the start is one Bernoulli per device.
        #expect(abs(share - 0.25) < 0.02)
        #expect(abs(atZero / Double(n) - 0.25) < 4 * (0.25 * 0.75 / Double(n)).squareRoot())
    }
}

@Suite struct ProviderOverrideTests {
    /// `--set` reaches the keys of the provider's mappings, one at a time.
    @Test func setReachesRetryAndSleepKeys() throws {
        let text = minimalScenario + "xiva:\n  retry: {attempts: 3, backoff: 2s}\ndevice:\n  sleep: {awake: 2h, asleep: 1h}\n"
        let s = try ScenarioLoader.parse(text: text, file: "t.yaml",
                                         overrides: ["xiva.retry.attempts=1", "device.sleep.asleep=30m"])
        expectEqual(s.xiva.retry, XivaRetry(attempts: 1, backoff: constant(2 * sec)))
        expectEqual(s.device.sleep, DeviceSleep(awake: constant(2 * hour), asleep: constant(30 * minute)))
    }
}
