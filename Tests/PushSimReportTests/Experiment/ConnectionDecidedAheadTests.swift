// The binary connection decided before the worlds run, in an arm whose writes the scripts fix: the same ledgers, world for world, as worlds stopped at every push; and only where the scripts do fix every write.
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
@testable import PushSimExperiment
import PushSimTestSupport

@Suite struct ConnectionDecidedAheadTests {
    /// A partition's worlds, made and begun with `arm`.
    private func begunWorlds(_ scenario: Scenario, arm: Arm) -> CoupledWorlds {
        let parameters = ChainParameters(scenario)
        let worlds = CoupledWorlds(count: scenario.devices) { i in
            var world = DeviceWorld(parameters: parameters)
            world.prepareBesidePartition(device: i, scratch: DrawScratch(), keepingEveryLetter: true)
            return world
        }
        for i in 0..<scenario.devices { worlds.with(i) { $0.begin(arm) } }
        return worlds
    }

    /// Each world's ledger of `arm`, the partition stepped with every world stopped at every
    /// push, or with its connection decided ahead in windows of `window` (and then what that
    /// decided: every world must have run exactly the writes and checks decided for it).
    private func ledgers(_ scenario: Scenario, arm: Arm, decidedAheadIn window: Int64?) -> (ledgers: [Ledger], counts: DecidedAheadCounts) {
        let worlds = begunWorlds(scenario, arm: arm)
        var ledgers = Array(repeating: Ledger(), count: scenario.devices)
        var connection = BinaryConnectionServer(scenario: scenario)
        var counts = DecidedAheadCounts()
        if let window {
            #expect(worlds.armWritesFollowTheScripts())
            counts = worlds.stepDecidedAhead(connection: &connection, window: window) { i in worlds.with(i) { $0.finish(into: &ledgers[i]) } }
        } else {
            var servers = PartitionServers(xiva: nil, binary: connection)
            worlds.step(servers: &servers) { i in worlds.with(i) { $0.finish(into: &ledgers[i]) } }
        }
        return (ledgers, counts)
    }

    @Test func decidedAheadCountsWhatWorldsStoppedAtEveryPushCount() throws {
        let hour: Int64 = 3_600_000_000
        // A slow connection with frequent errors and bursts of mail (writes queue behind
        // others', errors discard them, buffer checks write them again or lose them), with and
        // without a buffer, a warm-up, uninstalls (XIVA writing on until the feedback list), an
        // instant connection, APNs' second copies and a payload size over the binary limit now
        // and then.
        let variants: [[String]] = [[], ["xiva.resend_buffer=4"], ["warmup=3h", "xiva.resend_buffer=2"],
                                    ["device.uninstall=1/d", "apns.feedback_delay=3h", "xiva.resend_buffer=3"],
                                    ["apns.connection_rate=forever", "apns.error_delay=0s"], ["apns.duplicate=5%"],
                                    ["mail.payload_size=lognormal(1500B, 5120B)", "xiva.resend_buffer=3"]]
        var rewritten = 0, discarded = 0, checks = 0
        for extra in variants {
            let scenario = try BinaryCoupledRunTests.busyConnections(devices: 30, extra: extra + ["xiva.partitions=1"])
            let stopped = ledgers(scenario, arm: .off, decidedAheadIn: nil).ledgers
            // One window for the whole day, windows of an hour and of seven minutes (first sends
            // and buffer checks carried from window to window).
            for window: Int64 in [CoupledWorlds.speculationWindow, hour, 7 * 60_000_000] {
                let (ahead, counts) = ledgers(scenario, arm: .off, decidedAheadIn: window)
                expectEqual(ahead, stopped, "\(extra), window \(window)")
                expectEqual(counts.worldsThatDiffered, 0, "\(extra), window \(window)")
                // Every write counted was decided ahead (a write ending after the run, or of a
                // letter in the warm-up, is decided but not counted).
                #expect(counts.writes >= stopped.reduce(0) { $0 + $1.binary.written }, "\(extra), window \(window)")
                checks += counts.checks
            }
            #expect(stopped.contains { $0.binary.written > 100 }, "\(extra)")
            rewritten += stopped.reduce(0) { $0 + $1.binary.rewritten }
            discarded += stopped.reduce(0) { $0 + $1.binary.discarded }
        }
        // The buffer checks really ran, both ways: otherwise this compares only plain writes.
        #expect(rewritten > 10 && discarded > rewritten && checks > rewritten, "rewritten \(rewritten), discarded \(discarded), checks \(checks)")
    }

