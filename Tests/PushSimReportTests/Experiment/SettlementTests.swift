// Letters settled in flight (WorldSettlement.swift): the same ledgers, and a world's arrays that do not grow with the days.
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
@testable import PushSimExperiment
@testable import PushSimReport
import PushSimTestSupport
import PushSimClient

@Suite struct SettlementTests {
    /// Adds every device's counts per arm, taking settled letters or not, and watches each
    /// finished world: how much room its letter states reached and whether it settled.
    struct WatchingSink: DeviceLedgerSink {
        let takesSettledLetters: Bool
        var ledgers = [Ledger(), Ledger()]
        var mostLetterStates = 0, mostCopies = 0, mostRuns = 0
        var worldsThatSettled = 0, worlds = 0
        /// The cells the queue arm's worlds counted into, each once.
        var cells: [ObjectIdentifier] = []
        init(takesSettledLetters: Bool) { self.takesSettledLetters = takesSettledLetters }
        mutating func account(device: Int, segment: Int?, arm: Int, _ body: (inout Ledger) -> Void) { body(&ledgers[arm]) }
        mutating func partitionQueue(arm: Int, maxQueue: Int, maxQueueBySegment: [Int], series: XivaQueueSeries) {
            ledgers[arm].xivaMaxQueue = max(ledgers[arm].xivaMaxQueue, maxQueue)
        }
        mutating func finished(device: Int, arm: Int, world: borrowing DeviceWorld) {
            // The queue arm's: an off arm keeps every letter, by design.
            guard world.armState.checksGaps else { return }
            let footprint = world.memoryFootprint
            mostLetterStates = max(mostLetterStates, footprint.letterStates)
            mostCopies = max(mostCopies, footprint.copies)
            mostRuns = max(mostRuns, footprint.runs)
            worlds += 1
            let cell = ObjectIdentifier(world.ledgerCell)
            if !cells.contains(cell) { cells.append(cell) }
            if world.draws.letters.lacksFirstLetters { worldsThatSettled += 1 }
        }
    }

    func herd(devices: Int = 36, days: Int, extra: [String] = []) throws -> Scenario {
        try CoupledRunTests().herd(devices: devices, extra: ["duration=\(days)d", "xiva.partitions=1"] + extra)
    }

    /// With `keptScripts` bytes of scripts kept between arms (by default the run's budget).
    func simulate(_ scenario: Scenario, settling: Bool, keptScripts: Int = CoupledRun.keptScriptBytes) -> WatchingSink {
        var sink = WatchingSink(takesSettledLetters: settling)
        CoupledRun.simulate(scenario, devices: 0..<scenario.devices, arms: scenario.arms, keptScriptBytes: keptScripts, into: &sink)
        return sink
    }

