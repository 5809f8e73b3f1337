// APNs rules: the one-slot offline store, expiry, redelivery, network loss, reordering.
import Testing
@testable import PushSimCore
import PushSimTestSupport

@Suite struct APNsTests {
    /// Rule 3: while offline only the last push entered is kept; the others are replaced.
    @Test func apnsKeepsOnlyTheNewestPushWhileOffline() {
        var w = ScriptedWorld(tinyScenario(), letters: [
            ScriptedLetter(time: 30 * minute), ScriptedLetter(time: 90 * minute),
            ScriptedLetter(time: 2 * hour), ScriptedLetter(time: 150 * minute),
            ScriptedLetter(time: 4 * hour),
        ], offline: [1 * hour..<3 * hour])
        let off = w.run(.off)
        expectEqual(w.fate(1), .lost(.apnsReplaced), "\(w.traceText)")
        expectEqual(w.fate(2), .lost(.apnsReplaced))
        // Flushed at 3h, fresh APNs latency 100 ms, processing 200 ms.
        expectEqual(w.fate(3), .delivered(latency: 3 * hour + 300 * ms - 150 * minute))
        expectEqual(w.fate(0), .delivered(latency: 350 * ms))
        expectEqual(w.fate(4), .delivered(latency: 350 * ms))
        expectEqual(off.count(of: .apnsReplaced), 2)
        expectEqual(off.lost, 2)

        // The queue arm sees the gap of two and gets both back.
        let on = w.run(.on)
        expectEqual(on.delivered, 5)
        expectEqual(on.reRequests, 1)
        expectEqual(on.resent, 2)
        expectEqual(on.duplicates, 0)
        // The answer is back 300 ms after processing: the revealing push is shown then;
        // re-sent copies reach APNs 200 ms later, the device 100 ms after, shown 200 ms after.
        expectEqual(w.firstDelivery(3), 3 * hour + 600 * ms)
        expectEqual(w.firstDelivery(1), 3 * hour + 1_100 * ms)
        expectEqual(w.firstDelivery(2), 3 * hour + 1_100 * ms)
    }

    /// Rule 3: a stored push expires at arrival at APNs + expiration; replacing an already
    /// expired one counts it as expired, not replaced.
    @Test func storedPushExpiresAfterExpiration() {
        var s = tinyScenario()
        s.apns.expiration = span(30 * minute)
        var w = ScriptedWorld(s, letters: [ScriptedLetter(time: 90 * minute)], offline: [1 * hour..<3 * hour])
        w.run(.off)
        expectEqual(w.fate(0), .lost(.apnsExpired), "\(w.traceText)")

        // Replaced at 2.6h, after its expiry at 2h + 50 ms: expired. The newer one is still valid at 3h.
        w = ScriptedWorld(s, letters: [ScriptedLetter(time: 90 * minute), ScriptedLetter(time: 156 * minute)],
                          offline: [1 * hour..<3 * hour])
        w.run(.off)
        expectEqual(w.fate(0), .lost(.apnsExpired))
        expectEqual(w.fate(1), .delivered(latency: 3 * hour + 300 * ms - 156 * minute))
    }

    /// The expiry is inclusive: a push flushed exactly at its expiry is expired, one µs earlier is not.
    @Test func storedPushExpiresAtExactlyItsExpiry() {
        var s = tinyScenario()
        // Arrival at APNs at 1h30m + 50 ms; online again at 3h.
        s.apns.expiration = span(90 * minute - 50 * ms)
        var w = ScriptedWorld(s, letters: [ScriptedLetter(time: 90 * minute)], offline: [1 * hour..<3 * hour])
        w.run(.off)
        expectEqual(w.fate(0), .lost(.apnsExpired))
        s.apns.expiration = span(90 * minute - 50 * ms + 1)
        w = ScriptedWorld(s, letters: [ScriptedLetter(time: 90 * minute)], offline: [1 * hour..<3 * hour])
        w.run(.off)
        expectEqual(w.fate(0), .delivered(latency: 90 * minute + 300 * ms))
    }

    /// `expiration: 0`: one attempt, never stored.
    @Test func expirationZeroMeansNotStored() {
        var s = tinyScenario()
        s.apns.expiration = .zero
        var w = ScriptedWorld(s, letters: [ScriptedLetter(time: 90 * minute), ScriptedLetter(time: 4 * hour)],
                              offline: [1 * hour..<3 * hour])
        let off = w.run(.off)
        expectEqual(w.fate(0), .lost(.apnsExpired))
        expectEqual(w.fate(1), .delivered(latency: 350 * ms))
        expectEqual(off.count(of: .apnsReplaced), 0)
    }

