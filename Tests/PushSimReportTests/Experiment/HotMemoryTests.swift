// Fetching a world's memory ahead touches nothing: at every stage of a world's life, fresh, drawn, stopped at a send, finished and given back.
import Testing
@testable import PushSimCore
import PushSimTestSupport

@Suite struct HotMemoryTests {
    /// The three fetches the stepper makes, on `world` as it stands: what it holds and counts
    /// must not move (a prefetch forms addresses, it never reads or writes through them).
    func fetchEverything(_ world: inout DeviceWorld) {
        let before = (world.memoryFootprint, world.ledger, world.draws.letters.count, world.letterStates.count)
        HotMemory.fetchObjects(of: &world)
        HotMemory.fetchElements(of: &world)
        expectEqual(world.memoryFootprint, before.0)
        expectEqual(world.ledger, before.1)
        expectEqual(world.draws.letters.count, before.2)
        expectEqual(world.letterStates.count, before.3)
    }

    @Test func fetchingAheadChangesNothingAtAnyStageOfAWorld() throws {
        let scenario = try CoupledRunTests().herd(devices: 36, extra: ["duration=2d", "queue.mode=on"])
        var stoppedOnce = false
        for device in 0..<36 {
            var world = DeviceWorld(scenario: scenario)
            fetchEverything(&world)                       // made, nothing drawn: arrays without room
            world.prepare(device: device, lettersOnDemand: true)
            fetchEverything(&world)
            world.begin(.on)
            while world.runUntilItSends() != nil {        // stopped at each re-request
                stoppedOnce = true
                fetchEverything(&world)
                world.mechanisms.removeJoining()
            }
            var account = Ledger()
            world.finish(into: &account)
            fetchEverything(&world)
            world.releaseMemory()                         // given back: no room at all
            fetchEverything(&world)
        }
        #expect(stoppedOnce)
    }

    @Test func fetchingAWorldOfASlabChangesNothing() throws {
        let scenario = try CoupledRunTests().herd(devices: 4, extra: ["duration=1d"])
        let worlds = Slab(count: 4) { i in
            var world = DeviceWorld(scenario: scenario)
            world.prepare(device: i)
            return world
        }
        let before = (0..<4).map { worlds[$0].memoryFootprint }
        for i in -1...4 { HotMemory.fetchWorld(i, of: worlds) }   // out of range: ignored
        expectEqual((0..<4).map { worlds[$0].memoryFootprint }, before)
    }

    @Test func aScriptHandedOutAgainIsFetchedWithoutMovingIt() throws {
        let scenario = try CoupledRunTests().herd(devices: 36, extra: ["duration=2d", "queue.mode=on"])
        var world = DeviceWorld(scenario: scenario)
        world.prepare(device: 3)
        let script = Array(world.draws.letters)
        world.draws.letters.replayOnDemand()
        let handedOut = world.draws.letters.count
        world.draws.letters.fetchHeaders()
        for next in [-1, 0, handedOut - 1, handedOut, handedOut + 9] { world.draws.letters.fetchNextLetters(from: next) }
        #expect(world.draws.letters.count == handedOut && handedOut > 0)
        expectEqual(Array(world.draws.letters), Array(script.prefix(handedOut)))
    }
}
