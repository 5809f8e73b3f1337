// The provider API's answers on hand-built cases: 413, 410 (uninstall), 429 with retries, 5xx, lost answers.
import Testing
@testable import PushSimCore
import PushSimTestSupport

@Suite struct ProviderAnswersTests {
    private func at(_ t: Int64, tooLarge: Bool = false) -> ScriptedLetter {
        ScriptedLetter(time: t, xivaLatency: 50 * ms, apnsLatency: 100 * ms, processing: 200 * ms, payloadTooLarge: tooLarge)
    }

    private func scenario(attempts: Int = 1, backoff: Int64 = 1 * sec) -> Scenario {
        var s = tinyScenario()
        s.xiva.requestError = 0
        if attempts > 1 { s.xiva.retry = XivaRetry(attempts: attempts, backoff: constant(backoff)) }
        return s
    }

    /// 413 is final: the push is refused, and the queue's re-sent copy is refused the same way.
    @Test func anOversizedPayloadIsRefusedAndSoIsItsResend() {
        var s = scenario()
        s.mail.payloadSize = constant(8000)  // switches the answers on; the script says which letter is too large
        var w = ScriptedWorld(s, letters: [at(1 * hour), at(2 * hour, tooLarge: true), at(3 * hour)])
        let off = w.run(.off)
        expectEqual(w.fates()[1], .lost(.payloadTooLarge))
        expectEqual(off.count(of: .payloadTooLarge), 1)
        expectEqual(off.delivered, 2)
        let on = w.run(.on)
        // The third push reveals the gap; the re-sent copy of the second is refused again.
        expectEqual(on.reRequests, 1)
        expectEqual(on.resent, 1)
        #expect(w.fates()[1] == .lost(.payloadTooLarge) && on.identitiesHold)
        expectEqual(on.provider.retries, 0)
    }

    /// After the uninstall the device's run stops: later letters and those still under way are
    /// undeliverable, outside `letters`; earlier deliveries stand.
    @Test func lettersAfterAnUninstallAreUndeliverableNotLost() {
        var s = scenario()
        s.device.uninstallRatePerMicrosecond = 1e-12
        var w = ScriptedWorld(s, letters: [at(1 * hour), at(3 * hour - 100 * ms), at(4 * hour), at(5 * hour)])
        w.world.clock.end = 3 * hour
        for arm in Arm.allCases {
            let l = w.run(arm)
            expectEqual(w.fates(), [.delivered(latency: 350 * ms), .undeliverable, .undeliverable, .undeliverable])
            #expect(l.letters == 1 && l.delivered == 1 && l.uninstall.undeliverable == 3 && l.lost == 0 && l.identitiesHold)
        }
    }

    /// A push stored while the device is offline reaches it when it comes back online before the
    /// uninstall, even when nothing else is scheduled and its next letter comes after the
    /// uninstall (the agenda must not let that letter hide the connectivity flip before it).
    @Test func aStoredPushReachesADeviceBackOnlineBeforeTheUninstall() {
        var s = scenario()
        s.device.uninstallRatePerMicrosecond = 1e-12
        var w = ScriptedWorld(s, letters: [at(1 * hour), at(4 * hour)], offline: [30 * minute ..< 2 * hour])
        w.world.clock.end = 3 * hour
        for arm in Arm.allCases {
            let l = w.run(arm)
            expectEqual(w.fates(), [.delivered(latency: 1 * hour + 300 * ms), .undeliverable], "\(arm): \(w.traceText)")
            #expect(l.letters == 1 && l.delivered == 1 && l.uninstall.undeliverable == 1 && l.identitiesHold)
        }
    }