    @Test func settlingInFlightCountsWhatKeepingEveryLetterCounts() throws {
        let variants: [[String]] = [[], ["warmup=20h"], ["warmup=30m"], ["queue.client=literal"], ["queue.mode=on"],
                                    ["xiva.queue_timeout=5s", "xiva.request_error=10%"], ["xiva.capacity=20/s", "apns.loss=5%"],
                                    ["xiva.drop=10%", "device.clear_after=exponential(10m)"],
                                    ["apns.duplicate=5%", "apns.keep_older=50%", "apns.keep_window=1h", "apns.expiration=3h"]]
        for extra in variants {
            let scenario = try herd(days: 3, extra: extra)
            let settled = simulate(scenario, settling: true), kept = simulate(scenario, settling: false)
            expectEqual(settled.ledgers, kept.ledgers, "\(extra)")
            // Scripts given back between the arms and drawn again: none kept, or from the
            // partition's fifth world on (the budget passed midway).
            for budget in [0, 4 * 60 * 3 * MemoryLayout<LetterDraws>.stride] {
                expectEqual(simulate(scenario, settling: true, keptScripts: budget).ledgers, kept.ledgers, "\(extra) \(budget)")
            }
            // The queue really formed (its counted re-requests: none in the 20 hours' warm-up).
            if !extra.contains("warmup=20h") { #expect(settled.ledgers[scenario.arms.count - 1].xivaMaxQueue >= 3, "\(extra)") }
            // Settling really happened (each world reached more than a few letters).
            #expect(settled.worldsThatSettled > scenario.devices / 2, "\(extra)")
            expectEqual(kept.worldsThatSettled, 0, "\(extra)")
        }
    }

    @Test func aSettlingWorldHoldsTheSameWhateverTheDays() throws {
        // 60 letters a day: a week is 420 a world, of which a settling world holds a handful,
        // whether its script is drawn on demand (one arm) or drawn again after the off arm.
        var most: [Int] = []
        for days in [1, 7] {
            let sink = simulate(try herd(days: days, extra: ["queue.mode=on"]), settling: true)
            let redrawn = simulate(try herd(days: days), settling: true, keptScripts: 0)
            #expect(redrawn.mostLetterStates <= 64 && redrawn.mostCopies <= 64, "\(days) days")
            expectEqual(sink.worldsThatSettled, sink.worlds)
            #expect(sink.mostLetterStates <= 64 && sink.mostCopies <= 64 && sink.mostRuns <= 64, "\(days) days")
            most.append(sink.mostLetterStates)
        }
        let kept = simulate(try herd(days: 7, extra: ["queue.mode=on"]), settling: false)
        #expect(kept.mostLetterStates >= 7 * 50)
        #expect(most[1] <= most[0] + 16)
    }

    @Test func settlementIsOffWhereSomethingReadsEveryLetter() throws {
        // Mechanisms whose steps reach letters outside the gap check's range, a user's client
        // (its saved position may go down), and the off arm: nothing settles.
        var userClient = try herd(days: 2)
        userClient.queue.userClient = UserClient(IntendedClient(), name: "intended, as a user's")
        let scenarios = try [herd(days: 2, extra: ["extension.early_kill=1%"]), herd(days: 2, extra: ["device.uninstall=1/2d"]),
                             herd(days: 2, extra: ["queue.mode=off"]), userClient]
        for scenario in scenarios {
            let sink = simulate(scenario, settling: true)
            expectEqual(sink.worldsThatSettled, 0)
            expectEqual(sink.ledgers, simulate(scenario, settling: false).ledgers)
        }
    }

    @Test func secondCopiesAndTheOlderPushKeptSettleInFlightAndCountTheSame() throws {
        // APNs' second copies and its keeping of the older stored push reach a letter only
        // through a copy under way or stored, which a world at rest has none of: the worlds
        // settle, and count what worlds keeping every letter count.
        let scenario = try herd(days: 3, extra: ["apns.duplicate=5%", "apns.keep_older=50%", "apns.keep_window=1h",
                                                 "apns.expiration=3h"])
        #expect(ChainParameters(scenario).settlesInFlight)
        let settled = simulate(scenario, settling: true), kept = simulate(scenario, settling: false)
        #expect(settled.worldsThatSettled > scenario.devices / 2)
        expectEqual(settled.ledgers, kept.ledgers)
        // Both mechanisms acted: the off arm shows letters twice and loses pushes replaced in
        // APNs' store, and the queue arm (which collapses the second showing and recovers the
        // replaced letters) counts otherwise than without them.
        let offArm = settled.ledgers[0]
        #expect(offArm.duplicates > 0 && offArm.causes[LossCause.apnsReplaced.rawValue] > 0)
        let without = simulate(try herd(days: 3, extra: ["apns.expiration=3h"]), settling: true)
        #expect(without.ledgers[1] != settled.ledgers[1])
    }

    @Test func theWorldsOfAPartCountIntoOneLedgerOnlyWhenTheRunAddsCountsUp() throws {
        // A ledger per world was 816 bytes of each (WorldLedgerCell.swift): a run that adds its
        // devices' counts up gives the worlds of a part one; `check`'s keeps each device's own.
        // With two segments in the partition, two parts: two ledgers. The same counts as a
        // ledger per world either way.
        let segmented = try CoupledRunTests().segmentedHerd(extra: ["duration=2d", "xiva.partitions=1", "queue.mode=both"])
        for (scenario, parts) in [(try herd(days: 2), 1), (segmented, 2)] {
            let adding = simulate(scenario, settling: true), keeping = simulate(scenario, settling: false)
            expectEqual(adding.cells.count, parts)
            expectEqual(keeping.cells.count, keeping.worlds)
            expectEqual(keeping.worlds, scenario.devices)
            expectEqual(adding.ledgers, keeping.ledgers)
            #expect(adding.ledgers[1].letters > 0)
        }
    }

    @Test func theMechanismsStreamsAreHeldOnlyWhileAMechanismIsOn() throws {
        // Out of line (ArmStreams.swift): nothing held without a mechanism; with one, the
        // stream its key seeds, kept from arm to arm, and the others unseeded.
        let plain = try herd(days: 1)
        var world = DeviceWorld(scenario: plain)
        world.prepare(device: 2)
        world.begin(.on)
        let heldWithout = world.armState.streams.holdsMechanismStreams
        #expect(!heldWithout)
        let duplicating = try herd(days: 1, extra: ["apns.duplicate=5%"])
        world = DeviceWorld(scenario: duplicating)
        world.prepare(device: 2)
        world.begin(.off)
        let heldWith = world.armState.streams.holdsMechanismStreams
        #expect(heldWith)
        var seeded = RandomStream(seed: duplicating.seed, device: 2, purpose: .duplicates)
        expectEqual(world.armState.streams.mechanismStreams.duplicates.next(), seeded.next())
        var unseeded = RandomStream(seed: 0)
        expectEqual(world.armState.streams.mechanismStreams.kills.next(), unseeded.next())
        world.begin(.on)
        let heldAgain = world.armState.streams.holdsMechanismStreams
        #expect(heldAgain)
        seeded = RandomStream(seed: duplicating.seed, device: 2, purpose: .duplicates)
        expectEqual(world.armState.streams.mechanismStreams.duplicates.next(), seeded.next())
    }

    @Test func theMechanismsOwnStatesAreMadeOnlyWhileOneIsOn() throws {
        // Out of line (MechanismStates): a world without such a mechanism holds none and reads
        // each as fresh, and its binary outbox holds no room; a mechanism that keeps one makes
        // it, and the binary interface gives the outbox room.
        let plain = try herd(days: 1)
        var world = DeviceWorld(scenario: plain)
        world.prepare(device: 2)
        world.begin(.on)
        var other = DeviceWorld(scenario: plain)
        other.prepare(device: 3)
        other.begin(.off)
        #expect(!world.mechanisms.hasRareStates && !other.mechanisms.hasRareStates)
        #expect(!world.mechanisms.catchUp.enabled && world.mechanisms.pushKit.callKitFailures == 0)
        expectEqual(world.mechanisms.binaryLink.outbox.capacity, 0)
        expectEqual(other.mechanisms.binaryLink.outbox.capacity, 0)
        expectEqual(world.mechanisms.binaryLink.outbox.count, 0)
        let pushKit = try herd(days: 1, extra: ["channel=pushkit"])
        world = DeviceWorld(scenario: pushKit)
        world.prepare(device: 2)
        world.begin(.on)
        expectEqual(world.mechanisms.hasRareStates, true)
        let binary = try herd(days: 1, extra: ["apns.interface=binary"])
        world = DeviceWorld(scenario: binary)
        world.prepare(device: 2)
        world.begin(.on)
        #expect(world.mechanisms.binaryLink.outbox.capacity >= 4)
        expectEqual(world.mechanisms.hasRareStates, false)
    }

    @Test func theProviderReinstallAndFCMStatesAndTheMechanismsDrawsAreMadeOnlyWhileOneIsOn() throws {
        // Out of line but for their hot fields (MechanismStates, DeviceDraws): a world without
        // these mechanisms holds none of them, settles first copies when sent and never looks
        // at reinstalls; each mechanism makes what it needs, and its hot field says so.
        func started(_ extra: [String], arm: Arm = .on) throws -> DeviceWorld {
            var world = DeviceWorld(scenario: try herd(days: 1, extra: extra))
            world.prepare(device: 2)
            world.begin(arm)
            return world
        }
        let plain = try started([])
        #expect(!plain.mechanisms.hasRareStates && !plain.draws.hasMechanismDraws)
        #expect(plain.mechanisms.firstCopiesSettle && plain.mechanisms.reinstallsWatchFrom == Int64.max)
        #expect(plain.mechanisms.provider.tokenAccepts.isEmpty && plain.draws.sleepTimeline.asleep.isEmpty)
        let tokens = try started(["apns.token_limit=5"])
        #expect(tokens.mechanisms.hasRareStates && !tokens.mechanisms.firstCopiesSettle)
        expectEqual(tokens.mechanisms.provider.tokenAccepts, Array(repeating: Int64.min, count: 5))
        let reinstalls = try started(["device.reinstall=1/2h"], arm: .off)
        #expect(reinstalls.mechanisms.hasRareStates && reinstalls.mechanisms.reinstallsWatchFrom < Int64.max)
        expectEqual(reinstalls.mechanisms.reinstallsWatchFrom, reinstalls.mechanisms.reinstalls.next)
        let fcm = try started(["channel=fcm"])
        #expect(fcm.mechanisms.hasRareStates && fcm.mechanisms.fcm.copies.isEmpty)
        let sleeping = try started(["apns.priority=5", "device.sleep={awake: exponential(1h), asleep: exponential(20m)}"])
        #expect(sleeping.draws.hasMechanismDraws && !sleeping.draws.sleepTimeline.asleep.isEmpty)
        #expect(sleeping.draws.lowPowerTimeline.intervals.isEmpty)
    }

    @Test func theMechanismsDrawsAreWrittenInPlaceAndGivenBack() {
        // Out of line (DeviceDraws): read as empty until drawn, written in place, and empty
        // again once given back; a device never drawn holds none.
        var draws = DeviceDraws()
        #expect(!draws.hasMechanismDraws && draws.fcmKeys.isEmpty && draws.sleepTimeline.asleep.isEmpty)
        draws.fcmKeys = [1, 2]
        draws.fcmKeys.append(3)
        draws.mediaBytes = [10]
        #expect(draws.hasMechanismDraws && draws.fcmKeys == [1, 2, 3] && draws.mediaBytes == [10])
        var other = DeviceDraws()
        #expect(!other.hasMechanismDraws && other.fcmKeys.isEmpty)
        other.sleepTimeline.asleep = [0..<5]
        #expect(draws.sleepTimeline.asleep.isEmpty && other.sleepTimeline.asleep == [0..<5])
        draws.removeMechanismDraws()
        #expect(!draws.hasMechanismDraws && draws.fcmKeys.isEmpty && draws.mediaBytes.isEmpty)
    }

    @Test func aTracedWorldKeepsEveryLetter() throws {
        let scenario = try herd(days: 2, extra: ["queue.mode=on"])
        var world = DeviceWorld(scenario: scenario)
        world.tracer = { _ in }
        world.prepare(device: 3, lettersOnDemand: true)
        world.begin(.on, settlingInto: SettledLetters())
        #expect(world.armState.settled == nil)
    }

    @Test func anOwnedArrayRenumbersWhatItKeepsWhenItDropsItsFirstElements() {
        var array = OwnedArray<Int>()
        for i in 0..<40 { array.append(i * 10) }
        array.removeFirst(25)
        expectEqual(array.count, 15)
        expectEqual(array.elements, (25..<40).map { $0 * 10 })
        array.append(400)
        expectEqual(array[15], 400)
        expectEqual(array.count, 16)
        array.removeFirst(16)
        expectEqual(array.count, 0)
        array.append(7)
        expectEqual(array.elements, [7])
    }
}