    /// Rule 3: back online, the stored push goes out with a fresh APNs latency.
    @Test func storedPushIsSentWhenDeviceComesBackOnline() {
        var s = tinyScenario()
        s.apns.latency = constant(2 * sec)
        var w = ScriptedWorld(s, letters: [ScriptedLetter(time: 90 * minute, apnsLatency: 100 * ms)],
                              offline: [1 * hour..<3 * hour])
        w.run(.off)
        // The first send's draw (100 ms) put it in the store; the flush draws again (2 s).
        expectEqual(w.firstDelivery(0), 3 * hour + 2 * sec + 200 * ms, "\(w.traceText)")
    }

    /// Rule 3: a flushed push that finds the device offline again re-enters the store with its
    /// original expiry (not a fresh one).
    @Test func flushedPushReentersTheStoreWithItsOriginalExpiry() {
        var s = tinyScenario()
        let offline = [1 * hour..<3 * hour, 3 * hour + 50 * ms..<5 * hour]
        // Arrival at APNs 1h30m + 50 ms; expiry 4h + 50 ms < 5h: lost at the second flush.
        s.apns.expiration = span(150 * minute)
        var w = ScriptedWorld(s, letters: [ScriptedLetter(time: 90 * minute)], offline: offline)
        w.run(.off)
        expectEqual(w.fate(0), .lost(.apnsExpired), "\(w.traceText)")
        expectEqual(w.trace.filter { $0.text == "stored for offline device" }.count, 2)
        // With an expiry after 5h it survives both offline periods.
        s.apns.expiration = span(4 * hour)
        w = ScriptedWorld(s, letters: [ScriptedLetter(time: 90 * minute)], offline: offline)
        w.run(.off)
        expectEqual(w.firstDelivery(0), 5 * hour + 300 * ms)
    }

    /// Rule 2 and section 3: a push lost between XIVA and APNs is a network loss in the off arm;
    /// the queue arm gets it back.
    @Test func networkLossCountsAsNetworkLossInOffArm() {
        var w = ScriptedWorld(tinyScenario(), letters: [
            ScriptedLetter(time: 1 * hour), ScriptedLetter(time: 2 * hour, lost: true), ScriptedLetter(time: 3 * hour),
        ])
        let off = w.run(.off)
        expectEqual(w.fate(1), .lost(.networkLoss))
        expectEqual(off.count(of: .networkLoss), 1)
        expectEqual(off.delivered, 2)
        let on = w.run(.on)
        expectEqual(on.delivered, 3)
        expectEqual(on.reRequests, 1)
        expectEqual(on.resent, 1)
    }

    /// Section 3: a re-sent copy is exposed to network loss again, and the letter takes its fate.
    @Test func lostResentCopyTakesItsOwnFate() {
        var s = tinyScenario()
        s.apns.loss = 1   // only re-sent copies draw from the scenario; the script fixes first sends
        var w = ScriptedWorld(s, letters: [
            ScriptedLetter(time: 1 * hour), ScriptedLetter(time: 2 * hour, lost: true), ScriptedLetter(time: 3 * hour),
        ])
        let on = w.run(.on)
        expectEqual(on.resent, 1)
        expectEqual(w.fate(1), .lost(.networkLoss))
    }

    /// Rule 2: one latency draw per push, so a later push can arrive first.
    @Test func pushesCanOvertakeEachOther() {
        var w = ScriptedWorld(tinyScenario(), letters: [
            ScriptedLetter(time: 0), ScriptedLetter(time: 10 * sec, apnsLatency: 5 * sec),
            ScriptedLetter(time: 11 * sec),
        ])
        w.run(.off)
        #expect(w.firstDelivery(2) < w.firstDelivery(1))
        expectEqual(w.firstDelivery(1), 15 * sec + 250 * ms)

        // With jitter from the scenario, some later letters are shown before earlier ones.
        var s = Scenario(name: "jitter", duration: span(2 * day), devices: 1)
        s.mail.ratePerMicrosecond = 1.0 / Double(30 * sec)
        s.apns.latency = .uniform(min: 0, max: Double(60 * sec))
        s.queue.mode = .off
        var world = DeviceWorld(scenario: s)
        world.prepare(device: 0)
        world.run(.off)
        var inversions = 0
        for i in 1..<world.draws.letters.count where world.letterStates[i].firstDelivery < world.letterStates[i - 1].firstDelivery { inversions += 1 }
        #expect(inversions > 0)
        expectEqual(world.ledger.delivered, world.draws.letters.count)
    }
}
