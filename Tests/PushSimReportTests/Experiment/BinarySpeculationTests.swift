// Worlds running ahead of their binary connection on forecasts: the same ledgers, world for world, as worlds stopped at every push, however many forecasts fail.
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
@testable import PushSimExperiment
import PushSimTestSupport

@Suite struct BinarySpeculationTests {
    /// A slow connection with frequent errors and bursts of mail, everyone back online at 12h
    /// (BinaryCoupledRunTests'), all its devices on one connection: forecasts fail often
    /// (writes queue behind others', errors discard them).
    private func busyConnection(extra: [String] = []) throws -> Scenario {
        try BinaryCoupledRunTests.busyConnections(devices: 30, extra: extra)
    }

    /// Each world's ledger of each arm, the partition stepped with every world stopped at
    /// every push, or running ahead in windows of `window`.
    private func ledgers(_ scenario: Scenario, ahead window: Int64?) -> (ledgers: [Ledger], counts: SpeculationCounts) {
        let parameters = ChainParameters(scenario)
        let n = scenario.devices
        var ledgers: [Ledger] = []
        var counts = SpeculationCounts()
        for arm in [Arm.off, .on] {
            let worlds = CoupledWorlds(count: n) { i in
                var world = DeviceWorld(parameters: parameters)
                world.prepare(device: i, lettersOnDemand: true)
                return world
            }
            for i in 0..<n { worlds.with(i) { $0.begin(arm) } }
            var armLedgers = Array(repeating: Ledger(), count: n)
            var connection = BinaryConnectionServer(scenario: scenario)
            if let window {
                let armCounts = worlds.stepAhead(arm: arm, connection: &connection, window: window) { i in
                    worlds.with(i) { $0.finish(into: &armLedgers[i]) }
                }
                counts.forecasts += armCounts.forecasts
                counts.wrongForecasts += armCounts.wrongForecasts
                counts.stops += armCounts.stops
                counts.windows += armCounts.windows
            } else {
                var servers = PartitionServers(xiva: nil, binary: connection)
                worlds.step(servers: &servers) { i in worlds.with(i) { $0.finish(into: &armLedgers[i]) } }
            }
            ledgers += armLedgers
        }
        return (ledgers, counts)
    }

    @Test func worldsRunningAheadCountWhatWorldsStoppedAtEveryPushCount() throws {
        let hour: Int64 = 3_600_000_000
        let variants: [[String]] = [[], ["xiva.resend_buffer=4"], ["warmup=3h", "xiva.resend_buffer=2"],
                                    ["device.uninstall=1/d", "apns.feedback_delay=3h", "xiva.resend_buffer=3"],
                                    ["apns.connection_rate=forever", "apns.error_delay=0s"], ["apns.duplicate=5%"]]
        for extra in variants {
            let scenario = try busyConnection(extra: extra)
            // An instant connection with no round trip never queues nor discards: nothing to get wrong.
            let instant = extra.contains("apns.connection_rate=forever")
            let stopped = ledgers(scenario, ahead: nil).ledgers
            // One window for the whole run, windows of an hour, and of seven minutes (entries
            // carried from window to window, worlds resumed at each).
            for window: Int64 in [CoupledWorlds.speculationWindow, hour, 7 * 60_000_000] {
                let (ahead, counts) = ledgers(scenario, ahead: window)
                expectEqual(ahead, stopped, "\(extra), window \(window)")
                // The replay and the stops really ran: otherwise this compares nothing.
                #expect(counts.forecasts > 500 && (instant || counts.wrongForecasts > 5) && counts.stops > 5, "\(extra): \(counts)")
                if window < hour * 2 { #expect(counts.windows >= 30, "\(extra): \(counts)") }
            }
            #expect(instant || stopped.contains { $0.binary.discarded > 0 }, "\(extra)")
        }
    }

    /// Every device's ledger of every arm, as the product's coupled run keeps them.
    private struct PerDevice: DeviceLedgerSink {
        var ledgers: [[Ledger]]
        mutating func account(device: Int, segment: Int?, arm: Int, _ body: (inout Ledger) -> Void) { body(&ledgers[arm][device]) }
        mutating func partitionQueue(arm: Int, maxQueue: Int, maxQueueBySegment: [Int], series: XivaQueueSeries) {}
        mutating func finished(device: Int, arm: Int, world: borrowing DeviceWorld) {}
    }

    /// The fuzzed version-2 scenarios (segments, warm-ups, random mechanisms beside the binary
    /// interface), run by the product's coupled run with and without running ahead.
    @Test func withOtherMechanismsRunningAheadCountsTheSame() throws {
        let binary = VersionTwoFuzz.mechanisms.first { $0.name == "binary" }!.overrides
        var compared: [[String]] = []
        // More draws than cases needed: the HTTP/2-only mechanisms (APNs' answers, outages and
        // the provider token) are refused beside it, so about one draw in eight is compared.
        for k in 0..<50 {
            let fuzz = VersionTwoFuzz.scenario(k)
            let overrides = fuzz.overrides.contains("apns.interface=binary") ? fuzz.overrides : fuzz.overrides + binary
            // A combination the reader refuses (an HTTP/2 answer key, or FCM, with the binary
            // interface) is skipped, as a user's refused file would be.
            guard let scenario = try? ScenarioLoader.parse(text: fuzz.text, file: "fuzz.yaml", overrides: overrides) else { continue }
            let arms = scenario.arms
            func run(ahead: Bool) -> [[Ledger]] {
                var sink = PerDevice(ledgers: Array(repeating: Array(repeating: Ledger(), count: scenario.devices), count: arms.count))
                CoupledRun.simulate(scenario, devices: 0..<scenario.devices, arms: arms, binarySpeculation: ahead, into: &sink)
                return sink.ledgers
            }
            let ahead = run(ahead: true)
            expectEqual(ahead, run(ahead: false), "case \(k): \(fuzz.mechanisms)")
            #expect(ahead.joined().contains { $0.binary.written > 0 }, "case \(k): nothing written")
            compared.append(fuzz.mechanisms)
        }
        // Enough cases are compared, and between them they meet most mechanisms.
        #expect(compared.count >= 5, "\(compared)")
        #expect(Set(compared.joined()).count >= 16, "\(compared)")
    }

    @Test func aConnectionThatNeverQueuesNorFailsLeavesEveryForecastStanding() throws {
        // Writes that take no time and are never malformed: every forecast is the decision.
        let scenario = try busyConnection(extra: ["apns.connection_rate=forever", "apns.malformed=0"])
        let (ahead, counts) = ledgers(scenario, ahead: CoupledWorlds.speculationWindow)
        expectEqual(ahead, ledgers(scenario, ahead: nil).ledgers)
        #expect(counts.wrongForecasts == 0 && counts.forecasts > 1_000)
        // The one stop left is a re-send's: the queue arm re-requests.
        #expect(counts.stops > 0)
    }
}
