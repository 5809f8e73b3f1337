// The coupled path's memory (WorldMemory.swift): draws at their size, arms' arrays given back, nothing changed.
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
@testable import PushSimExperiment
@testable import PushSimReport
import PushSimTestSupport

@Suite struct CoupledMemoryTests {
    /// CoupledRunTests' herd (everyone offline for two hours, back at once, both arms) over `days`.
    func herd(devices: Int = 36, days: Int = 1, extra: [String] = []) throws -> Scenario {
        try CoupledRunTests().herd(devices: devices, extra: ["duration=\(days)d"] + extra)
    }

    /// Device `device` prepared alone, or with its draws fitted to their size as a world
    /// beside its partition holds them (`fitted`).
    func prepared(_ scenario: Scenario, device: Int, onDemand: Bool, fitted: Bool) -> DeviceWorld {
        var world = DeviceWorld(scenario: scenario)
        world.prepare(device: device, lettersOnDemand: onDemand)
        if fitted { world.fitDrawsToSize() }
        return world
    }

    @Test func fittedDrawsHoldExactlyTheirLettersAndTheSameValues() throws {
        let scenario = try herd(days: 3)
        var loose = DeviceWorld(scenario: scenario)
        loose.prepare(device: 7)
        var fitted = DeviceWorld(scenario: scenario)
        fitted.prepare(device: 7)
        fitted.fitDrawsToSize()
        expectEqual(Array(fitted.draws.letters), Array(loose.draws.letters))
        expectEqual(fitted.draws.timeline.flips, loose.draws.timeline.flips)
        #expect(fitted.draws.letters.count > 100)
        // Room for each letter and no more (the allocator may round a few elements up).
        #expect(fitted.memoryFootprint.letters - fitted.draws.letters.count < 8)
        #expect(fitted.memoryFootprint.letters < loose.memoryFootprint.letters)
    }

