// A sleeping device and priority 5 on hand-built cases: held until the wake, or until a priority-10 push.
import Testing
@testable import PushSimCore
import PushSimTestSupport

@Suite struct DeviceSleepTests {
    private func at(_ t: Int64, low: Bool) -> ScriptedLetter {
        ScriptedLetter(time: t, xivaLatency: 50 * ms, apnsLatency: 100 * ms, processing: 200 * ms, lowPriority: low)
    }

    private func scenario(collapse: Bool = true) -> Scenario {
        var s = tinyScenario()
        s.xiva.requestError = 0
        s.queue.collapseId = collapse
        s.apns.lowPriorityShare = 0.5  // with sleep set: the mechanism is on; the script says which letter is at 5
        s.device.sleep = DeviceSleep(awake: constant(1 * hour), asleep: constant(1 * hour))
        return s
    }

    private func world(_ s: Scenario, _ letters: [ScriptedLetter]) -> ScriptedWorld {
        var w = ScriptedWorld(s, letters: letters)
        w.world.draws.sleepTimeline.asleep = [1 * hour..<2 * hour]
        return w
    }

    /// A priority-5 push due while the device sleeps waits for the wake; one at 10 goes at once.
    @Test func priorityFiveWaitsForTheWake() {
        var w = world(scenario(), [at(1 * hour + 30 * minute, low: true), at(1 * hour + 40 * minute, low: false)])
        let l = w.run(.off)
        expectEqual(w.fates()[1], .delivered(latency: 350 * ms))
        // Held from 1h30m0.15s; the priority-10 push at 1h40m0.15s wakes the device and it follows.
        expectEqual(w.fates()[0], .delivered(latency: 10 * minute + 350 * ms))
        expectEqual(l.sleep.held, 1)
        expectEqual(l.sleep.releasedByPriority10, 1)
        var alone = world(scenario(), [at(1 * hour + 30 * minute, low: true)])
        let a = alone.run(.off)
        // Nothing wakes it early: handed over at the wake, 2h.
        expectEqual(alone.fates()[0], .delivered(latency: 30 * minute + 200 * ms))
        expectEqual(a.sleep.held, 1)
        expectEqual(a.sleep.releasedByPriority10, 0)
    }

    /// Awake, priority 5 is not held.
    @Test func anAwakeDeviceTakesPriorityFiveAtOnce() {
        var w = world(scenario(), [at(3 * hour, low: true)])
        let l = w.run(.off)
        expectEqual(w.fates()[0], .delivered(latency: 350 * ms))
        expectEqual(l.sleep.held, 0)
    }

    /// The priority-10 push that wakes the device reaches the extension before the held ones:
    /// it sees a gap and re-requests letters that are arriving at that very instant. The
    /// collapse id folds the re-sent copy; without it the user sees the letter twice.
    @Test func theWakingPushSeesTheHeldOnesAsAGap() {
        let letters = [at(30 * minute, low: false), at(1 * hour + 10 * minute, low: true), at(1 * hour + 20 * minute, low: false)]
        var w = world(scenario(), letters)
        let on = w.run(.on)
        expectEqual(on.gapsDetected, 1)
        expectEqual(on.reRequests, 1)
        expectEqual(on.resent, 1)
        expectEqual(on.duplicates, 0)
        expectEqual(on.delivered, 3)
        var n = world(scenario(collapse: false), letters)
        expectEqual(n.run(.on).duplicates, 1)
    }

    /// Held at the end of the run: unfinished.
    @Test func aPushStillHeldAtTheEndIsUnfinished() {
        var w = ScriptedWorld(scenario(), letters: [at(1 * hour, low: true)])
        w.world.draws.sleepTimeline.asleep = [30 * minute..<(2 * day)]
        w.run(.off)
        expectEqual(w.fates()[0], .lost(.unfinished))
    }
}
