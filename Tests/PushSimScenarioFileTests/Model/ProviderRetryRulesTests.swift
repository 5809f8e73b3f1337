// docs/model.md §9, Retries and the defaults of the provider's keys, pinned: what a retried copy draws, what answers_lost counts, token_window's and retry's defaults.
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
import PushSimTestSupport

@Suite struct ProviderRetryRulesTests {
    /// XIVA retries after 1 h; APNs hands a push over in 100 ms; the scenario's processing is
    /// 200 ms, and the script gives the letter's own first-send processing as 700 ms.
    private func retrying(_ configure: (inout Scenario) -> Void) -> Scenario {
        var s = tinyScenario()
        s.xiva.requestError = 0
        s.xiva.retry = XivaRetry(attempts: 2, backoff: constant(1 * hour))
        configure(&s)
        return s
    }

    private func at(_ t: Int64, lost: Bool = false) -> ScriptedLetter {
        ScriptedLetter(time: t, lost: lost, xivaLatency: 50 * ms, apnsLatency: 100 * ms, processing: 700 * ms)
    }

    /// A retried first send is the same push: the extension takes the letter's own first-send
    /// processing (700 ms), drawn once with the letter, not a fresh draw (the scenario's 200 ms);
    /// only its network loss and APNs latency are drawn again, from the stream `retries`.
    @Test func aRetriedFirstSendKeepsTheLettersProcessing() {
        // One push per hour: the second, 10 min after the first, is refused and arrives again
        // 1 h later, when the window has room.
        var w = ScriptedWorld(retrying { $0.apns.tokenLimit = 1 }, letters: [at(1 * hour), at(1 * hour + 10 * minute)])
        let l = w.run(.off)
        expectEqual(w.fate(0), .delivered(latency: 850 * ms))
        expectEqual(w.fate(1), .delivered(latency: 1 * hour + 850 * ms), "\(w.traceText)")
        expectEqual(l.provider.retries, 1)
        expectEqual(l.provider.throttledAnswers, 1)
    }

    /// A retried queue re-send draws its processing from the re-sends' stream, as every re-sent
    /// copy does (the scenario's 200 ms), not the letter's first-send 700 ms.
    @Test func aRetriedReSendDrawsItsProcessingAsEveryReSend() {
        // Letter 1 finds the device offline with `expiration: 0` (accepted, so not retried).
        // Letter 2 reaches the device at 3h + 150 ms, its run (700 ms) re-requests position 2,
        // answered 300 ms later; the re-sent copy reaches APNs at 3h + 1.35 s, over the limit
        // (letter 2 was accepted at 3h + 50 ms), and again 1 h later.
        var w = ScriptedWorld(retrying { $0.apns.tokenLimit = 1; $0.apns.expiration = .zero },
                              letters: [at(1 * hour), at(2 * hour), at(3 * hour)], offline: [90 * minute..<150 * minute])
        let on = w.run(.on)
        expectEqual(on.reRequests, 1)
        expectEqual(on.provider.retries, 1)
        expectEqual(on.provider.throttledAnswers, 1)
        expectEqual(w.fate(1), .delivered(latency: 2 * hour + 1_650 * ms), "\(w.traceText)")
    }

    /// A lost answer: both copies reach the device, each with the letter's processing; the
    /// second is a duplicate in the off arm, folded by the collapse id in the queue arm (the
    /// notification is still shown: `clear_after` unset). The last attempt's lost answer is
    /// counted too, though nothing follows it.
    @Test func aLostAnswerBringsTwoCopiesOfTheSamePush() {
        var w = ScriptedWorld(retrying { $0.apns.answerLoss = 1 }, letters: [at(1 * hour)])
        let off = w.run(.off)
        expectEqual(w.fate(0), .delivered(latency: 850 * ms))
        expectEqual(off.duplicates, 1)
        expectEqual(off.provider.retries, 1)
        expectEqual(off.provider.answersLost, 2)
        let on = w.run(.on)
        expectEqual(on.duplicates, 0)
        expectEqual(on.gapsDetected, 0)
    }

    /// `answers_lost` counts answers lost after APNs accepted the push; a push lost on its way
    /// (`apns.loss`: no answer at all) is retried the same way but is not counted there.
    @Test func aPushLostOnTheWayIsRetriedButNotAnAnswerLost() {
        var w = ScriptedWorld(retrying { _ in }, letters: [at(1 * hour, lost: true)])
        let l = w.run(.off)
        expectEqual(w.fate(0), .delivered(latency: 1 * hour + 850 * ms), "\(w.traceText)")
        expectEqual(l.provider.retries, 1)
        expectEqual(l.provider.answersLost, 0)
        expectEqual(l.provider.throttledAnswers, 0)
        expectEqual(l.provider.serverErrors, 0)
    }

    /// Defaults: `token_window` is 1h when `token_limit` is set alone; `retry.backoff` is a
    /// constant 1s when only `attempts` is given; `attempts` is required.
    @Test func theProviderKeysDefaults() throws {
        let limited = try ScenarioLoader.parse(text: minimalScenario + "apns: {token_limit: 5}\n", file: "t.yaml", overrides: [])
        expectEqual(limited.apns.tokenLimit, 5)
        expectEqual(limited.apns.tokenWindow, span(1 * hour))
        let retry = try ScenarioLoader.parse(text: minimalScenario + "xiva:\n  retry: {attempts: 3}\n", file: "t.yaml", overrides: [])
        expectEqual(retry.xiva.retry, XivaRetry(attempts: 3, backoff: constant(1 * sec)))
        let missing = scenarioError(minimalScenario + "xiva:\n  retry: {backoff: 2s}\n")
        expectEqual(missing?.message.contains("attempts"), true, "\(String(describing: missing))")
        expectEqual(place(missing), "t.yaml:5:10", "\(String(describing: missing))")
    }
}
