// docs/model.md §12, Push channels, pinned on hand-built devices: display off on PushKit and APNs, the provider's answers on every channel, FCM's re-sync and the saved position, CallKit's counts under a warm-up.
import Testing
@testable import PushSimCore
import PushSimTestSupport

@Suite struct PushChannelRulesTests {
    private func at(_ t: Int64, lost: Bool = false, tooLarge: Bool = false) -> ScriptedLetter {
        ScriptedLetter(time: t, lost: lost, xivaLatency: 50 * ms, apnsLatency: 100 * ms, processing: 200 * ms, payloadTooLarge: tooLarge)
    }

    /// Display off on PushKit: the VoIP push launches the app whatever the notification
    /// settings, so the push handler runs as on any phone (§12, PushKit, Display off): the
    /// letter is delivered when the handler hands it over (processing included), the gap
    /// check finds the lost letter and re-requests it, and no letter is `alerts_off`.
    @Test func pushKitWithDisplayOffStillRunsTheHandlerAndItsGapCheck() {
        let letters = [at(1 * hour), at(2 * hour, lost: true), at(3 * hour)]
        var w = ScriptedWorld(tinyScenario(on: .pushkit), letters: letters, alertsOff: true)
        let off = w.run(.off)
        expectEqual(w.fates(), [.delivered(latency: 350 * ms), .lost(.networkLoss), .delivered(latency: 350 * ms)])
        expectEqual(off.pushesSeenByExtensions, 2)
        let on = w.run(.on)
        expectEqual(on.gapsDetected, 1, "\(w.traceText)")
        expectEqual(on.reRequests, 1, "\(w.traceText)")
        let recovered: Bool = if case .delivered = w.fate(1) { true } else { false }
        #expect(recovered, "the re-sent copy delivers the lost letter: \(w.traceText)")
        // The handler's logs count toward telemetry, as an extension's do.
        expectEqual(on.lettersOnVisibleDevices, 3)
        expectEqual(on.positionsKnownToTelemetry, 3)
    }

    /// The same device on APNs: display off keeps the extension from running, so the push is
    /// delivered at its arrival, nothing is re-requested and the lost letter is `alerts_off`
    /// (§1). The two together pin that only PushKit's handler ignores display off.
    @Test func apnsWithDisplayOffRunsNoExtension() {
        let letters = [at(1 * hour), at(2 * hour, lost: true), at(3 * hour)]
        var w = ScriptedWorld(tinyScenario(on: .apns), letters: letters, alertsOff: true)
        let off = w.run(.off)
        expectEqual(w.fates(), [.delivered(latency: 150 * ms), .lost(.networkLoss), .delivered(latency: 150 * ms)])
        expectEqual(off.pushesSeenByExtensions, 0)
        let on = w.run(.on)
        expectEqual(on.reRequests, 0, "\(w.traceText)")
        expectEqual(on.gapsDetected, 0, "\(w.traceText)")
        expectEqual(w.fate(1), .lost(.alertsOff), "\(w.traceText)")
        expectEqual(on.lettersOnVisibleDevices, 0)
    }

    /// The launch is the app's whatever the display: an unreported push is still lost
    /// (`callkit_unreported`) on a display-off PushKit phone.
    @Test func pushKitWithDisplayOffStillMeetsTheCallKitRule() {
        let letters = [at(1 * hour), at(2 * hour, lost: true), at(3 * hour)]
        var failing = ScriptedWorld(tinyScenario(on: .pushkit) { $0.pushkit.reportFailure = 1; $0.pushkit.cutOffAfter = 10 },
                                    letters: letters, alertsOff: true)
        let f = failing.run(.off)
        expectEqual(failing.fates(), [.lost(.callKitUnreported), .lost(.networkLoss), .lost(.callKitUnreported)])
        expectEqual(f.callKitFailures, 2)
    }

    /// APNs' HTTP/2 answers are the provider interface's, not the channel's: they apply on
    /// PushKit and FCM as on APNs (413 over 4096 bytes, 429 over the token limit).
    @Test func theProviderAnswersApplyOnEveryChannel() {
        for channel in [PushChannel.apns, .pushkit, .fcm] {
            var big = ScriptedWorld(tinyScenario(on: channel) { $0.mail.payloadSize = constant(8000) },
                                    letters: [at(1 * hour), at(2 * hour, tooLarge: true)])
            big.run(.off)
            expectEqual(big.fates(), [.delivered(latency: 350 * ms), .lost(.payloadTooLarge)], "\(channel)")
            // A limit of one push per hour: the second, ten minutes later, is refused (429).
            var limited = ScriptedWorld(tinyScenario(on: channel) { $0.apns.tokenLimit = 1 },
                                        letters: [at(1 * hour), at(1 * hour + 10 * minute)])
            let l = limited.run(.off)
            expectEqual(limited.fates(), [.delivered(latency: 350 * ms), .lost(.throttled)], "\(channel)")
            expectEqual(l.provider.throttledAnswers, 1, "\(channel)")
        }
    }

    /// FCM's re-sync summarizes the letters FCM dropped but leaves the saved position where it
    /// was: the stored message that follows it shows the dropped positions as a gap (here over
    /// `repeat_max_count`, so a second summary).
    @Test func anFCMResyncDoesNotMoveTheSavedPosition() {
        let letters = [ScriptedLetter(time: 30 * minute)] + (0...100).map { ScriptedLetter(time: 2 * hour + Int64($0) * sec) }
        var w = ScriptedWorld(tinyScenario(on: .fcm), letters: letters, offline: [1 * hour..<5 * hour])
        let on = w.run(.on)
        #expect((1...100).allSatisfy { w.fate($0) == .summarized }, "\(w.traceText)")
        expectEqual(on.fcm.resyncs, 1)
        expectEqual(on.gapsDetected, 1)
        expectEqual(on.missedInGaps, 100)
        expectEqual(on.summaries, 2)
        expectEqual(w.world.ext.lastPosition, 102)
    }

    /// CallKit's counts follow the letter of the push: a failure counts when its letter is
    /// counted, and `devices_cut_off` when the failure that cut the app off is.
    @Test func callKitCountsFollowTheLetterUnderAWarmup() {
        let letters = [at(1 * hour), at(2 * hour), at(3 * hour)]
        func run(warmup: Int64) -> Ledger {
            var w = ScriptedWorld(tinyScenario(on: .pushkit) { $0.pushkit.reportFailure = 1; $0.pushkit.cutOffAfter = 2; $0.warmup = span(warmup) },
                                  letters: letters)
            return w.run(.off)
        }
        // The cut-off comes with the second letter's push.
        let counted = run(warmup: 90 * minute)
        expectEqual(counted.callKitFailures, 1)
        expectEqual(counted.devicesCutOff, 1)
        expectEqual(counted.count(of: .callKitUnreported), 2)
        let inWarmup = run(warmup: 150 * minute)
        expectEqual(inWarmup.callKitFailures, 0)
        expectEqual(inWarmup.devicesCutOff, 0)
        expectEqual(inWarmup.count(of: .callKitUnreported), 1)
    }
}
