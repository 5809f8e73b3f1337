// Room given back as letters are settled (WorldRoomTrim.swift): a world's arrays follow the letters it held lately, not ever.
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
@testable import PushSimExperiment
@testable import PushSimReport
import PushSimTestSupport

@Suite struct RoomTrimTests {
    /// The herd at 1 200 letters a day: in its two hours offline each phone holds about 100
    /// letters, then 1 200 a day go by, a handful at a time.
    func busyHerd(days: Int) throws -> Scenario {
        try SettlementTests().herd(devices: 12, days: days, extra: ["mail.rate=1200/d", "xiva.capacity=20/s"])
    }

    @Test func aWorldGivesBackTheRoomOfAnOutageOnceItHoldsLittleAgain() throws {
        let scenario = try busyHerd(days: 3)
        let settled = SettlementTests().simulate(scenario, settling: true)
        let kept = SettlementTests().simulate(scenario, settling: false)
        expectEqual(settled.ledgers, kept.ledgers)
        expectEqual(settled.worldsThatSettled, settled.worlds)
        expectEqual(settled.worlds, 12)
        // The outage's letters held at once (2 hours of 1 200 a day: about 100) ...
        let outageLetters = 1_200 / 12
        // ... were room in every array until the arrays were trimmed: each ends with room for
        // the last few letters held (a growth step above them), not for the outage's.
        #expect(settled.mostLetterStates < outageLetters / 4, "\(settled.mostLetterStates)")
        #expect(settled.mostCopies < outageLetters / 4 && settled.mostRuns < outageLetters / 4)
    }

    @Test func aWorldTrimsToTheMostItHeldSinceItsLastTrim() throws {
        var world = DeviceWorld(scenario: try busyHerd(days: 1))
        world.prepare(device: 0, lettersOnDemand: true)
        world.begin(.on, settlingInto: SettledLetters())
        #expect(world.armState.settled != nil)
        world.letterStates.append(repeating: LetterState(), count: 90)
        world.letterStates.removeFirst(world.letterStates.count - 2)
        world.armState.mostHeld = 11
        let grown = world.letterStates.capacity
        world.trimRoom()
        // Room for the most held lately (11), not for the 90 it once held nor only the 2 it holds.
        #expect(grown >= 90 && world.letterStates.capacity == 11 && world.letterStates.count == 2)
        // Then the most held starts again from what it holds.
        expectEqual(world.armState.mostHeld, 2)
        world.trimRoom()
        expectEqual(world.letterStates.capacity, DeviceWorld.leastRoomKept)
    }
}
