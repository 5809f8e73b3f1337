// Offline windows that differ per device (§6.3): spread offsets, drawn lengths, nights.
import Foundation
import Testing
@testable import PushSimCore
import PushSimTestSupport

@Suite struct DeviceWindowTests {
    static func timelines(_ s: Scenario) -> [ConnectivityTimeline] {
        var world = DeviceWorld(scenario: s)
        return (0..<s.devices).map { d in world.prepare(device: d); return world.draws.timeline }
    }

    static func share(offlineAt t: Int64, _ timelines: [ConnectivityTimeline]) -> Double {
        Double(timelines.filter { !$0.isOnline(at: t) }.count) / Double(timelines.count)
    }

    /// A window of length L shifted by an offset uniform in [0, S): at start + x the device is
    /// offline iff offset ≤ x < offset + L, so the share is (min(x, S) − max(0, x − L)) / S.
    @Test func spreadShareOfflineMatchesClosedForm() {
        var s = Scenario(name: "spread", duration: span(3 * day), devices: 2000)
        s.mail.ratePerMicrosecond = 0
        var window = OfflineWindow(start: span(8 * hour), end: span(9 * hour), every: span(day))
        window.spread = span(2 * hour)
        s.connectivity.windows = [window]
        let timelines = DeviceWindowTests.timelines(s)
        let (L, S) = (Double(hour), Double(2 * hour))
        for x in [30 * minute, 90 * minute, 150 * minute] {
            let expected = (min(Double(x), S) - max(0, Double(x) - L)) / S
            let measured = DeviceWindowTests.share(offlineAt: day + 8 * hour + x, timelines)
            let se = binomialStandardError(expected, s.devices)
            report("offline share at 8h+\(x / minute)m", measured: measured, se: se, expected: expected)
            #expect(within(measured, expected, se: se))
        }
        // The offset is drawn once per device: every day the same shift.
        for t in timelines.prefix(50) {
            let first = t.flips.filter { $0 < day }, second = t.flips.filter { $0 >= day && $0 < 2 * day }
            #expect(zip(first, second).allSatisfy { $1 - $0 == day })
        }
    }

    /// `length` is drawn per device per occurrence: the offline stretches have the
    /// distribution's mean, and successive nights of one device differ.
    @Test func lengthsAreDrawnPerOccurrence() {
        var s = Scenario(name: "length", duration: span(6 * day), devices: 300)
        s.mail.ratePerMicrosecond = 0
        s.connectivity.windows = [OfflineWindow(start: span(10 * hour), length: .exponential(mean: Double(hour)), every: span(day))]
        var lengths: [Double] = []
        var differ = 0
        for t in DeviceWindowTests.timelines(s) {
            #expect(t.onlineAtStart)
            var own: [Int64] = []
            var i = 0
            while i + 1 < t.flips.count { own.append(t.flips[i + 1] - t.flips[i]); i += 2 }
            lengths += own.map(Double.init)
            if Set(own).count > 1 { differ += 1 }
        }
        let (mean, se) = meanAndStandardError(lengths)
        report("window length", measured: mean, se: se, expected: Double(hour))
        #expect(within(mean, Double(hour), se: se))
        #expect(differ > 290)
    }

    /// A night {start: 23h, end: 7h, every: 1d} with spread 1h covers day 0's early hours: the
    /// occurrence that began in (−1d, 0] is laid too. At 07:30 a device is still offline iff
    /// its offset exceeds 30 minutes.
    @Test func nightCrossingMidnightCoversDayZero() {
        var s = Scenario(name: "night", duration: span(2 * day), devices: 1000)
        s.mail.ratePerMicrosecond = 0
        var night = OfflineWindow(start: span(23 * hour), end: span(31 * hour), every: span(day))
        night.spread = span(hour)
        s.connectivity.windows = [night]
        let timelines = DeviceWindowTests.timelines(s)
        #expect(timelines.allSatisfy { !$0.onlineAtStart })
        expectEqual(DeviceWindowTests.share(offlineAt: 3 * hour, timelines), 1)
        let measured = DeviceWindowTests.share(offlineAt: 7 * hour + 30 * minute, timelines)
        #expect(within(measured, 0.5, se: binomialStandardError(0.5, s.devices)))
    }

    /// Windows from several entries merge where they overlap, and a window that is the same for
    /// every device still merges with a per-device one.
    @Test func overlappingEntriesMerge() {
        var s = Scenario(name: "merge", duration: span(1 * day), devices: 1)
        s.drain = span(0)
        s.mail.ratePerMicrosecond = 0
        s.connectivity.windows = [OfflineWindow(start: span(8 * hour), end: span(10 * hour)),
                                  OfflineWindow(start: span(9 * hour), length: constant(2 * hour))]
        let t = DeviceWindowTests.timelines(s)[0]
        expectEqual(t.flips, [8 * hour, 11 * hour])
    }
}
