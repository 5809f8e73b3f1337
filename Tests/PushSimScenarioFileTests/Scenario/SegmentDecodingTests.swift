// Tests of `segments:` (§6.4): exact shares and the devices B(i), resolution over the top level, errors, paths into segments.
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
import PushSimTestSupport

@Suite struct SegmentDecodingTests {
    private func decode(_ text: String, overrides: [String] = []) throws -> Scenario {
        try ScenarioLoader.parse(text: text, file: "t.yaml", overrides: overrides)
    }
    private let h = SimTime.hour, d = SimTime.day
    private func t(_ us: Int64) -> SimTime { SimTime(microseconds: us) }
    private func shares(_ texts: [String]) throws -> [DecimalShare] { try texts.map { try DecimalShare($0) } }
    private func bounds(_ devices: Int, _ texts: [String]) throws -> [Int] {
        let exact = try shares(texts)
        return SegmentShares.boundaries(devices: devices, shares: exact, common: try #require(SegmentShares.commonDenominator(exact)))
    }

    /// The contract's example, and ties: floor(x + 1/2) rounds a half up, exactly.
    @Test func boundariesFollowTheFormulaExactly() throws {
        try expectEqual(bounds(10, ["30%", "35%", "35%"]), [3, 7, 10])        // 6.5 → 7
        try expectEqual(bounds(10, ["0.25", "0.5", "0.25"]), [3, 8, 10])      // 2.5 → 3, 7.5 → 8
        try expectEqual(bounds(3, ["0.1", "0.2", "0.7"]), [0, 1, 3])          // 0.3 → 0, 0.9 → 1 (0.1 + 0.2 is exactly 0.3)
        try expectEqual(bounds(1, ["50%", "50%"]), [1, 1])                    // 0.5 → 1: the first segment gets the device
        try expectEqual(bounds(7, ["0", "1", "0"]), [0, 7, 7])
        try expectEqual(bounds(1, ["1"]), [1])
        // Eighteen places, and a device count near the top of Int: the product needs 128 bits.
        try expectEqual(bounds(Int.max, ["0.000000000000000001", "0.999999999999999999"]), [9, Int.max])
        try expectEqual(bounds(9_223_372_036_854_775_000, ["0.5", "0.5"]), [4_611_686_018_427_387_500, 9_223_372_036_854_775_000])
        try expectEqual(bounds(1_000_001, ["33.3333%", "33.3333%", "33.3334%"]), [333_333, 666_667, 1_000_001])
    }

    @Test func sharesAreExactDecimals() throws {
        try expectEqual(DecimalShare("60%"), DecimalShare(numerator: 60, denominator: 100))
        try expectEqual(DecimalShare("0.250"), DecimalShare(numerator: 25, denominator: 100))
        try expectEqual(DecimalShare("1"), DecimalShare(numerator: 1, denominator: 1))
        try expectEqual(DecimalShare("12.5%"), DecimalShare(numerator: 125, denominator: 1000))
        #expect(throws: ValueParsers.Failure.self) { try DecimalShare("0.1234567890123456789") }
        #expect(SegmentShares.firstPassingOne(try shares(["0.5", "0.5", "0.000001"]), common: 1_000_000) == 2)
        #expect(SegmentShares.firstPassingOne(try shares(["0.1", "0.2", "0.7"]), common: 10) == nil)
        expectEqual(DecimalShare.text(95, denominator: 100), "0.95")
        expectEqual(DecimalShare.text(1000, denominator: 1000), "1")
        expectEqual(DecimalShare.text(5, denominator: 1000), "0.005")
        expectEqual(DecimalShare.text(4, denominator: 6), "2/3")
    }

    /// Fractions are exact: three thirds add up to 1 and split 10 phones 3, 4, 3
    /// (10/3 = 3.33 → 3, 20/3 = 6.67 → 7); a third and a half mix over the denominator 6.
    @Test func sharesAcceptFractions() throws {
        try expectEqual(DecimalShare("2/6"), DecimalShare(numerator: 1, denominator: 3))
        try expectEqual(bounds(10, ["1/3", "1/3", "1/3"]), [3, 7, 10])
        try expectEqual(bounds(12, ["1/3", "50%", "1/6"]), [4, 10, 12])
        // A decimal is over its power of ten as written (0.25 is 25/100): 1/3 and 0.25 over 300.
        #expect(SegmentShares.commonDenominator(try shares(["1/3", "0.25"])) == 300)
        for bad in ["1/0", "4/3", "-1/3", "1/3.5", "a/3"] {
            #expect(throws: ValueParsers.Failure.self, "\(bad)") { try ValueParsers.probability(bad) }
        }
        try expectEqual(ValueParsers.probability("1/4"), 0.25)
        let scenario = try decode(minimalScenario + """
            segments:
              - {name: a, share: 1/3}
              - {name: b, share: 1/3}
              - {name: c, share: 1/3}
            """, overrides: ["devices=9"])
        expectEqual(scenario.segments.map(\.devices), [0..<3, 3..<6, 6..<9])
        // Through --set too, and a sum that misses 1 says so as a fraction.
        let set = try decode(minimalScenario + """
            segments:
              - {name: a, share: 50%}
              - {name: b, share: 50%}
            """, overrides: ["devices=6", "segments.a.share=2/3", "segments.b.share=1/3"])
        expectEqual(set.segments.map(\.devices), [0..<4, 4..<6])
        #expect {
            try decode(minimalScenario + """
                segments:
                  - {name: a, share: 1/3}
                  - {name: b, share: 1/3}
                """)
        } throws: { ($0 as? ScenarioError)?.message.contains("add up to 2/3") == true }
    }