    /// The uninstall instant is an exponential draw of the rate, from its own stream.
    @Test func theUninstallIsDrawnAtTheGivenRate() {
        var s = tinyScenario(duration: 1000 * day, drain: 0)
        s.mail.ratePerMicrosecond = 0
        s.device.uninstallRatePerMicrosecond = 1.0 / Double(10 * day)
        var total = 0.0
        let n = 2000
        for d in 0..<n {
            var w = DeviceWorld(scenario: s)
            w.prepare(device: d)
            total += Double(w.clock.end)
        }
        let mean = total / Double(n) / Double(day)
        // Exponential mean 10 d, standard error 10/√n ≈ 0.22 d: four of them.
        #expect(abs(mean - 10) < 4 * 10 / Double(n).squareRoot())
    }

    /// 429: the third push within the token window is refused; without retries it is lost as
    /// `throttled`, with one retry a window later it goes through.
    @Test func pushesOverTheTokenLimitAreThrottledThenRetried() {
        let letters = [at(1 * hour), at(1 * hour + 1 * sec), at(1 * hour + 2 * sec)]
        var s = scenario()
        s.apns.tokenLimit = 2
        s.apns.tokenWindow = span(1 * minute)
        var w = ScriptedWorld(s, letters: letters)
        let once = w.run(.off)
        expectEqual(w.fates()[2], .lost(.throttled))
        expectEqual(once.provider.throttledAnswers, 1)
        expectEqual(once.provider.retries, 0)
        var retried = s
        retried.xiva.retry = XivaRetry(attempts: 2, backoff: constant(1 * minute))
        var r = ScriptedWorld(retried, letters: letters)
        let l = r.run(.off)
        // Refused at 1h + 2.05 s, sent again a minute later: the window has moved past the first two.
        expectEqual(r.fates()[2], .delivered(latency: 1 * minute + 350 * ms))
        expectEqual(l.provider.throttledAnswers, 1)
        expectEqual(l.provider.retries, 1)
        expectEqual(l.lost, 0)
    }

    /// 5xx on every push: XIVA sends each one `attempts` times, then gives up with `server_error`.
    @Test func serverErrorsAreRetriedUntilTheAttemptsRunOut() {
        var s = scenario(attempts: 3)
        s.apns.serverError = 1
        var w = ScriptedWorld(s, letters: [at(1 * hour), at(2 * hour)])
        let l = w.run(.off)
        expectEqual(w.fates(), [.lost(.serverError), .lost(.serverError)])
        #expect(l.provider.serverErrors == 6 && l.provider.retries == 4 && l.identitiesHold)
    }

    /// A lost answer makes XIVA send an accepted push again: two copies reach the device. The
    /// off arm shows both; the queue arm's collapse id folds the second into the first.
    @Test func lostAnswersBringDuplicatesUnlessACollapseIdFoldsThem() {
        var s = scenario(attempts: 2, backoff: 5 * sec)
        s.apns.answerLoss = 1
        var w = ScriptedWorld(s, letters: [at(1 * hour), at(2 * hour)])
        let off = w.run(.off)
        expectEqual(off.provider.answersLost, 4)
        expectEqual(off.provider.retries, 2)
        expectEqual(off.duplicates, 2)
        expectEqual(off.delivered, 2)
        let on = w.run(.on)
        expectEqual(on.duplicates, 0)
        expectEqual(on.delivered, 2)
        var noCollapse = s
        noCollapse.queue.collapseId = false
        var n = ScriptedWorld(noCollapse, letters: [at(1 * hour), at(2 * hour)])
        expectEqual(n.run(.on).duplicates, 2)
    }

    /// With no attempt left, a lost answer changes nothing the device sees.
    @Test func aLostAnswerWithoutRetriesIsOnlyCounted() {
        var s = scenario()
        s.apns.answerLoss = 1
        var w = ScriptedWorld(s, letters: [at(1 * hour)])
        let l = w.run(.off)
        expectEqual(l.provider.answersLost, 1)
        expectEqual(l.provider.retries, 0)
        expectEqual(l.duplicates, 0)
        expectEqual(l.delivered, 1)
    }
}