    /// A buffer check and a first send of the same device at the same instant go in the order
    /// the world scheduled them: the send first when its letter reached XIVA no later than the
    /// instant the check was scheduled (the end of the instant its discarded write was decided).
    /// Letter 0 is over the payload limit: written at 1h, it arrives at 1h + 100 ms and is
    /// rejected, and XIVA hears of it at e = 1h + 1.1 s. Letter 1 joins at 1h + 50 ms, ends on the
    /// closed connection, and its check is scheduled at the end of that instant, for e. Letter 2,
    /// over the limit too, joins at e; its letter reached XIVA at 1h + 50 ms or at 1h + 60 ms.
    /// Written first, it is rejected at e + 100 ms and the rewrite of letter 1, behind it, is
    /// discarded again (written a second time later); written after the rewrite, the rewrite is
    /// taken and letter 2 rejected.
    @Test func aCheckAndASendAtOneInstantKeepTheWorldsOrder() throws {
        let scenario = binaryScenario(buffer: 10)
        for (reachedXiva, sendFirst) in [(1 * hour + 50 * ms, true), (1 * hour + 60 * ms, false)] {
            let letters = [ScriptedLetter(time: 1 * hour, xivaLatency: 0, payloadTooLarge: true),
                           ScriptedLetter(time: 1 * hour + 50 * ms, xivaLatency: 0),
                           ScriptedLetter(time: reachedXiva, xivaLatency: 1 * hour + 1_100 * ms - reachedXiva, payloadTooLarge: true)]
            var stopped = ScriptedWorld(scenario, letters: letters)
            let reference = stopped.run(.off)
            // The tie is real: which goes first decides whether letter 1 is written twice again.
            expectEqual(reference.binary.rewritten, sendFirst ? 2 : 1, "letter 2 reached XIVA at \(reachedXiva)")
            let worlds = CoupledWorlds(count: 1) { _ in ScriptedWorld.world(scenario, letters: letters) }
            worlds.with(0) { $0.begin(.off) }
            #expect(worlds.armWritesFollowTheScripts())
            var ledger = Ledger()
            var connection = BinaryConnectionServer(scenario: scenario)
            let counts = worlds.stepDecidedAhead(connection: &connection) { i in worlds.with(i) { $0.finish(into: &ledger) } }
            expectEqual(ledger, reference, "letter 2 reached XIVA at \(reachedXiva)")
            expectEqual(counts, DecidedAheadCounts(writes: sendFirst ? 5 : 4, checks: sendFirst ? 2 : 1, worldsThatDiffered: 0))
        }
    }

    @Test func onlyAnArmWhoseWritesTheScriptsFixIsDecidedAhead() throws {
        let plain = try BinaryCoupledRunTests.busyConnections(devices: 4)
        #expect(begunWorlds(plain, arm: .off).armWritesFollowTheScripts())
        // The queue arm re-sends what the extension asks for again: its writes depend on its worlds.
        #expect(!begunWorlds(plain, arm: .on).armWritesFollowTheScripts())
        // An outage holds letters back; a reinstall drops those of the old token.
        let outage = try BinaryCoupledRunTests.busyConnections(devices: 4, extra: ["xiva.outages=[{start: 2h, end: 3h}]"])
        #expect(!begunWorlds(outage, arm: .off).armWritesFollowTheScripts())
        let reinstalls = try BinaryCoupledRunTests.busyConnections(devices: 4, extra: ["device.reinstall=1/d"])
        #expect(!begunWorlds(reinstalls, arm: .off).armWritesFollowTheScripts())
    }

    /// Every mechanism says whether it leaves XIVA's sends to the scripts, and those that say
    /// no are the ones that drop, hold, stop or answer XIVA's sends.
    @Test func theMechanismsThatMoveXivasSendsSaySo() {
        let quiet = ChainParameters(Scenario(name: "quiet", duration: SimTime(microseconds: SimTime.day), devices: 1))
        let forbid = ChainMechanism.allCases.filter { !$0.declaration(quiet).permitsDecidingTheConnectionAhead }
        expectEqual(forbid, [.providerAnswers, .outages, .sharedServer, .reinstall, .apnsOutages, .tokenRefresh])
    }
}