    private let twoSegments = minimalScenario + """
        mail: {rate: 40/d, bursts: {rate: 1/d, size: 3}}
        connectivity:
          online: exponential(3h)
          offline: exponential(40m)
          windows: [{start: 8h, end: 9h, every: 1d}]
        device: {alerts_off: 10%}
        segments:
          - {name: commuters, share: 60%, connectivity: {windows: [{start: 17h, end: 18h, every: 1d}]}}
          - name: night-offline
            share: 40%
            mail: {rate: 20/d}
            connectivity:
              online: exponential(6h)
              windows:
                - {start: 23h, end: 7h, every: 1d, spread: 1h}
            extension: {deadline: 5s}

        """

    @Test func segmentsResolveOverTheTopLevel() throws {
        let sc = try decode(twoSegments)
        expectEqual(sc.segments.map(\.name), ["commuters", "night-offline"])
        expectEqual(sc.segments.map(\.share), ["60%", "40%"])
        expectEqual(sc.segments.map(\.devices), [0..<6, 6..<10])
        let commuters = sc.segments[0], night = sc.segments[1]
        // A key the segment gives replaces the top level's whole; the others keep it.
        expectEqual(commuters.connectivity.windows, [OfflineWindow(start: t(17 * h), end: t(18 * h), every: t(d))])
        expectEqual(commuters.connectivity.online, sc.connectivity.online)
        expectEqual(commuters.mail.ratePerMicrosecond, sc.mail.ratePerMicrosecond)
        expectEqual(commuters.mail.bursts, sc.mail.bursts)
        expectEqual(night.mail.ratePerMicrosecond, 20.0 / Double(d))
        expectEqual(night.mail.bursts, sc.mail.bursts)
        expectEqual(night.connectivity.online, .exponential(mean: Double(6 * h)))
        expectEqual(night.connectivity.offline, .exponential(mean: Double(40 * SimTime.minute)))
        #expect(night.connectivity.windows.first?.end == t(31 * h) && night.connectivity.windows.first?.spread == t(h))
        expectEqual(night.device.alertsOff, 0.1)
        expectEqual(commuters.device.alertsOff, 0.1)
        expectEqual(night.extension.deadline, t(5 * SimTime.second))
        expectEqual(commuters.extension.deadline, t(30 * SimTime.second))
        expectEqual(sc.segmentIndex(ofDevice: 5), 0)
        expectEqual(sc.segmentIndex(ofDevice: 6), 1)
        expectEqual(sc.scenario(forSegment: 1).mail.ratePerMicrosecond, 20.0 / Double(d))
    }

