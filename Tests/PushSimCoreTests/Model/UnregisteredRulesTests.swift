// docs/model.md §9, Unregistered, pinned on hand-built devices: what "under way at the uninstall" takes in (a re-request awaiting its answer, a held push, APNs' and FCM's stores).
import Testing
@testable import PushSimCore
import PushSimTestSupport

@Suite struct UnregisteredRulesTests {
    private func at(_ t: Int64, lost: Bool = false, low: Bool = false) -> ScriptedLetter {
        ScriptedLetter(time: t, lost: lost, xivaLatency: 50 * ms, apnsLatency: 100 * ms, processing: 200 * ms, lowPriority: low)
    }

    private func uninstalling(_ s: Scenario) -> Scenario {
        var s = s
        s.xiva.requestError = 0
        s.device.uninstallRatePerMicrosecond = 1e-12  // switches the rule on; each test sets the instant
        return s
    }

    /// A re-request still waiting for XIVA's answer at U takes its gap's letters with it: the
    /// letter lost on the way before U is undeliverable in the queue arm (its recovery was under
    /// way), and the push whose run sent the re-request too. The off arm keeps the loss.
    @Test func aReRequestAwaitingItsAnswerMakesItsGapUndeliverable() {
        // Letter 2 arrives at 3h + 150 ms, the re-request goes at + 350 ms, its answer would come
        // at + 650 ms; the app goes at + 500 ms.
        var w = ScriptedWorld(uninstalling(tinyScenario()), letters: [at(1 * hour), at(2 * hour, lost: true), at(3 * hour)])
        w.world.clock.end = 3 * hour + 500 * ms
        let on = w.run(.on)
        expectEqual(on.reRequests, 1)
        expectEqual(w.fates(), [.delivered(latency: 350 * ms), .undeliverable, .undeliverable], "\(w.traceText)")
        w.run(.off)
        expectEqual(w.fates(), [.delivered(latency: 350 * ms), .lost(.networkLoss), .delivered(latency: 350 * ms)])
    }

    /// A priority-5 push APNs holds for the sleeping device at U is under way: undeliverable.
    @Test func aHeldPushIsUndeliverable() {
        var s = uninstalling(tinyScenario())
        s.apns.lowPriorityShare = 0.5
        s.device.sleep = DeviceSleep(awake: constant(1 * hour), asleep: constant(1 * hour))
        var w = ScriptedWorld(s, letters: [at(30 * minute), at(1 * hour + 30 * minute, low: true)])
        w.world.draws.sleepTimeline.asleep = [1 * hour..<2 * hour]
        w.world.clock.end = 1 * hour + 45 * minute
        let l = w.run(.off)
        expectEqual(l.sleep.held, 1)
        expectEqual(w.fates(), [.delivered(latency: 350 * ms), .undeliverable])
    }

    /// A push in APNs' store at U, and messages in FCM's store, are under way: undeliverable.
    @Test func storedPushesAreUndeliverable() {
        for channel in [PushChannel.apns, .fcm] {
            var w = ScriptedWorld(uninstalling(tinyScenario(on: channel)), letters: [at(1 * hour), at(2 * hour), at(2 * hour + 10 * minute)],
                                  offline: [90 * minute..<5 * hour])
            w.world.clock.end = 3 * hour
            let l = w.run(.off)
            // On APNs the second push replaced the first in the one slot before U: that loss stands.
            let second: LetterFate = channel == .apns ? .lost(.apnsReplaced) : .undeliverable
            expectEqual(w.fates(), [.delivered(latency: 350 * ms), second, .undeliverable], "\(channel)\n\(w.traceText)")
            expectEqual(l.uninstall.undeliverable, (channel == .apns ? 1 : 2))
        }
    }

    /// Letters FCM dropped and the app has not re-synced by U are under way too.
    @Test func anFCMResyncStillOwedIsUndeliverable() {
        let letters = (0...100).map { at(2 * hour + Int64($0) * sec) }
        var w = ScriptedWorld(uninstalling(tinyScenario(on: .fcm)), letters: letters, offline: [1 * hour..<5 * hour])
        w.world.clock.end = 4 * hour
        let l = w.run(.off)
        expectEqual(l.uninstall.undeliverable, 101)
        expectEqual(l.letters, 0)
        expectEqual(l.fcm.resyncs, 0)
    }
}
