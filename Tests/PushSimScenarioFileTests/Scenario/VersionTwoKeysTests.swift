// Tests of version 2's keys outside segments and traces: warmup, daily_profile, bursts, per-device windows, the APNs store keys.
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
import PushSimTestSupport

@Suite struct VersionTwoKeysTests {
    private func decode(_ text: String, overrides: [String] = []) throws -> Scenario {
        try ScenarioLoader.parse(text: text, file: "t.yaml", overrides: overrides)
    }
    private let s = SimTime.second, m = SimTime.minute, h = SimTime.hour, d = SimTime.day
    private func t(_ us: Int64) -> SimTime { SimTime(microseconds: us) }
    private let flat = "[" + Array(repeating: "1", count: 24).joined(separator: ", ") + "]"

    @Test func noVersionTwoKeyLeavesEveryNewFieldAtItsDefault() throws {
        let sc = try decode(ContractExample.text)
        expectEqual(sc.warmup, .zero)
        #expect(sc.mail.dailyProfile == nil && sc.mail.bursts == nil && sc.mail.trace == nil)
        #expect(sc.connectivity.windows.allSatisfy { $0.isSameForEveryDevice })
        expectEqual(sc.apns.keepOlder, 0)
        expectEqual(sc.apns.keepWindow, t(s))
        expectEqual(sc.apns.duplicate, 0)
        #expect(sc.segments.isEmpty)
    }

