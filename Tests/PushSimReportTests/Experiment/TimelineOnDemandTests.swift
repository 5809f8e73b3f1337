// A phone's connectivity timeline drawn a few flips at a time (ConnectivityOnDemand.swift): the same flips, and only those ahead kept.
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
import PushSimTestSupport

@Suite struct TimelineOnDemandTests {
    /// The herd of CoupledRunTests over `days`, its phones drawing their own connectivity.
    func commuting(days: Int, extra: [String] = []) throws -> Scenario {
        try CoupledRunTests().herd(devices: 24, extra: ["duration=\(days)d", "queue.mode=on",
                                                        "connectivity.online=exponential(6h)",
                                                        "connectivity.offline=exponential(10m)"] + extra)
    }

    @Test func aTimelineDrawnOnDemandIsTheTimelineDrawnWhole() throws {
        // The incremental merge of the process with the shared windows against `generate`:
        // windows that overlap drawn periods, one that starts at time 0, a run shorter than a
        // period, and long offline periods that swallow windows.
        let cases: [[String]] = [
            [], ["connectivity.windows=[{start: 0, end: 3h}, {start: 8h, end: 9h, every: 1d}]"],
            ["connectivity.offline=exponential(5h)", "connectivity.windows=[{start: 8h, end: 8h10m, every: 1d}]"],
            ["connectivity.online=exponential(30d)"],
        ]
        for extra in cases {
            for days in [1, 7] {
                let scenario = try commuting(days: days, extra: extra)
                let windows = ChainParameters(scenario).sharedWindows
                for device in 0..<30 {
                    var whole = ConnectivityTimeline(), intervals: [Range<Int64>] = [], perDevice: [Range<Int64>] = []
                    whole.generate(scenario, device: device, windows: windows, scratch: &intervals, deviceScratch: &perDevice)
                    var drawn = ConnectivityTimeline()
                    let onDemand = drawn.drawOnDemand(scenario, device: device, windows: windows)
                    #expect(onDemand)
                    expectEqual(drawn.onlineAtStart, whole.onlineAtStart, "\(extra) \(days) d, device \(device)")
                    // A flip at a time or two (an interval's start and end), not the run's.
                    #expect(drawn.flips.count <= 2 || whole.flips.count <= 2)
                    var flips = drawn.flips
                    while drawn.onDemand != nil {
                        let before = drawn.flips.count
                        drawn.drawMore(try #require(ConnectivityProcess(scenario)), end: scenario.end.microseconds, windows: windows)
                        flips += drawn.flips[before...]
                    }
                    expectEqual(flips, whole.flips, "\(extra) \(days) d, device \(device)")
                }
            }
        }
        // Without the process, nothing is drawn on demand (the windows' timeline is shared).
        var none = ConnectivityTimeline()
        let windowsOnly = try CoupledRunTests().herd()
        let drawsWindowsOnly = none.drawOnDemand(windowsOnly, device: 0, windows: ChainParameters(windowsOnly).sharedWindows)
        #expect(!drawsWindowsOnly)
    }

    @Test func aSettlingWorldKeepsOnlyTheFlipsAheadWhateverTheDays() throws {
        // A world of a shared partition settling its letters in flight draws its flips as its
        // clock reaches them and drops those it passed: it never holds more than a few, and its
        // account is the account of the same world holding its whole timeline.
        for days in [2, 7] {
            let scenario = try commuting(days: days)
            let parameters = ChainParameters(scenario)
            for device in 0..<6 {
                var whole = DeviceWorld(parameters: parameters)
                whole.prepare(device: device)
                var wholeLedger = Ledger()
                whole.run(.on, into: &wholeLedger)
                #expect(whole.draws.timeline.flips.count > 4 * days)

                let settled = SettledLetters()
                var world = DeviceWorld(parameters: parameters)
                world.prepare(device: device, lettersOnDemand: true)
                let drawnOnDemand = world.draws.timelineOnDemand
                #expect(drawnOnDemand)
                world.begin(.on, settlingInto: settled)
                var server = PartitionServers(
                    xiva: XivaPartitionServer(parameters: parameters, end: world.clock.end, segments: [nil], seriesWanted: false),
                    binary: nil)
                var mostFlips = world.draws.timeline.flips.count
                while let now = world.runUntilItSends() {
                    mostFlips = max(mostFlips, world.draws.timeline.flips.count)
                    server.collect(from: &world, device: 0, at: now)
                }
                mostFlips = max(mostFlips, world.draws.timeline.flips.count)
                var ledger = Ledger()
                world.finish(into: &ledger)
                ledger.merge(settled.ledger)
                expectEqual(ledger, wholeLedger, "\(days) d, device \(device)")
                #expect(mostFlips <= 12, "\(days) d, device \(device): \(mostFlips) flips held")
            }
        }
    }
}