    @Test func theConnectivityPairRuleAppliesToTheResolvedPair() throws {
        // The top level gives only `online`; every segment completes the pair: fine.
        let text = minimalScenario + "connectivity: {online: exponential(1h)}\nsegments:\n  - {name: a, share: 1, connectivity: {offline: 5m}}\n"
        try expectEqual(decode(text).segments[0].connectivity.offline, .constant(t(5 * SimTime.minute)))
        // A segment that leaves the pair half given: the error is at the key that was given.
        let half = scenarioError(minimalScenario + "segments:\n  - {name: a, share: 1, connectivity: {online: 1h}}\n")
        expectEqual(place(half), "t.yaml:5:40")
        expectEqual(half?.message, "`segments.a.connectivity.online` and `segments.a.connectivity.offline` go together: expected both or neither, found `online` without `offline` (the resolved values of segment `a`)")
        let top = scenarioError(minimalScenario + "connectivity: {offline: 1h}\nsegments:\n  - {name: a, share: 50%}\n  - {name: b, share: 50%, connectivity: {online: 1h}}\n")
        expectEqual(place(top), "t.yaml:4:16")
        expectEqual(top?.message.contains("segment `a`"), true)
    }

    @Test func sharesMustAddUpToExactlyOne() {
        let short = scenarioError(minimalScenario + "segments:\n  - {name: a, share: 60%}\n  - {name: b, share: 0.35}\n")
        expectEqual(place(short), "t.yaml:5:3")
        expectEqual(short?.message, "`segments`: the shares add up to 0.95 (60% + 0.35); expected exactly 1 (100%)")
        let over = scenarioError(minimalScenario + "segments:\n  - {name: a, share: 0.7}\n  - {name: b, share: 0.3}\n  - {name: c, share: 0.0001}\n")
        expectEqual(place(over), "t.yaml:7:22")
        expectEqual(over?.message.contains("`segments.c.share`: the shares so far add up to 1.0001, more than 1"), true)
        // 0.1 + 0.2 + 0.7 is exactly 1 in decimal (not in floating point).
        #expect(scenarioError(minimalScenario + "segments:\n  - {name: a, share: 0.1}\n  - {name: b, share: 0.2}\n  - {name: c, share: 0.7}\n") == nil)
        let places = scenarioError(minimalScenario + "segments:\n  - {name: a, share: 0.1234567890123456789}\n")
        expectEqual(place(places), "t.yaml:5:22")
        expectEqual(places?.message.contains("at most 18 decimal places"), true)
        expectEqual(scenarioError(minimalScenario + "segments:\n  - {name: a, share: 101%}\n")?.message.contains("a probability is between 0 and 1"), true)
    }

    @Test func segmentStructureErrors() throws {
        let duplicate = scenarioError(minimalScenario + "segments:\n  - {name: a, share: 50%}\n  - {name: a, share: 50%}\n")
        expectEqual(place(duplicate), "t.yaml:6:12")
        expectEqual(duplicate?.message, "duplicate segment name `a` (first at line 5, column 12): expected each segment's name once")
        let unknown = scenarioError(minimalScenario + "segments:\n  - {name: a, shares: 1}\n")
        expectEqual(place(unknown), "t.yaml:5:15")
        expectEqual(unknown?.message, "unknown key `shares` in `segments[0]`; did you mean `share`?")
        let inner = scenarioError(minimalScenario + "segments:\n  - {name: a, share: 1, device: {alerts_of: 1%}}\n")
        expectEqual(inner?.message, "unknown key `alerts_of` in `segments.a.device`; did you mean `alerts_off`?")
        let shared = scenarioError(minimalScenario + "segments:\n  - {name: a, share: 1, apns: {loss: 1%}}\n")
        expectEqual(place(shared), "t.yaml:5:25")
        expectEqual(shared?.message.contains("`apns` is shared by every device and cannot be given in a segment"), true)
        let noName = scenarioError(minimalScenario + "segments:\n  - {share: 1}\n")
        expectEqual(noName?.message.contains("missing required key `name` in `segments[0]`"), true)
        let noShare = scenarioError(minimalScenario + "segments:\n  - {name: a}\n")
        expectEqual(noShare?.message.contains("missing required key `share` in `segments[0]`"), true)
        expectEqual(scenarioError(minimalScenario + "segments:\n  - {name: a/b, share: 1}\n")?.message.contains("`segments[0].name`: expected a non-empty name without `/`"), true)
        expectEqual(scenarioError(minimalScenario + "segments:\n  - {name: a.b, share: 1}\n")?.message.contains("without `.` or `=`"), true)
        expectEqual(scenarioError(minimalScenario + "segments: {a: 1}\n")?.message.contains("`segments`: expected a list of segments"), true)
        expectEqual(scenarioError(minimalScenario + "segments:\n  - 5\n")?.message.contains("`segments[0]`: expected a mapping"), true)
        expectEqual(scenarioError(minimalScenario + "segments:\n  - {name: a, share: 1, mail: {trace: x.csv}}\n")?.message.contains("`mail.trace` is top-level only"), true)
        expectEqual(scenarioError(minimalScenario + "segments:\n  - {name: a, share: 1, mail: {rate: 5}}\n")?.message.contains("`segments.a.mail.rate`: expected a rate"), true)
        // An empty list is no segments at all.
        #expect(try decode(minimalScenario + "segments: []\n").segments.isEmpty)
    }