    @Test func contractExamplesOfVersionTwoDecode() throws {
        let sc = try decode(ContractExample.versionTwo)
        expectEqual(sc.warmup, t(d))
        expectEqual(sc.mail.ratePerMicrosecond, 60.0 / Double(d))
        expectEqual(sc.mail.dailyProfile, [1, 1, 1, 1, 1, 1, 2, 4, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 5, 4, 3, 2, 1, 1])
        expectEqual(sc.mail.bursts, MailBursts(ratePerMicrosecond: 1.0 / Double(d), size: 8, spread: t(2 * m)))
        #expect(sc.connectivity.windows == [OfflineWindow(start: t(22 * h), length: .uniform(min: Double(6 * h), max: Double(9 * h)),
                                                          every: t(d), spread: t(2 * h))])
        expectEqual(sc.segments.map(\.name), ["commuters", "night-offline"])
        expectEqual(sc.segments.map(\.devices), [0..<60, 60..<100])
        expectEqual(sc.segments[0].connectivity.windows, [OfflineWindow(start: t(8 * h), end: t(8 * h + 40 * m), every: t(d))])
        expectEqual(sc.segments[0].mail.dailyProfile, sc.mail.dailyProfile)
        var night = OfflineWindow(start: t(23 * h), end: t(31 * h), every: t(d))
        night.spread = t(h)
        expectEqual(sc.segments[1].connectivity.windows, [night])
        #expect(sc.segments[1].mail.ratePerMicrosecond == 20.0 / Double(d) && sc.segments[1].mail.bursts == sc.mail.bursts)
        expectEqual(sc.apns.keepOlder, 0)
        expectEqual(sc.apns.keepWindow, t(s))
        expectEqual(sc.apns.duplicate, 0)
    }

    @Test func warmupIsReadAndMustBeShorterThanTheDuration() throws {
        try expectEqual(decode(minimalScenario + "warmup: 6h\n").warmup, t(6 * h))
        try expectEqual(decode(minimalScenario, overrides: ["warmup=0"]).warmup, .zero)
        let error = scenarioError(minimalScenario + "warmup: 1d\n")
        expectEqual(place(error), "t.yaml:4:9")
        expectEqual(error?.message.contains("`warmup`: expected a duration shorter than `duration` (1d)"), true)
        expectEqual(place(scenarioError(minimalScenario, overrides: ["warmup=2d"])), "--set:1:8")
        expectEqual(scenarioError(minimalScenario + "warmup: 1\n")?.message.contains("needs a unit"), true)
    }

    @Test func dailyProfileReadsTwentyFourWeightsInFlowOrBlockStyle() throws {
        let weights = (0..<24).map { String($0 % 7) + ".5" }
        let flow = try decode(minimalScenario + "mail: {rate: 60/d, daily_profile: [\(weights.joined(separator: ", "))]}\n")
        expectEqual(flow.mail.dailyProfile, weights.map { Double($0)! })
        expectEqual(flow.mail.ratePerMicrosecond, 60.0 / Double(d))
        let block = try decode(minimalScenario + "mail:\n  daily_profile:\n" + weights.map { "    - \($0)\n" }.joined())
        expectEqual(block.mail.dailyProfile, flow.mail.dailyProfile)
        let zeros = "[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3]"
        #expect(try decode(minimalScenario + "mail: {daily_profile: \(zeros)}\n").mail.dailyProfile?.last == 3)
    }

    @Test func dailyProfileErrorsPointAtTheOffendingItem() {
        let short = "[" + Array(repeating: "1", count: 23).joined(separator: ", ") + "]"
        let fewer = scenarioError(minimalScenario + "mail:\n  daily_profile: \(short)\n")
        expectEqual(place(fewer), "t.yaml:5:18")
        expectEqual(fewer?.message, "`mail.daily_profile`: expected exactly 24 weights (hours 0 to 23), found 23")
        let long = "[" + Array(repeating: "1", count: 24).joined(separator: ",") + ",7]"
        let more = scenarioError(minimalScenario + "mail:\n  daily_profile: \(long)\n")
        expectEqual(place(more), "t.yaml:5:67")
        expectEqual(more?.message.contains("found 25: this is the 25th"), true)
        let negative = scenarioError(minimalScenario + "mail:\n  daily_profile: [1, 1, -2" + String(repeating: ", 1", count: 21) + "]\n")
        expectEqual(place(negative), "t.yaml:5:25")
        expectEqual(negative?.message, "`mail.daily_profile[2]`: a weight cannot be negative, found `-2`")
        let word = scenarioError(minimalScenario + "mail:\n  daily_profile:\n" + String(repeating: "    - 1\n", count: 5) + "    - many\n")
        expectEqual(place(word), "t.yaml:11:7")
        expectEqual(word?.message.contains("`mail.daily_profile[5]`: expected a weight ≥ 0 such as `1` or `0.5`, found `many`"), true)
        let allZero = scenarioError(minimalScenario + "mail: {daily_profile: [" + Array(repeating: "0.0", count: 24).joined(separator: ", ") + "]}\n")
        expectEqual(place(allZero), "t.yaml:4:23")
        expectEqual(allZero?.message.contains("expected at least one weight greater than 0, found all 24 zero"), true)
        expectEqual(scenarioError(minimalScenario + "mail: {daily_profile: 1}\n")?.message.contains("expected a list of 24 hourly weights"), true)
        let huge = String(repeating: "9", count: 400)
        #expect(scenarioError(minimalScenario + "mail: {daily_profile: [\(huge)" + String(repeating: ", 1", count: 23) + "]}\n")?.message.contains("is too large") == true)
        let big = "1" + String(repeating: "0", count: 307)
        #expect(scenarioError(minimalScenario + "mail: {daily_profile: [" + Array(repeating: big, count: 24).joined(separator: ", ") + "]}\n")?
            .message.contains("too large to add up") == true)
    }

    @Test func burstsAreReadWithSpreadDefaultingToZero() throws {
        let sc = try decode(minimalScenario + "mail: {rate: 60/d, bursts: {rate: 1/d, size: 8, spread: 2m}}\n")
        expectEqual(sc.mail.bursts, MailBursts(ratePerMicrosecond: 1.0 / Double(d), size: 8, spread: t(2 * m)))
        let block = try decode(minimalScenario + "mail:\n  bursts:\n    rate: 3/h\n    size: 1\n")
        expectEqual(block.mail.bursts, MailBursts(ratePerMicrosecond: 3.0 / Double(h), size: 1, spread: .zero))
    }

    @Test func burstErrors() {
        let missing = scenarioError(minimalScenario + "mail: {bursts: {rate: 1/d}}\n")
        expectEqual(place(missing), "t.yaml:4:16")
        expectEqual(missing?.message.contains("missing required key `size` in `mail.bursts`"), true)
        let zero = scenarioError(minimalScenario + "mail: {bursts: {rate: 1/d, size: 0}}\n")
        expectEqual(place(zero), "t.yaml:4:34")
        expectEqual(zero?.message, "`mail.bursts.size`: expected an integer ≥ 1, found `0`")
        let unknown = scenarioError(minimalScenario + "mail: {bursts: {rate: 1/d, size: 2, sprd: 1m}}\n")
        expectEqual(place(unknown), "t.yaml:4:37")
        expectEqual(unknown?.message, "unknown key `sprd` in `mail.bursts`; did you mean `spread`?")
        expectEqual(scenarioError(minimalScenario + "mail: {bursts: 5}\n")?.message.contains("`mail.bursts`: expected a mapping"), true)
        expectEqual(scenarioError(minimalScenario + "mail: {bursts: {rate: 1, size: 2}}\n")?.message.contains("`mail.bursts.rate`: expected a rate"), true)
    }

    @Test func windowsTakeALengthAndASpread() throws {
        let sc = try decode(minimalScenario + """
            connectivity:
              windows:
                - start: 22h
                  length: uniform(6h, 9h)
                  spread: 2h
                  every: 1d
                - {start: 8h, end: 9h, spread: 30m}
                - {start: 1h, length: exponential(20m)}

            """)
        #expect(sc.connectivity.windows == [
            OfflineWindow(start: t(22 * h), length: .uniform(min: Double(6 * h), max: Double(9 * h)), every: t(d), spread: t(2 * h)),
            { var w = OfflineWindow(start: t(8 * h), end: t(9 * h)); w.spread = t(30 * m); return w }(),
            OfflineWindow(start: t(h), length: .exponential(mean: Double(20 * m))),
        ])
        expectEqual(sc.connectivity.windows.map(\.isSameForEveryDevice), [false, false, false])
    }

    @Test func anEndAtOrBeforeTheStartIsTheNextPeriodsWithEvery() throws {
        let night = try decode(minimalScenario + "connectivity: {windows: [{start: 23h, end: 7h, every: 1d}]}\n")
        expectEqual(night.connectivity.windows, [OfflineWindow(start: t(23 * h), end: t(31 * h), every: t(d))])
        let whole = try decode(minimalScenario + "connectivity: {windows: [{start: 5h, end: 5h, every: 1d}]}\n")
        expectEqual(whole.connectivity.windows, [OfflineWindow(start: t(5 * h), end: t(29 * h), every: t(d))])
        let once = scenarioError(minimalScenario + "connectivity: {windows: [{start: 23h, end: 7h}]}\n")
        expectEqual(place(once), "t.yaml:4:44")
        expectEqual(once?.message.contains("expected a time after start (23h), found `7h` (a window that crosses a period's end needs `every`"), true)
        let farBack = scenarioError(minimalScenario + "connectivity: {windows: [{start: 23h, end: 1h, every: 12h}]}\n")
        expectEqual(place(farBack), "t.yaml:4:44")
        expectEqual(farBack?.message.contains("or at most one period (12h) before it"), true)
    }

    @Test func aWindowGivesExactlyOneOfEndAndLength() {
        let both = scenarioError(minimalScenario + "connectivity:\n  windows:\n    - start: 1h\n      end: 2h\n      length: 1h\n")
        expectEqual(place(both), "t.yaml:8:7")
        expectEqual(both?.message.contains("`connectivity.windows[0]`: expected `end` or `length`, not both"), true)
        let neither = scenarioError(minimalScenario + "connectivity:\n  windows:\n    - {start: 1h, every: 1d}\n")
        expectEqual(place(neither), "t.yaml:6:7")
        expectEqual(neither?.message.contains("missing required key `end` in `connectivity.windows[0]` (such as `end: 9h`), or `length`"), true)
        let badLength = scenarioError(minimalScenario + "connectivity:\n  windows:\n    - {start: 1h, length: soon}\n")
        expectEqual(badLength?.message.contains("`connectivity.windows[0].length`: expected a duration, `exponential(MEAN)`"), true)
        let badSpread = scenarioError(minimalScenario + "connectivity:\n  windows:\n    - {start: 1h, end: 2h, spread: -1h}\n")
        expectEqual(badSpread?.message.contains("`connectivity.windows[0].spread`: a duration cannot be negative"), true)
    }

    @Test func windowRangeChecksCoverSpreadAndLength() {
        // start + spread past the clock's end.
        let spread = scenarioError(minimalScenario + "connectivity:\n  windows:\n    - {start: 100000000d, end: 100000001d, spread: 10000000d}\n")
        expectEqual(place(spread), "t.yaml:6:52")
        expectEqual(spread?.message.contains("`connectivity.windows[0].spread`: shifting the window"), true)
        // A drawn length repeats from start + spread: that, plus every, must fit. Without the
        // spread it would, so the spread is blamed (hostile round three: not `every`).
        let every = scenarioError(minimalScenario + "connectivity:\n  windows:\n    - {start: 53375995d, length: 1h, spread: 53375995d, every: 2d}\n")
        expectEqual(place(every), "t.yaml:6:46")
        expectEqual(every?.message.contains("`connectivity.windows[0].spread`: shifting the window by up to 53375995d and repeating it every 2d"), true)
        #expect(scenarioError(minimalScenario + "connectivity:\n  windows:\n    - {start: 53375995d, length: 1h, spread: 1d, every: 2d}\n") == nil)
    }

    @Test func apnsStoreKeysAreRead() throws {
        let sc = try decode(minimalScenario + "apns: {keep_older: 30%, keep_window: 250ms, duplicate: 0.01}\n")
        expectEqual(sc.apns.keepOlder, 0.3)
        expectEqual(sc.apns.keepWindow, t(250 * SimTime.millisecond))
        expectEqual(sc.apns.duplicate, 0.01)
        expectEqual(scenarioError(minimalScenario + "apns: {keep_older: 2}\n")?.message.contains("`apns.keep_older`: a probability is between 0 and 1"), true)
        expectEqual(scenarioError(minimalScenario + "apns: {keep_window: forever}\n")?.message.contains("`apns.keep_window`: `forever` is not accepted here"), true)
        expectEqual(scenarioError(minimalScenario + "apns: {dupliate: 1%}\n")?.message, "unknown key `dupliate` in `apns`; did you mean `duplicate`?")
    }

    @Test func newKeysAreSettable() throws {
        let sc = try decode(minimalScenario, overrides: [
            "mail.daily_profile=\(flat)", "mail.bursts={rate: 2/d, size: 3}", "mail.bursts.spread=1m", "mail.bursts.size=4",
            "apns.keep_older=1%", "apns.keep_window=2s", "apns.duplicate=0.5",
            "connectivity.windows=[{start: 22h, length: uniform(6h, 9h), spread: 1h, every: 1d}]",
        ])
        expectEqual(sc.mail.dailyProfile, Array(repeating: 1, count: 24))
        expectEqual(sc.mail.bursts, MailBursts(ratePerMicrosecond: 2.0 / Double(d), size: 4, spread: t(m)))
        expectEqual(sc.apns.keepOlder, 0.01)
        expectEqual(sc.apns.keepWindow, t(2 * s))
        expectEqual(sc.apns.duplicate, 0.5)
        expectEqual(sc.connectivity.windows.first?.spread, t(h))
        // A burst key set alone creates the mapping, and the decoder asks for the rest.
        let partial = scenarioError(minimalScenario, overrides: ["mail.bursts.rate=1/d"])
        expectEqual(partial?.message.contains("missing required key `size` in `mail.bursts`"), true)
        let deep = scenarioError(minimalScenario, overrides: ["mail.bursts.rate.x=1"])
        expectEqual(place(deep), "--set:1:18")
        expectEqual(deep?.message, "`mail.bursts.rate` holds a single value: it has no key `x`")
        let list = scenarioError(minimalScenario, overrides: ["mail.daily_profile.3=1"])
        expectEqual(list?.message, "`mail.daily_profile` holds a list, which can only be replaced whole: it has no key `3`")
        let typo = scenarioError(minimalScenario, overrides: ["mail.burst.rate=1/d"])
        expectEqual(typo?.message, "unknown key path `mail.burst.rate`; did you mean `mail.bursts.rate`?")
    }
}