    @Test func armsRunTheSameAfterTheirMemoryIsGivenBack() throws {
        let scenario = try herd(days: 2, extra: ["xiva.capacity=forever"])
        // With `dropsLetters`, the script also loses its first letters between arms (as a world
        // settling in flight does, WorldSettlement.swift): the next arm draws it again.
        for device in 0..<12 {
            let dropsLetters = device % 2 == 1
            var kept = DeviceWorld(scenario: scenario)
            kept.prepare(device: device)
            var released = DeviceWorld(scenario: scenario)
            released.prepare(device: device)
            released.fitDrawsToSize()
            for arm in [Arm.off, .on] {
                var a = Ledger(), b = Ledger()
                kept.run(arm, into: &a)
                released.run(arm, into: &b)
                expectEqual(a, b, "device \(device), arm \(arm)")
                released.releaseArmMemory()
                #expect(released.memoryFootprint.letterStates <= 1 && released.memoryFootprint.copies <= 1
                        && released.memoryFootprint.runs <= 1 && released.memoryFootprint.events <= 16)
                if dropsLetters {
                    released.draws.letters.removeFirst(released.draws.letters.count / 2)
                    #expect(released.draws.letters.lacksFirstLetters)
                }
            }
            released.releaseMemory()
            // Everything given back, the heap without room kept for a next arm.
            expectEqual(released.memoryFootprint.letters, 0)
            expectEqual(released.memoryFootprint.flips, 0)
            expectEqual(released.memoryFootprint.events, 0)
            expectEqual(released.memoryFootprint.bytes, 0)
        }
    }

    @Test func worldsThatBorrowOneRoomRunAsWorldsThatGrowTheirOwn() throws {
        // WorldRoom.swift: an arm run world after world in one room counts what each world
        // counts in room of its own, keeps each script exactly (drawn on demand or whole), and
        // leaves each world holding no room of its own; the room keeps the largest world's.
        for onDemand in [true, false] {
            let scenario = try herd(days: 3)
            let room = ArmRoom()
            for device in 0..<6 {
                var own = prepared(scenario, device: device, onDemand: onDemand, fitted: false)
                var borrowing = prepared(scenario, device: device, onDemand: onDemand, fitted: true)
                var a = Ledger(), b = Ledger()
                own.run(.off, into: &a)
                borrowing.borrowRoom(room)
                // The arm reads every letter: the script is drawn to its end at once.
                #expect(!borrowing.draws.letters.isDrawing)
                borrowing.run(.off, into: &b)
                #expect(borrowing.memoryFootprint.letterStates >= borrowing.draws.letters.count)
                // The last world gives the room back as after a last arm: no script copied out.
                let keepsScript = device < 5
                let drawn = borrowing.draws.letters.count
                borrowing.giveRoomBack(room, keepingScript: keepsScript)
                expectEqual(a, b, "device \(device), on demand \(onDemand)")
                guard keepsScript else {
                    #expect(drawn > 100)
                    expectEqual(borrowing.draws.letters.count, (onDemand ? LetterCursor.lettersPerDraw : drawn))
                    if onDemand { expectEqual(room.letters.count, drawn) }
                    continue
                }
                expectEqual(Array(borrowing.draws.letters), Array(own.draws.letters))
                #expect(borrowing.draws.letters.count > 100)
                #expect(borrowing.memoryFootprint.letters - borrowing.draws.letters.count < 8)
                let footprint = borrowing.memoryFootprint
                expectEqual(footprint.letterStates, 0)
                expectEqual(footprint.copies, 0)
                expectEqual(footprint.runs, 0)
                expectEqual(footprint.positions, 0)
                #expect(room.letterStates.capacity >= borrowing.draws.letters.count)
                // The next arm starts afresh in room of its own, as before.
                var c = Ledger(), d = Ledger()
                own.run(.on, into: &c)
                borrowing.run(.on, into: &d)
                expectEqual(c, d, "device \(device), on demand \(onDemand)")
            }
        }
    }

    @Test func worldsPreparedBesideTheirPartitionDrawWhatAWorldDrawsAlone() throws {
        // prepareBesidePartition (WorldMemory.swift) draws in buffers lent from world to world:
        // the same letters and flips as preparing alone, the flips kept at their size, and no
        // scratch kept by the world (a lonely world keeps its own).
        let random = ["connectivity.online=exponential(6h)", "connectivity.offline=exponential(10m)"]
        for extra in [random, random + ["connectivity.windows=[{start: 1h, end: 2h, every: 1d, spread: 30m}, {start: 10h, end: 12h}]"]] {
            let scenario = try herd(days: 3, extra: extra)
            let parameters = ChainParameters(scenario)
            let scratch = DrawScratch()
            for device in 0..<12 {
                var alone = DeviceWorld(parameters: parameters)
                alone.prepare(device: device, lettersOnDemand: true)
                alone.fitDrawsToSize()
                var beside = DeviceWorld(parameters: parameters)
                beside.prepareBesidePartition(device: device, scratch: scratch)
                expectEqual(Array(beside.draws.letters), Array(alone.draws.letters), "\(extra) device \(device)")
                expectEqual(beside.draws.timeline.flips, alone.draws.timeline.flips, "\(extra) device \(device)")
                expectEqual(beside.draws.timeline.onlineAtStart, alone.draws.timeline.onlineAtStart)
                // Drawn whole with a window drawn per device; else a few flips at a time
                // (ConnectivityOnDemand.swift, TimelineOnDemandTests).
                #expect(beside.draws.timeline.flips.count > 2 || beside.draws.timelineOnDemand)
                expectEqual(beside.draws.timelineOnDemand, (extra.count == random.count))
                // The same room, but for the flips' rounding by the allocator.
                var besideRoom = beside.memoryFootprint, aloneRoom = alone.memoryFootprint
                #expect(besideRoom.flips - beside.draws.timeline.flips.count < 8)
                besideRoom.flips = 0
                aloneRoom.flips = 0
                expectEqual(besideRoom, aloneRoom)
                #expect(scratch.flips.capacity >= beside.draws.timeline.flips.count)
                var a = Ledger(), b = Ledger()
                alone.run(.on, into: &a)
                beside.run(.on, into: &b)
                expectEqual(a, b, "\(extra) device \(device)")
                #expect(beside.draws.scratch == nil)
            }
            #expect(!parameters.sharedWindows.isEmpty)
            #expect(parameters.sharedTimeline == nil)
        }
    }

    @Test func aWorldThatKeepsEveryLetterMakesItsRoomWhenTheArmBegins() throws {
        // Over the binary interface every arm is stepped beside the partition and keeps every
        // letter: the script is drawn whole (the same letters as alone), and begin's room holds
        // the arm's letter states and positions, so they never grow while the arm runs.
        let scenario = try herd(days: 2, extra: ["apns.interface=binary", "apns.connection_rate=2000/s",
                                                 "connectivity.online=exponential(6h)", "connectivity.offline=exponential(10m)"])
        let parameters = ChainParameters(scenario)
        let scratch = DrawScratch()
        for device in 0..<6 {
            var beside = DeviceWorld(parameters: parameters)
            beside.prepareBesidePartition(device: device, scratch: scratch, keepingEveryLetter: true)
            let alone = prepared(scenario, device: device, onDemand: false, fitted: true)
            let letters = beside.draws.letters.count
            #expect(letters > 100)
            expectEqual(Array(beside.draws.letters), Array(alone.draws.letters), "device \(device)")
            #expect(!beside.draws.letters.onDemand && !beside.draws.letters.isDrawing)
            #expect(beside.memoryFootprint.letters - letters < 8)
            #expect(scratch.letters.capacity >= letters)
            beside.countOnItsOwn()
            beside.begin(.off)
            beside.makeRoomForTheWholeArm()
            let room = beside.memoryFootprint
            #expect(room.letterStates >= letters && room.copies >= letters && room.runs >= letters && room.positions > letters)
            #expect(room.events >= DeviceWorld.eventsHeldWhileKeepingEveryLetter)
            var servers = PartitionServers(xiva: nil, binary: BinaryConnectionServer(parameters: parameters))
            while let now = beside.runUntilItSends() { servers.collect(from: &beside, device: 0, at: now) }
            let after = beside.memoryFootprint
            expectEqual(after.letterStates, room.letterStates, "device \(device)")
            expectEqual(after.positions, room.positions, "device \(device)")
            var a = Ledger(), b = Ledger()
            var own = DeviceWorld(parameters: parameters)
            own.prepare(device: device)
            own.run(.off, into: &a)
            beside.finish(into: &b)
            expectEqual(a, b, "device \(device)")
        }
    }

    @Test func aWorldThatSettlesInFlightMakesNoRoomForEveryLetter() throws {
        // The queue arm of a finite capacity settles its letters in flight: it holds a few.
        let scenario = try herd(days: 3)
        let parameters = ChainParameters(scenario)
        var world = DeviceWorld(parameters: parameters)
        world.prepareBesidePartition(device: 3, scratch: DrawScratch())
        world.begin(.on, settlingInto: SettledLetters())
        world.makeRoomForTheWholeArm()
        #expect(world.armState.settled != nil)
        #expect(world.memoryFootprint.copies < 8 && world.memoryFootprint.positions < 8)
    }

    @Test func devicesWhoseConnectivityIsOnlySharedWindowsShareOneTimeline() throws {
        // ChainParameters.sharedTimeline: with only windows every device shares, every world
        // holds the one array of flips the parameters laid out, the same flips a device draws
        // alone; a window drawn per device, or the alternating process, gives each its own.
        let scenario = try herd(days: 3)
        let parameters = ChainParameters(scenario)
        let shared = try #require(parameters.sharedTimeline)
        #expect(shared.flips.count == 2 && shared.onlineAtStart)
        let scratch = DrawScratch()
        for device in 0..<6 {
            var drawn = ConnectivityTimeline(), intervals: [Range<Int64>] = [], windows: [Range<Int64>] = []
            drawn.generate(scenario, device: device, windows: parameters.sharedWindows, scratch: &intervals, deviceScratch: &windows)
            var beside = DeviceWorld(parameters: parameters)
            beside.prepareBesidePartition(device: device, scratch: scratch)
            expectEqual(beside.draws.timeline.flips, drawn.flips)
            expectEqual(beside.draws.timeline.onlineAtStart, drawn.onlineAtStart)
            beside.draws.timeline.flips.withUnsafeBufferPointer { a in
                shared.flips.withUnsafeBufferPointer { b in expectEqual(a.baseAddress, b.baseAddress) }
            }
        }
        for extra in [["connectivity.windows=[{start: 10h, end: 12h, every: 1d, spread: 30m}]"],
                      ["connectivity.online=exponential(6h)", "connectivity.offline=exponential(10m)"]] {
            #expect(ChainParameters(try herd(days: 3, extra: extra)).sharedTimeline == nil, "\(extra)")
        }
    }

    @Test func aScriptKnowsWhetherItIsStillDrawing() throws {
        // LetterScript keeps `isDrawing` as its cursor and hand-out change (MailBackend.swift).
        let scenario = try herd(days: 2)
        let laws = ChainParameters(scenario).letterLaws
        var script = LetterScript()
        script.generate(scenario, device: 5)
        #expect(!script.isDrawing)
        let whole = Array(script)
        script.drawOnDemand(scenario, laws, device: 5)
        #expect(script.isDrawing && script.count == LetterCursor.lettersPerDraw)
        while script.isDrawing { script.drawMore(laws) }
        expectEqual(Array(script), whole)
        script.replayOnDemand()
        #expect(script.isDrawing && script.count == LetterCursor.lettersPerDraw)
        while script.isDrawing { script.drawMore(laws) }
        expectEqual(Array(script), whole)
        script.drawOnDemand(scenario, laws, device: 5)
        script.drawRest(laws)
        #expect(!script.isDrawing && Array(script) == whole)
        script.removeAll()
        #expect(!script.isDrawing && script.count == 0)
    }

    @Test func aWorldGivenBackHoldsTheSameWhateverTheDays() throws {
        // What a world keeps once its last arm is read does not grow with the simulated days.
        var held: [Int] = []
        for days in [1, 7] {
            let scenario = try herd(days: days)
            var world = DeviceWorld(scenario: scenario)
            world.prepare(device: 3)
            world.fitDrawsToSize()
            var ledger = Ledger()
            world.run(.on, into: &ledger)
            #expect(world.memoryFootprint.bytes > days * 1_000)
            world.releaseMemory()
            held.append(world.memoryFootprint.bytes)
        }
        expectEqual(held[0], held[1])
    }

    @Test func lettersDrawnOnDemandAreTheLettersDrawnAtOnce() throws {
        let variants: [[String]] = [[], ["warmup=20h"], ["mail.daily_profile=[1,1,1,1,1,1,2,3,4,6,6,6,6,6,6,6,6,6,4,3,3,2,1,1]"],
                                    ["mail.bursts={rate: 2/d, size: 15, spread: 30s}", "xiva.capacity=forever"], ["warmup=47h"]]
        for extra in variants {
            let scenario = try herd(days: 2, extra: extra)
            for device in 0..<10 {
                var atOnce = DeviceWorld(scenario: scenario)
                atOnce.prepare(device: device)
                var onDemand = DeviceWorld(scenario: scenario)
                onDemand.prepare(device: device, lettersOnDemand: true)
                #expect(onDemand.draws.letters.onDemand)
                #expect(onDemand.draws.letters.count <= LetterCursor.lettersPerDraw)
                for arm in [Arm.off, .on] {
                    var a = Ledger(), b = Ledger()
                    atOnce.run(arm, into: &a)
                    onDemand.run(arm, into: &b)
                    expectEqual(a, b, "\(extra) device \(device) arm \(arm)")
                    expectEqual(Array(onDemand.draws.letters), Array(atOnce.draws.letters), "\(extra) device \(device)")
                    expectEqual(onDemand.countedLetters, atOnce.countedLetters)
                    // Between arms the script stays whole, at its size, for the next arm.
                    onDemand.releaseArmMemory()
                    #expect(!onDemand.draws.letters.isDrawing && onDemand.memoryFootprint.letters - onDemand.draws.letters.count < 8)
                }
            }
        }
    }

    @Test func aWorldWaitingForTheServerHoldsOnlyTheLettersItReached() throws {
        // The herd comes back at 12h whatever the days: a world stopped at its re-request holds
        // the letters of those 12 hours (and one draw ahead), not the whole run's.
        var held: [WorldMemoryFootprint] = []
        for days in [1, 7] {
            let scenario = try herd(days: days, extra: ["queue.mode=on"])
            var found: WorldMemoryFootprint?
            for device in 0..<20 where found == nil {
                var world = DeviceWorld(scenario: scenario)
                world.prepare(device: device, lettersOnDemand: true)
                world.begin(.on)
                guard let stop = world.runUntilItSends() else { continue }
                #expect(stop >= 12 * 3_600_000_000 && stop < 13 * 3_600_000_000)
                expectEqual(world.letterStates.count, world.draws.letters.count)
                #expect(world.draws.letters.count <= 60 / 2 + 3 * LetterCursor.lettersPerDraw)
                found = world.memoryFootprint
            }
            held.append(try #require(found))
        }
        #expect(held[0].letters == held[1].letters && held[0].letterStates == held[1].letterStates)
    }

    @Test func theWorldsOfAPartShareOneScenarioAndItsParameters() throws {
        // Inline, the scenario and the chain parameters were 2 864 bytes of every world's
        // 5 456 (ChainParameters.swift); by reference they are 8, and the letter cursor leaves
        // its laws there too (LetterLaws): the world was 2 176. Settling letters in flight
        // (WorldSettlement.swift) added 40: the ledger settled into, and a kept script's replay.
        // The ledger in a cell (WorldLedgerCell.swift) and the mechanisms' streams out of line
        // (ArmStreams.swift) took 1 208 off: 1 008. The mechanisms' states that only their own
        // mechanism reads, out of line (MechanismStates), 96 more: 920. Flags moved beside
        // flags (five 8-byte paddings gone): 880. The heap and the owned arrays inline, their
        // headers in the world instead of an object each (+16 a header, seven headers, one of
        // them the binary outbox's), the clock's second reference to the heap gone (-8), the
        // observers in one object made when one is set (-16), the run's end and the shared
        // windows read from the parameters (-16), the drawing scratch lent (-8), the timeline's
        // flag in its tail (-8): 960, and about 330 bytes a phone fewer on the heap. A timeline
        // drawn on demand (a reference to where its drawing stands, +8): 968. The growable
        // arrays' counts and room in 32 bits each (-8 a header, eight headers), the draws only
        // some mechanisms make out of line (-56), the provider's, the reinstalls' and FCM's
        // states out of line but for two hot fields (-80): 768. The flip cursors and the
        // letter cursor's laid-out index in 32 bits, in their neighbours' tails (-24): 744. The
        // first re-request waiting to join the shared queue inline (+16, and one allocation of
        // 64 bytes fewer in a world that waits to send): 760.
        #expect(MemoryLayout<DeviceWorld>.size <= 760)
        struct Sink: DeviceLedgerSink {
            var ledger = Ledger()
            var parameters: [ObjectIdentifier] = []
            mutating func account(device: Int, segment: Int?, arm: Int, _ body: (inout Ledger) -> Void) { body(&ledger) }
            mutating func partitionQueue(arm: Int, maxQueue: Int, maxQueueBySegment: [Int], series: XivaQueueSeries) {}
            mutating func finished(device: Int, arm: Int, world: borrowing DeviceWorld) {
                parameters.append(ObjectIdentifier(world.parameters))
            }
        }
        // One partition, one part: one object for all its worlds (each partition makes its own).
        let scenario = try herd(extra: ["xiva.partitions=1"])
        var sink = Sink()
        CoupledRun.simulate(scenario, devices: 0..<scenario.devices, arms: [.off, .on], into: &sink)
        expectEqual(sink.parameters.count, 2 * scenario.devices)
        #expect(sink.parameters.allSatisfy { $0 == sink.parameters[0] })
        // The same results as worlds that each work out their own.
        var own = Ledger()
        for device in 0..<scenario.devices {
            var world = DeviceWorld(scenario: scenario)
            world.prepare(device: device)
            world.run(.off, into: &own)
        }
        var shared = Ledger()
        let parameters = ChainParameters(scenario)
        for device in 0..<scenario.devices {
            var world = DeviceWorld(parameters: parameters)
            world.prepare(device: device)
            world.run(.off, into: &shared)
        }
        expectEqual(own, shared)
    }

    @Test func theCoupledPathStillMatchesOneGlobalEventList() throws {
        for extra in [[], ["queue.mode=on"], ["xiva.queue_timeout=5s", "warmup=2h"]] {
            let scenario = try herd(extra: extra)
            let product = Simulator.run(scenario)
            let reference = GlobalEventListReference.run(scenario)
            expectEqual(product, reference, "\(extra)")
            expectEqual(product.json.text, reference.json.text, "\(extra)")
        }
        try expectTheSameBytesOnEverySplit(try herd(devices: 30, extra: ["xiva.partitions=4"]))
    }
}
