// Tests of the resolved-scenario printer: what it prints reads back to the same scenario.
import Foundation
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
import PushSimTestSupport

@Suite struct ScenarioPrinterTests {
    /// Every version-1 key set away from its default, with values that stress the printer:
    /// a quoted name, a rate that is not a whole count per day, a tiny probability (which Swift
    /// would print with an exponent), every distribution kind, `forever` where it is allowed.
    static let everyKey = #"""
    name: "odd name: #1"
    description: 'it''s "quoted", with a comma'
    seed: 18446744073709551615
    duration: 1d2h3m4s5ms6us
    drain: 90m
    devices: 17
    mail: {rate: 3/7h}
    connectivity:
      online: uniform(1h, 2h)
      offline: lognormal(5m, 1h)
      windows:
        - {start: 8h, end: 8h40m, every: 1d}
        - {start: 2d23h, end: 3d1h}
    xiva: {drop: 0.00001, latency: exponential(70ms), retention: forever, request_latency: 1s,
           request_error: 2.5%, resend_latency: uniform(0, 3s)}
    apns: {loss: 0.123456789, latency: lognormal(150ms, 3s), expiration: 0}
    device: {alerts_off: 1, clear_after: exponential(1h)}
    extension: {deadline: forever, processing: lognormal(200ms, 3s)}
    queue: {mode: on, repeat_max_count: 0, collapse_id: false, client: literal}
    """#

    private func reprint(_ text: String) throws -> (Scenario, Scenario, String) {
        let original = try ScenarioLoader.parse(text: text, file: "original.yaml")
        let printed = ScenarioPrinter.yaml(original)
        let back = try ScenarioLoader.parse(text: printed, file: "printed.yaml")
        return (original, back, printed)
    }

    @Test func everyVersion1KeyReadsBackToTheSameScenario() throws {
        let (a, b, printed) = try reprint(Self.everyKey)
        expectEqual(a.name, b.name)
        expectEqual(a.description, b.description)
        expectEqual(a.seed, b.seed)
        expectEqual(a.duration, b.duration)
        expectEqual(a.drain, b.drain)
        expectEqual(a.devices, b.devices)
        expectEqual(a.mail.ratePerMicrosecond, b.mail.ratePerMicrosecond)
        expectEqual(a.connectivity.online, b.connectivity.online)
        expectEqual(a.connectivity.offline, b.connectivity.offline)
        expectEqual(a.connectivity.windows, b.connectivity.windows)
        expectEqual(a.xiva.drop, b.xiva.drop)
        expectEqual(a.xiva.latency, b.xiva.latency)
        expectEqual(a.xiva.retention, b.xiva.retention)
        expectEqual(a.xiva.requestLatency, b.xiva.requestLatency)
        expectEqual(a.xiva.requestError, b.xiva.requestError)
        expectEqual(a.xiva.resendLatency, b.xiva.resendLatency)
        expectEqual(a.apns.loss, b.apns.loss)
        expectEqual(a.apns.latency, b.apns.latency)
        expectEqual(a.apns.expiration, b.apns.expiration)
        expectEqual(a.device.alertsOff, b.device.alertsOff)
        expectEqual(a.device.clearAfter, b.device.clearAfter)
        expectEqual(a.extension.deadline, b.extension.deadline)
        expectEqual(a.extension.processing, b.extension.processing)
        expectEqual(a.queue.mode, b.queue.mode)
        expectEqual(a.queue.repeatMaxCount, b.queue.repeatMaxCount)
        expectEqual(a.queue.collapseId, b.queue.collapseId)
        expectEqual(a.queue.client, b.queue.client)
        // A fixed point: the printed file prints as itself, so nothing is lost on a second trip.
        expectEqual(ScenarioPrinter.yaml(b), printed)
        #expect(!printed.contains("e-"), "a number with an exponent does not read back: \(printed)")
    }

    /// Hunt: a distribution's parameter past 9.2e18 µs (`exponential(106751991d)`, a valid
    /// duration) was printed as `forever`, which no distribution takes: `--print` did not read back.
    @Test func aDistributionNearTheClocksEndReadsBack() throws {
        for value in ["exponential(106751991d)", "uniform(0, 106751991d)", "lognormal(1s, 106751991d)", "exponential(106751991d4h)"] {
            let text = "name: far\nduration: 1d\ndevices: 1\nxiva: {latency: \(value)}\n"
            let (a, b, printed) = try reprint(text)
            expectEqual(a.xiva.latency, b.xiva.latency, "\(value): \(printed)")
            #expect(!printed.contains("forever)"), "\(value): \(printed)")
            expectEqual(ScenarioPrinter.yaml(b), printed)
        }
    }

    @Test func defaultsAndOverridesArePrinted() throws {
        let text = "name: t\nduration: 1d\ndevices: 3\n"
        let scenario = try ScenarioLoader.parse(text: text, file: "t.yaml", overrides: ["queue.repeat_max_count=5", "seed=9"])
        let printed = ScenarioPrinter.yaml(scenario)
        for line in ["seed: 9", "drain: 1d", "  rate: 40/d", "  windows: []", "  retention: 3d", "  clear_after: forever",
                     "  repeat_max_count: 5", "  mode: both"] {
            #expect(printed.contains(line + "\n"), "missing `\(line)` in\n\(printed)")
        }
        // Without connectivity the phone is always online: nothing to print for online/offline.
        #expect(!printed.contains("online:"))
        // Version-2 keys at their defaults are left out, so a version-1 scenario prints version-1 keys.
        for key in ["warmup", "daily_profile", "bursts", "keep_older", "keep_window", "duplicate", "segments", "spread", "length"] {
            #expect(!printed.contains(key + ":"), "\(key) printed at its default")
        }
        let back = try ScenarioLoader.parse(text: printed, file: "printed.yaml")
        expectEqual(back.seed, 9)
        expectEqual(back.queue.repeatMaxCount, 5)
        expectEqual(ScenarioPrinter.yaml(back), printed)
    }

    @Test func everyBundledScenarioReadsBackToItself() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../scenarios").standardized.path
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".yaml") }.sorted()
        #expect(files.count >= 6)
        for file in files {
            let original = try ScenarioLoader.load(path: folder + "/" + file)
            let printed = ScenarioPrinter.yaml(original)
            let back = try ScenarioLoader.parse(text: printed, file: file)
            expectEqual(ScenarioPrinter.yaml(back), printed, "\(file) does not read back to itself")
        }
    }

    @Test func aSweepFileKeepsItsAxes() throws {
        let text = "name: t\nduration: 1d\ndevices: 3\nsweep:\n  queue.repeat_max_count: [0, 5]\n  apns.latency: [100ms, uniform(1s, 2s)]\n"
        let (scenario, axes) = try ScenarioLoader.parseWithSweep(text: text, file: "t.yaml")
        let printed = ScenarioPrinter.yaml(scenario) + ScenarioPrinter.sweepSection(axes)
        let (_, back) = try ScenarioLoader.parseWithSweep(text: printed, file: "printed.yaml")
        expectEqual(back, axes)
        expectEqual(ScenarioPrinter.sweepSection([]), "")
    }

    @Test func version2KeysArePrintedWhenSet() {
        var s = Scenario(name: "v2", duration: SimTime(microseconds: SimTime.day), devices: 10)
        s.warmup = SimTime(microseconds: SimTime.hour)
        s.mail.dailyProfile = Array(repeating: 1, count: 23) + [2.5]
        s.mail.bursts = MailBursts(ratePerMicrosecond: 1 / Double(SimTime.day), size: 8, spread: SimTime(microseconds: 2 * SimTime.minute))
        s.connectivity.windows = [OfflineWindow(start: SimTime(microseconds: 22 * SimTime.hour),
                                                length: .uniform(min: 6 * Double(SimTime.hour), max: 9 * Double(SimTime.hour)),
                                                every: SimTime(microseconds: SimTime.day), spread: SimTime(microseconds: 2 * SimTime.hour))]
        s.apns.keepOlder = 0.25
        s.apns.duplicate = 0.01
        var segment = Scenario.Segment(name: "night", share: "40%", devices: 6..<10, mail: s.mail,
                                       connectivity: s.connectivity, device: s.device, extension: s.extension)
        segment.mail.trace = MailTrace(path: "traffic.csv", offsets: [0], times: [])
        s.segments = [segment]
        let printed = ScenarioPrinter.yaml(s)
        for line in ["warmup: 1h", "  daily_profile: [1, 1, 1", ", 2.5]", "  bursts:", "    rate: 1/d", "    size: 8", "    spread: 2m",
                     "    - start: 22h", "      length: uniform(6h, 9h)", "      every: 1d", "      spread: 2h",
                     "  keep_older: 0.25", "  keep_window: 1s", "  duplicate: 0.01", "segments:", "  - name: night",
                     "    share: 40%", "      trace: traffic.csv"] {
            #expect(printed.contains(line), "missing `\(line)` in\n\(printed)")
        }
    }

    @Test func decimalsAndRatesAvoidExponents() {
        expectEqual(ScenarioPrinter.decimal(0.00001), "0.00001")
        expectEqual(ScenarioPrinter.decimal(1e-7), "0.0000001")
        expectEqual(ScenarioPrinter.decimal(1.5e20), "150000000000000000000")
        expectEqual(ScenarioPrinter.decimal(0.5), "0.5")
        expectEqual(ScenarioPrinter.decimal(1), "1")
        expectEqual(ScenarioPrinter.rate(40 / Double(SimTime.day)), "40/d")
        // A whole count in the unit that makes it smallest: how a person writes a rate.
        expectEqual(ScenarioPrinter.rate(3 / Double(SimTime.hour)), "3/h")
        expectEqual(ScenarioPrinter.rate(1 / Double(SimTime.second)), "1/s")
        expectEqual(ScenarioPrinter.rate(20 / Double(SimTime.second)), "20/s")
        expectEqual(ScenarioPrinter.rate(60 / Double(SimTime.day)), "60/d")
        expectEqual(ScenarioPrinter.rate(0.5 / Double(SimTime.minute)), "30/h")
        // No whole count in any unit: the fewest decimals, in days.
        expectEqual(ScenarioPrinter.rate(0.5 / Double(SimTime.day)), "0.5/d")
        for text in ["3/h", "1/s", "20/s", "60/d", "30/h", "0.5/d"] {
            let rate = ScenarioPrinter.rate((try? ValueParsers.rate(text)) ?? 0)
            expectEqual(rate, text, "\(text) reads back as \(rate)")
        }
    }
}
