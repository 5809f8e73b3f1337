// docs/model.md §2, APNs' console categories, pinned on hand-built devices: one case per category, and the categories adding up to the pushes sent.
import Testing
@testable import PushSimCore
import PushSimTestSupport

@Suite struct ConsoleCategoryRulesTests {
    private func at(_ t: Int64, lost: Bool = false, low: Bool = false, tooLarge: Bool = false) -> ScriptedLetter {
        ScriptedLetter(time: t, lost: lost, xivaLatency: 50 * ms, apnsLatency: 100 * ms, processing: 200 * ms,
                       payloadTooLarge: tooLarge, lowPriority: low)
    }

    /// The arm's console counts, with every category but the ones in `expected` zero, and the
    /// categories adding up to `sent`.
    private func expectCounts(_ l: Ledger, sent: Int, _ expected: [WritableKeyPath<APNsConsoleCounters, Int>: Int],
                              _ trace: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(l.apns.sent == sent, "\(trace)", sourceLocation: sourceLocation)
        #expect(l.apns.categorized == l.apns.sent, "the categories add up to the pushes sent", sourceLocation: sourceLocation)
        for path in APNsConsoleCounters.categories {
            #expect(l.apns[keyPath: path] == expected[path] ?? 0, "\(path)\n\(trace)", sourceLocation: sourceLocation)
        }
    }

    @Test func aPushToAnOnlineDeviceIsDelivered() {
        var w = ScriptedWorld(tinyScenario(), letters: [at(1 * hour), at(2 * hour)])
        let l = w.run(.off)
        expectCounts(l, sent: 2, [\.delivered: 2], w.traceText)
        expectEqual(l.apns.everStoredDeviceOffline, 0)
    }

    /// Stored while the phone is offline, handed over when it is back: Delivered (From Storage),
    /// and one "Stored – Device Offline" data point.
    @Test func aPhoneBackOnlineGetsItFromStorage() {
        var w = ScriptedWorld(tinyScenario(), letters: [at(1 * hour)], offline: [30 * minute..<2 * hour])
        let l = w.run(.off)
        expectCounts(l, sent: 1, [\.deliveredFromStorage: 1], w.traceText)
        expectEqual(l.apns.everStoredDeviceOffline, 1)
    }

    /// The phone stays offline while the stored copy expires: Discarded – Expired, whether the
    /// phone comes back after the expiry or not at all before the end.
    @Test func aPushExpiringInTheStoreIsDiscardedExpired() {
        var s = tinyScenario()
        s.apns.expiration = span(30 * minute)
        for offline in [30 * minute..<3 * hour, 30 * minute..<3 * day] {
            var w = ScriptedWorld(s, letters: [at(1 * hour)], offline: [offline])
            let l = w.run(.off)
            expectCounts(l, sent: 1, [\.discardedExpired: 1], w.traceText)
            expectEqual(w.fate(0), .lost(.apnsExpired))
        }
    }

    /// Still in the store, still valid, at the end of the run: Stored – Device Offline.
    @Test func aPushStillStoredAtTheEndIsStoredDeviceOffline() {
        var w = ScriptedWorld(tinyScenario(), letters: [at(40 * hour)], offline: [30 * hour..<3 * day])
        let l = w.run(.off)
        expectCounts(l, sent: 1, [\.storedDeviceOffline: 1], w.traceText)
    }

    /// A newer push pushes the stored one out of the one slot: no console category of its own.
    @Test func aReplacedPushHasItsOwnRow() {
        var w = ScriptedWorld(tinyScenario(), letters: [at(1 * hour), at(90 * minute)], offline: [30 * minute..<2 * hour])
        let l = w.run(.off)
        expectCounts(l, sent: 2, [\.replacedInStorage: 1, \.deliveredFromStorage: 1], w.traceText)
        expectEqual(l.apns.everStoredDeviceOffline, 2)
    }

    /// A priority-5 push held for the sleeping phone: Stored – Power Considerations while held,
    /// Delivered (From Storage) once the phone wakes.
    @Test func aHeldPushIsStoredForPowerConsiderations() {
        var s = tinyScenario()
        s.apns.lowPriorityShare = 1
        s.device.sleep = DeviceSleep(awake: constant(1 * hour), asleep: constant(1 * hour))
        var w = ScriptedWorld(s, letters: [at(90 * minute, low: true)])
        w.world.draws.sleepTimeline.asleep = [1 * hour..<2 * hour]
        var l = w.run(.off)
        expectCounts(l, sent: 1, [\.deliveredFromStorage: 1], w.traceText)
        w.world.draws.sleepTimeline.asleep = [1 * hour..<3 * day]
        l = w.run(.off)
        expectCounts(l, sent: 1, [\.storedPowerConsiderations: 1], w.traceText)
    }

    /// Notifications disabled (display off): APNs discards the push.
    @Test func aPushToADisplayOffPhoneIsDiscardedDisabled() {
        var w = ScriptedWorld(tinyScenario(), letters: [at(1 * hour)], alertsOff: true)
        let l = w.run(.off)
        expectCounts(l, sent: 1, [\.discardedDisabled: 1], w.traceText)
    }

    /// After an uninstall: the stored copy is the token's, discarded, and so is the first push
    /// after the uninstall (the 410), which is one more push sent.
    @Test func pushesAfterAnUninstallAreDiscardedTokenUnregistered() {
        var s = tinyScenario()
        s.device.uninstallRatePerMicrosecond = 1e-12  // switches the rule on; the test sets the instant
        var w = ScriptedWorld(s, letters: [at(1 * hour), at(2 * hour), at(4 * hour), at(5 * hour)],
                              offline: [90 * minute..<5 * hour])
        w.world.clock.end = 3 * hour
        let l = w.run(.off)
        expectCounts(l, sent: 3, [\.delivered: 1, \.discardedTokenUnregistered: 2], w.traceText)
    }

    /// Lost on the way in, refused with 413, or still travelling at the end: outside the console.
    @Test func pushesTheConsoleNeverSawHaveTheirOwnRows() {
        var s = tinyScenario()
        s.mail.payloadSize = constant(1)  // switches APNs' answers on; the letters say which is too large
        var w = ScriptedWorld(s, letters: [at(1 * hour, lost: true), at(2 * hour, tooLarge: true), at(2 * day - 10 * ms)])
        let l = w.run(.off)
        expectCounts(l, sent: 3, [\.notReachingAPNs: 1, \.refused: 1, \.underWay: 1], w.traceText)
    }

    /// The queue arm's re-sent copies are pushes of their own.
    @Test func reSentCopiesArePushesOfTheirOwn() {
        var w = ScriptedWorld(tinyScenario(), letters: [at(1 * hour), at(2 * hour, lost: true), at(3 * hour)])
        let on = w.run(.on)
        expectEqual(on.resent, 1)
        expectCounts(on, sent: 4, [\.delivered: 3, \.notReachingAPNs: 1], w.traceText)
        let off = w.run(.off)
        expectCounts(off, sent: 3, [\.delivered: 2, \.notReachingAPNs: 1], w.traceText)
    }

    /// On PushKit and FCM the console has nothing to show: no pushes counted.
    @Test func otherChannelsCountNothing() {
        for channel in [PushChannel.pushkit, .fcm] {
            var w = ScriptedWorld(tinyScenario(on: channel), letters: [at(1 * hour)])
            expectEqual(w.run(.off).apns, APNsConsoleCounters(), "\(channel)")
        }
    }
}
