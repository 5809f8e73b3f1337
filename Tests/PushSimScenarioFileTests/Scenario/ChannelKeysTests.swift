// Tests of the push channel's keys: channel (top level and per segment), pushkit, fcm, device.doze.
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
import PushSimTestSupport

@Suite struct ChannelKeysTests {
    private func decode(_ text: String, overrides: [String] = []) throws -> Scenario {
        try ScenarioLoader.parse(text: text, file: "t.yaml", overrides: overrides)
    }

    @Test func defaultsAreAPNsAndPrintNothing() throws {
        let s = try decode(minimalScenario)
        #expect(s.channel == .apns && s.pushkit.reportFailure == 0 && s.pushkit.cutOffAfter == 3)
        #expect(s.fcm.ttl == span(28 * day) && s.fcm.collapseKeys == 0 && s.fcm.priority == .normal && s.device.doze.isEmpty)
        let text = ScenarioPrinter.yaml(s)
        for key in ["channel", "pushkit", "fcm", "doze"] { #expect(!text.contains(key)) }
    }

    @Test func everyKeyReadsAndPrintsBack() throws {
        let s = try decode(minimalScenario + """
            channel: fcm
            pushkit: {report_failure: 1%, cut_off_after: 5}
            fcm: {ttl: 3d, collapse_keys: 6, priority: high}
            device:
              doze:
                - {start: 23h, end: 7h, every: 1d}
            segments:
              - {name: iphones, share: 50%, channel: pushkit}
              - {name: androids, share: 50%}

            """)
        #expect(s.channel == .fcm && s.pushkit.reportFailure == 0.01 && s.pushkit.cutOffAfter == 5)
        #expect(s.fcm.ttl == span(3 * day) && s.fcm.collapseKeys == 6 && s.fcm.priority == .high)
        #expect(s.device.doze == [OfflineWindow(start: span(23 * hour), end: span(31 * hour), every: span(1 * day))])
        #expect(s.segments.map(\.channel) == [.pushkit, .fcm])
        #expect(s.scenario(forSegment: 0).channel == .pushkit && s.scenario(forSegment: 1).channel == .fcm)
        let again = try decode(ScenarioPrinter.yaml(s))
        #expect(again.channel == .fcm && again.segments.map(\.channel) == [.pushkit, .fcm])
        #expect(again.fcm.ttl == s.fcm.ttl && again.fcm.collapseKeys == 6 && again.fcm.priority == .high)
        #expect(again.pushkit.cutOffAfter == 5 && again.device.doze == s.device.doze)
        let set = try decode(minimalScenario + "segments: [{name: a, share: 1}]\n", overrides: ["segments.a.channel=pushkit", "fcm.ttl=1d"])
        #expect(set.segments[0].channel == .pushkit && set.channel == .apns && set.fcm.ttl == span(day))
    }

    @Test func badValuesAreLocated() {
        let unknown = scenarioError(minimalScenario + "channel: fmc\n")
        #expect(place(unknown) == "t.yaml:4:10")
        #expect(unknown?.message.contains("fcm") == true)
        let long = scenarioError(minimalScenario + "fcm:\n  ttl: 29d\n")
        #expect(place(long) == "t.yaml:5:8")
        #expect(long?.message.contains("at most 28d") == true)
        let zero = scenarioError(minimalScenario + "pushkit:\n  cut_off_after: 0\n")
        #expect(place(zero) == "t.yaml:5:18")
        let spread = scenarioError(minimalScenario + "device:\n  doze:\n    - {start: 1h, end: 2h, spread: 1h}\n")
        #expect(spread?.message.contains("constant times") == true)
        let shared = scenarioError(minimalScenario + "segments:\n  - {name: a, share: 1, fcm: {ttl: 1d}}\n")
        #expect(shared?.message.contains("shared by every device") == true)
    }
}

/// `extension.media`: sizes and bandwidths, their distributions, errors and printing.
@Suite struct MediaKeysTests {
    @Test func mediaReadsAndPrintsBack() throws {
        let s = try ScenarioLoader.parse(text: minimalScenario + """
            extension:
              media:
                share: 20%
                size: lognormal(200KB, 5MB)
                bandwidth: uniform(500kbit/s, 20Mbit/s)
                cache_hit: 0.3

            """, file: "t.yaml")
        let media = try #require(s.extension.media)
        #expect(media.share == 0.2 && media.cacheHit == 0.3)
        #expect(media.size == .lognormal(median: 204_800, p99: 5_242_880) && media.bandwidth == .uniform(min: 500_000, max: 20_000_000))
        let again = try ScenarioLoader.parse(text: ScenarioPrinter.yaml(s), file: "t.yaml")
        #expect(again.extension.media == media)
        #expect(try ScenarioLoader.parse(text: minimalScenario, file: "t.yaml").extension.media == nil)
    }

    @Test func badSizesAreLocated() {
        let unit = scenarioError(minimalScenario + "extension:\n  media: {share: 1, size: 3 MB, bandwidth: 1Mbit/s}\n")
        #expect(unit?.message.contains("of sizes such as `2KB`, found `3 MB`") == true && place(unit) == "t.yaml:5:27")
        let zero = scenarioError(minimalScenario + "extension:\n  media: {share: 1, size: 1MB, bandwidth: 0bit/s}\n")
        // Out of range, a constant keeps its own reason (not the distribution's generic hint).
        #expect(zero?.message.contains("greater than 0 and below 10¹⁵, found `0bit/s`") == true, "\(zero?.message ?? "accepted")")
        let missing = scenarioError(minimalScenario + "extension:\n  media: {share: 1, size: 1MB}\n")
        #expect(missing?.message.contains("missing required key `bandwidth`") == true)
        let time = scenarioError(minimalScenario + "extension:\n  media: {share: 1, size: exponential(2s), bandwidth: 1Mbit/s}\n")
        #expect(time?.message.contains("size") == true)
    }
}
