// Connectivity: fixed windows (with `every`, including the one covering time 0) and the
// stationary alternating process.
import Testing
@testable import PushSimCore
import PushSimTestSupport

@Suite struct ConnectivityTests {
    func timeline(_ s: Scenario, device: Int = 0) -> ConnectivityTimeline {
        var world = DeviceWorld(scenario: s)
        world.prepare(device: device)
        return world.draws.timeline
    }

    /// A night {23h, 31h, every 1d}: offline from midnight to 7h on the first day too.
    @Test func nightWindowCoversTimeZero() {
        var s = Scenario(name: "night", duration: span(3 * day), devices: 1)
        s.connectivity.windows = [OfflineWindow(start: span(23 * hour), end: span(31 * hour), every: span(1 * day))]
        let t = timeline(s)
        #expect(!t.onlineAtStart)
        expectEqual(t.flips, [7, 23, 31, 47, 55, 71, 79, 95].map { $0 * hour })
        #expect(!t.isOnline(at: 0) && !t.isOnline(at: 7 * hour - 1) && t.isOnline(at: 7 * hour))
        #expect(!t.isOnline(at: 23 * hour) && t.isOnline(at: 23 * hour - 1))
        expectEqual(ConnectivityTimeline.windowIntervals(s).first, 0..<7 * hour)
    }

    @Test func windowWithoutEveryHappensOnce() {
        var s = Scenario(name: "once", duration: span(3 * day), devices: 1)
        s.connectivity.windows = [OfflineWindow(start: span(8 * hour), end: span(8 * hour + 40 * minute))]
        let t = timeline(s)
        #expect(t.onlineAtStart)
        expectEqual(t.flips, [8 * hour, 8 * hour + 40 * minute])
    }

    @Test func overlappingWindowsMerge() {
        var s = Scenario(name: "merge", duration: span(1 * day), devices: 1)
        s.drain = .zero
        s.connectivity.windows = [
            OfflineWindow(start: span(2 * hour), end: span(4 * hour)),
            OfflineWindow(start: span(3 * hour), end: span(5 * hour)),
            OfflineWindow(start: span(5 * hour), end: span(6 * hour)),   // touching: one interval
        ]
        expectEqual(ConnectivityTimeline.windowIntervals(s), [2 * hour..<6 * hour])
        expectEqual(timeline(s).flips, [2 * hour, 6 * hour])
    }

    @Test func windowAsLongAsItsPeriodMeansAlwaysOffline() {
        var s = Scenario(name: "always", duration: span(2 * day), devices: 1)
        s.connectivity.windows = [OfflineWindow(start: span(1 * hour), end: span(25 * hour), every: span(1 * day))]
        let t = timeline(s)
        #expect(!t.onlineAtStart && t.flips.isEmpty)
    }

    /// Windows are laid on top of the alternating process: offline in every window, whatever it draws.
    @Test func windowsAreLaidOnTopOfTheAlternatingProcess() {
        var s = Scenario(name: "both", duration: span(3 * day), devices: 50)
        s.connectivity.online = .exponential(mean: Double(3 * hour))
        s.connectivity.offline = .exponential(mean: Double(40 * minute))
        s.connectivity.windows = [OfflineWindow(start: span(23 * hour), end: span(31 * hour), every: span(1 * day))]
        for d in 0..<s.devices {
            let t = timeline(s, device: d)
            #expect(zip(t.flips, t.flips.dropFirst()).allSatisfy { $0 < $1 })
            for window in ConnectivityTimeline.windowIntervals(s) {
                for probe in stride(from: window.lowerBound, to: window.upperBound, by: Int(30 * minute)) {
                    #expect(!t.isOnline(at: probe), "device \(d) at \(SimTime(microseconds: probe))")
                }
            }
        }
    }

    /// Rule 4: each device is online at time 0 with probability mean(online)/(mean(online)+mean(offline)).
    @Test func connectivityAtTimeZeroIsStationary() {
        var s = Scenario(name: "stationary", duration: span(1 * hour), devices: 8_000)
        s.drain = .zero
        s.connectivity.online = .uniform(min: Double(1 * hour), max: Double(5 * hour))
        s.connectivity.offline = constant(1 * hour)
        let online = (0..<s.devices).filter { timeline(s, device: $0).onlineAtStart }.count
        let p = 3.0 / 4.0
        #expect(within(Double(online) / Double(s.devices), p, se: binomialStandardError(p, s.devices)))
    }

    /// Rule 4: the first period's remaining length is residual: with constant offline periods of
    /// 1h, a device offline at 0 comes online at a uniform instant in [0, 1h), mean 30 min.
    @Test func firstPeriodHasTheResidualLength() {
        var s = Scenario(name: "residual", duration: span(1 * day), devices: 8_000)
        s.connectivity.online = constant(1 * hour)
        s.connectivity.offline = constant(1 * hour)
        var firstFlips: [Double] = []
        for d in 0..<s.devices {
            let t = timeline(s, device: d)
            if !t.onlineAtStart { firstFlips.append(Double(t.flips[0])) }
            // Afterwards the periods are the constant 1h.
            #expect(zip(t.flips, t.flips.dropFirst()).allSatisfy { $1 - $0 == 1 * hour })
        }
        let (mean, se) = meanAndStandardError(firstFlips)
        #expect(within(mean, Double(30 * minute), se: se))
    }

    /// The long-run share of time offline is mean(offline)/(mean(online)+mean(offline)).
    @Test func timeOfflineHasTheStationaryShare() {
        var s = Scenario(name: "share", duration: span(10 * day), devices: 200)
        s.drain = .zero
        s.connectivity.online = .exponential(mean: Double(3 * hour))
        s.connectivity.offline = .lognormal(median: Double(30 * minute), p99: Double(4 * hour))
        let pOff = s.connectivity.offline!.mean / (s.connectivity.online!.mean + s.connectivity.offline!.mean)
        var shares: [Double] = []
        for d in 0..<s.devices {
            let t = timeline(s, device: d)
            let end = s.end.microseconds
            var offline: Int64 = 0, online = t.onlineAtStart, last: Int64 = 0
            for flip in t.flips + [end] {
                if !online { offline += flip - last }
                online.toggle(); last = flip
            }
            shares.append(Double(offline) / Double(end))
        }
        let (mean, se) = meanAndStandardError(shares)
        #expect(within(mean, pOff, se: se))
    }

    /// The cursor lookup (used for instants ahead of the clock, asked in nearly increasing
    /// order) agrees with counting the flips, whatever order the instants come in, flip
    /// instants and their neighbours included.
    @Test func cursorLookupAgreesWithCountingFlips() {
        var rng = RandomStream(seed: 41)
        for _ in 0..<50 {
            var t = ConnectivityTimeline()
            t.onlineAtStart = rng.chance(0.5)
            var clock: Int64 = 0
            for _ in 0..<Int(rng.next() % 40) {
                clock += Int64(rng.next() % 1_000) + 1
                t.flips.append(clock)
            }
            var cursor = 0
            for _ in 0..<500 {
                let probe: Int64
                if !t.flips.isEmpty && rng.chance(0.3) {
                    probe = t.flips[Int(rng.next() % UInt64(t.flips.count))] + Int64(rng.next() % 3) - 1
                } else {
                    probe = Int64(rng.next() % UInt64(clock + 10)) - 5
                }
                let counted = t.flips.filter { $0 <= probe }.count
                let expected = t.onlineAtStart == (counted % 2 == 0)
                expectEqual(t.isOnline(at: probe, cursor: &cursor), expected)
            }
        }
    }
}
