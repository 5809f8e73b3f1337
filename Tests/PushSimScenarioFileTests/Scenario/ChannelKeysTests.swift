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
        expectEqual(s.channel, .apns)
        expectEqual(s.pushkit.reportFailure, 0)
        expectEqual(s.pushkit.cutOffAfter, 3)
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
        expectEqual(s.channel, .fcm)
        expectEqual(s.pushkit.reportFailure, 0.01)
        expectEqual(s.pushkit.cutOffAfter, 5)
        expectEqual(s.fcm.ttl, span(3 * day))
        expectEqual(s.fcm.collapseKeys, 6)
        expectEqual(s.fcm.priority, .high)
        expectEqual(s.device.doze, [OfflineWindow(start: span(23 * hour), end: span(31 * hour), every: span(1 * day))])
        expectEqual(s.segments.map(\.channel), [.pushkit, .fcm])
        expectEqual(s.scenario(forSegment: 0).channel, .pushkit)
        expectEqual(s.scenario(forSegment: 1).channel, .fcm)
        let again = try decode(ScenarioPrinter.yaml(s))
        #expect(again.channel == .fcm && again.segments.map(\.channel) == [.pushkit, .fcm])
        expectEqual(again.fcm.ttl, s.fcm.ttl)
        expectEqual(again.fcm.collapseKeys, 6)
        expectEqual(again.fcm.priority, .high)
        expectEqual(again.pushkit.cutOffAfter, 5)
        expectEqual(again.device.doze, s.device.doze)
        let set = try decode(minimalScenario + "segments: [{name: a, share: 1}]\n", overrides: ["segments.a.channel=pushkit", "fcm.ttl=1d"])
        expectEqual(set.segments[0].channel, .pushkit)
        expectEqual(set.channel, .apns)
        expectEqual(set.fcm.ttl, span(day))
    }

    @Test func badValuesAreLocated() {
        let unknown = scenarioError(minimalScenario + "channel: fmc\n")
        expectEqual(place(unknown), "t.yaml:4:10")
        expectEqual(unknown?.message.contains("fcm"), true)
        let long = scenarioError(minimalScenario + "fcm:\n  ttl: 29d\n")
        expectEqual(place(long), "t.yaml:5:8")
        expectEqual(long?.message.contains("at most 28d"), true)
        let zero = scenarioError(minimalScenario + "pushkit:\n  cut_off_after: 0\n")
        expectEqual(place(zero), "t.yaml:5:18")
        let spread = scenarioError(minimalScenario + "device:\n  doze:\n    - {start: 1h, end: 2h, spread: 1h}\n")
        expectEqual(spread?.message.contains("constant times"), true)
        let shared = scenarioError(minimalScenario + "segments:\n  - {name: a, share: 1, fcm: {ttl: 1d}}\n")
        expectEqual(shared?.message.contains("shared by every device"), true)
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
        expectEqual(media.share, 0.2)
        expectEqual(media.cacheHit, 0.3)
        expectEqual(media.size, .lognormal(median: 204_800, p99: 5_242_880))
        expectEqual(media.bandwidth, .uniform(min: 500_000, max: 20_000_000))
        let again = try ScenarioLoader.parse(text: ScenarioPrinter.yaml(s), file: "t.yaml")
        expectEqual(again.extension.media, media)
        #expect(try ScenarioLoader.parse(text: minimalScenario, file: "t.yaml").extension.media == nil)
    }

    @Test func badSizesAreLocated() {
        let unit = scenarioError(minimalScenario + "extension:\n  media: {share: 1, size: 3 MB, bandwidth: 1Mbit/s}\n")
        expectEqual(unit?.message.contains("of sizes such as `2KB`, found `3 MB`"), true)
        expectEqual(place(unit), "t.yaml:5:27")
        let zero = scenarioError(minimalScenario + "extension:\n  media: {share: 1, size: 1MB, bandwidth: 0bit/s}\n")
        // Out of range, a constant keeps its own reason (not the distribution's generic hint).
        expectEqual(zero?.message.contains("greater than 0 and below 10¹⁵, found `0bit/s`"), true, "\(zero?.message ?? "accepted")")
        let missing = scenarioError(minimalScenario + "extension:\n  media: {share: 1, size: 1MB}\n")
        expectEqual(missing?.message.contains("missing required key `bandwidth`"), true)
        let time = scenarioError(minimalScenario + "extension:\n  media: {share: 1, size: exponential(2s), bandwidth: 1Mbit/s}\n")
        expectEqual(time?.message.contains("size"), true)
    }
}