    @Test func emptySegmentsAreAllowed() throws {
        let sc = try decode(minimalScenario.replacingOccurrences(of: "devices: 10", with: "devices: 3")
                            + "segments:\n  - {name: a, share: 10%}\n  - {name: b, share: 0}\n  - {name: c, share: 90%}\n")
        expectEqual(sc.segments.map(\.devices), [0..<0, 0..<0, 0..<3])
        expectEqual(sc.segmentIndex(ofDevice: 0), 2)
    }

    @Test func setAndSweepReachIntoSegments() throws {
        let sc = try decode(twoSegments, overrides: [
            "segments.commuters.mail.rate=10/d", "segments.night-offline.share=30%", "segments.commuters.share=0.7",
            "segments.commuters.device={alerts_off: 50%}", "segments.night-offline.mail.bursts.size=9",
            "segments.night-offline.connectivity.windows=[{start: 1h, end: 2h}]",
        ])
        expectEqual(sc.segments[0].mail.ratePerMicrosecond, 10.0 / Double(d))
        expectEqual(sc.segments[0].device.alertsOff, 0.5)
        expectEqual(sc.segments.map(\.devices), [0..<7, 7..<10])
        #expect(sc.segments[1].mail.bursts?.size == 9 && sc.segments[1].mail.bursts?.ratePerMicrosecond == 1.0 / Double(d))
        expectEqual(sc.segments[1].connectivity.windows, [OfflineWindow(start: t(h), end: t(2 * h))])

        let (_, axes) = try ScenarioLoader.parseWithSweep(text: twoSegments + "sweep:\n  segments.commuters.mail.rate: [1/d, 2/d]\n", file: "t.yaml")
        expectEqual(axes, [SweepAxis(path: "segments.commuters.mail.rate", values: ["1/d", "2/d"])])
    }

    @Test func pathsIntoSegmentsAreChecked() {
        let unknownName = scenarioError(twoSegments, overrides: ["segments.comuters.mail.rate=1/d"])
        expectEqual(place(unknownName), "--set:1:10")
        expectEqual(unknownName?.message, "unknown segment `comuters` in `segments.comuters.mail.rate`: the segments are `commuters`, `night-offline`; did you mean `commuters`?")
        let noSegments = scenarioError(minimalScenario, overrides: ["segments.a.share=1"])
        expectEqual(place(noSegments), "--set:1:10")
        expectEqual(noSegments?.message.contains("the scenario has no `segments` list"), true)
        let unknownKey = scenarioError(twoSegments, overrides: ["segments.commuters.mail.rat=1/d"])
        expectEqual(place(unknownKey), "--set:1:25")
        expectEqual(unknownKey?.message, "unknown key path `segments.commuters.mail.rat`; did you mean `segments.commuters.mail.rate`?")
        let shared = scenarioError(twoSegments, overrides: ["segments.commuters.xiva.drop=1%"])
        expectEqual(place(shared), "--set:1:20")
        expectEqual(shared?.message.contains("`xiva` is shared by every device and cannot be set in a segment"), true)
        expectEqual(scenarioError(twoSegments, overrides: ["segments.commuters.mail.trace=x.csv"])?.message.contains("top-level only"), true)
        expectEqual(scenarioError(twoSegments, overrides: ["segments.commuters=1"])?.message.contains("is one segment: set its keys"), true)
        expectEqual(scenarioError(twoSegments, overrides: ["segments.commuters.name=x"])?.message.contains("a segment's `name` cannot be set"), true)
        let sweep = scenarioError(twoSegments + "sweep:\n  segments.nite.share: [1]\n")
        expectEqual(place(sweep), "t.yaml:21:12")
        expectEqual(sweep?.message.contains("unknown segment `nite`"), true)
        // The whole list can be replaced.
        #expect((try? decode(twoSegments, overrides: ["segments=[{name: x, share: 1}]"]))?.segments.map(\.name) == ["x"])
    }
}
