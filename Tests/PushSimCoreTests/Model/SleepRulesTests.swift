// docs/model.md §10, Priority and a sleeping device, pinned: sleep runs while offline, a priority-10 wake does not end the asleep period, no hold on PushKit or FCM.
import Testing
@testable import PushSimCore
import PushSimTestSupport

@Suite struct SleepRulesTests {
    private func at(_ t: Int64, low: Bool) -> ScriptedLetter {
        ScriptedLetter(time: t, xivaLatency: 50 * ms, apnsLatency: 100 * ms, processing: 200 * ms, lowPriority: low)
    }

    private func sleeping(on channel: PushChannel = .apns) -> Scenario {
        tinyScenario(on: channel) {
            $0.xiva.requestError = 0
            $0.apns.lowPriorityShare = 0.5  // the mechanism on; the script says which letter is at 5
            $0.device.sleep = DeviceSleep(awake: constant(1 * hour), asleep: constant(1 * hour))
        }
    }

    private func world(_ s: Scenario, _ letters: [ScriptedLetter], asleep: [Range<Int64>], offline: [Range<Int64>] = []) -> ScriptedWorld {
        var w = ScriptedWorld(s, letters: letters, offline: offline)
        w.world.draws.sleepTimeline.asleep = asleep
        return w
    }

    /// The sleep process is the device's own, drawn over the whole run whatever the
    /// connectivity: a device that comes back online inside an asleep period is asleep. The
    /// priority-5 push stored while it was offline is flushed at 2h, due at 2h + 100 ms, and held
    /// until the wake at 3h.
    @Test func aDeviceBackOnlineInsideAnAsleepPeriodIsAsleep() {
        var w = world(sleeping(), [at(1 * hour + 30 * minute, low: true)], asleep: [1 * hour..<3 * hour], offline: [30 * minute..<2 * hour])
        let l = w.run(.off)
        expectEqual(l.sleep.held, 1)
        expectEqual(w.fate(0), .delivered(latency: 90 * minute + 200 * ms), "\(w.traceText)")
    }

    /// The asleep intervals are drawn for the whole run in one alternating process (one stream,
    /// `sleep`), not only over online time: the same for a device that is never online.
    @Test func theSleepProcessIgnoresConnectivity() {
        let s = sleeping()
        var online = DeviceWorld(scenario: s)
        online.prepare(device: 3)
        var s2 = s
        s2.connectivity.windows = [OfflineWindow(start: span(0), end: span(s.end.microseconds))]
        var offline = DeviceWorld(scenario: s2)
        offline.prepare(device: 3)
        #expect(!online.draws.sleepTimeline.asleep.isEmpty)
        expectEqual(online.draws.sleepTimeline.asleep, offline.draws.sleepTimeline.asleep)
    }

    /// A priority-10 push wakes the device for its own hand-over and the held pushes', not for
    /// the rest of the asleep period: a priority-5 push after it is held again until the wake.
    @Test func aPriority10WakeDoesNotEndTheAsleepPeriod() {
        var w = world(sleeping(), [at(1 * hour + 10 * minute, low: true), at(1 * hour + 20 * minute, low: false),
                                   at(1 * hour + 30 * minute, low: true)], asleep: [1 * hour..<2 * hour])
        let l = w.run(.off)
        #expect(w.fates() == [.delivered(latency: 10 * minute + 350 * ms), .delivered(latency: 350 * ms),
                              .delivered(latency: 30 * minute + 200 * ms)], "\(w.traceText)")
        expectEqual(l.sleep.held, 2)
        expectEqual(l.sleep.releasedByPriority10, 1)
    }

    /// The hold is APNs' (`apns-priority`): PushKit's VoIP pushes go at once, and FCM has its
    /// own priority and Doze (§12). A priority-5 letter to a sleeping device is not held there.
    @Test func noHoldOnPushKitOrFCM() {
        for channel in [PushChannel.pushkit, .fcm] {
            var w = world(sleeping(on: channel), [at(1 * hour + 30 * minute, low: true)], asleep: [1 * hour..<2 * hour])
            let l = w.run(.off)
            expectEqual(w.fate(0), .delivered(latency: 350 * ms), "\(channel)")
            expectEqual(l.sleep.held, 0, "\(channel)")
        }
        var apns = world(sleeping(), [at(1 * hour + 30 * minute, low: true)], asleep: [1 * hour..<2 * hour])
        expectEqual(apns.run(.off).sleep.held, 1)
    }
}
