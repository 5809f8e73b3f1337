// PushKit (channel: pushkit) on hand-built cases: no store for an offline device, the CallKit-report rule.
import Testing
@testable import PushSimCore
import PushSimTestSupport

@Suite struct PushKitChannelTests {
    /// A push due while the device is offline is lost for good (`no_store`), however long APNs
    /// would have kept it; one due online is delivered as on APNs.
    @Test func anOfflinePushIsLostNotStored() {
        var w = ScriptedWorld(tinyScenario(on: .pushkit), letters: [
            ScriptedLetter(time: 1 * hour, xivaLatency: 50 * ms, apnsLatency: 100 * ms, processing: 200 * ms),
            ScriptedLetter(time: 2 * hour, xivaLatency: 50 * ms, apnsLatency: 100 * ms),
        ], offline: [90 * minute..<3 * hour])
        let off = w.run(.off)
        expectEqual(w.fate(0), .delivered(latency: 350 * ms))
        expectEqual(w.fate(1), .lost(.noStore), "\(w.traceText)")
        expectEqual(off.count(of: .noStore), 1)
        expectEqual(off.count(of: .apnsExpired), 0)
    }

    /// The queue recovers it: the next push reveals the gap, and the re-sent copy finds the
    /// device online.
    @Test func theQueueBringsTheLostPushBack() {
        var w = ScriptedWorld(tinyScenario(on: .pushkit), letters: [
            ScriptedLetter(time: 1 * hour), ScriptedLetter(time: 2 * hour), ScriptedLetter(time: 4 * hour),
        ], offline: [90 * minute..<3 * hour])
        let on = w.run(.on)
        expectEqual(on.reRequests, 1)
        expectEqual(on.resent, 1)
        #expect(w.fates().allSatisfy { if case .delivered = $0 { return true } else { return false } }, "\(w.traceText)")
    }

    /// After `cut_off_after` failures to report to CallKit the system launches the app no
    /// more: the failed pushes and every later one are `callkit_unreported`.
    @Test func repeatedFailuresCutTheAppOff() {
        var w = ScriptedWorld(tinyScenario(on: .pushkit) { $0.pushkit.reportFailure = 1; $0.pushkit.cutOffAfter = 2 },
                              letters: (1...4).map { ScriptedLetter(time: Int64($0) * hour) })
        let off = w.run(.off)
        expectEqual(w.fates(), Array(repeating: .lost(.callKitUnreported), count: 4))
        expectEqual(off.callKitFailures, 2)
        expectEqual(off.devicesCutOff, 1)
        // The queue arm's re-requests cannot help: nothing reaches the app, no gap is seen, and
        // by the queue arm's order of causes the letters are undetected gaps.
        let on = w.run(.on)
        expectEqual(on.callKitFailures, 2)
        expectEqual(on.reRequests, 0)
        expectEqual(on.count(of: .undetectedGap), 4)
    }

    /// Each launch fails with the given probability, on a stream of its own.
    @Test func failuresFollowTheProbability() {
        let n = 2_000
        var w = ScriptedWorld(tinyScenario(on: .pushkit) { $0.duration = span(30 * day); $0.pushkit.reportFailure = 0.2; $0.pushkit.cutOffAfter = n + 1 },
                              letters: (0..<n).map { ScriptedLetter(time: Int64($0) * 10 * minute) })
        let off = w.run(.off)
        expectEqual(off.count(of: .callKitUnreported), off.callKitFailures)
        expectEqual(off.devicesCutOff, 0)
        #expect(within(Double(off.callKitFailures) / Double(n), 0.2, se: binomialStandardError(0.2, n)))
    }

    /// Unset, nothing is drawn: a report failure of 0 leaves every other draw where it was.
    @Test func withoutFailuresPushKitOnlineIsAPNs() {
        let letters = (1...20).map { ScriptedLetter(time: Int64($0) * hour) }
        var apns = ScriptedWorld(tinyScenario(), letters: letters)
        var pushkit = ScriptedWorld(tinyScenario(on: .pushkit), letters: letters)
        var onAPNs = apns.run(.on)
        // APNs' console categories count APNs' pushes only (docs/model.md §2): all delivered here.
        expectEqual(onAPNs.apns.delivered, 20)
        expectEqual(onAPNs.apns.sent, 20)
        onAPNs.apns = APNsConsoleCounters()
        expectEqual(onAPNs, pushkit.run(.on))
    }
}
