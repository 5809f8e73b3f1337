// APNs as documented (§6.5): keep_older in the one-slot store, and duplicate second copies.
import Testing
@testable import PushSimCore
@testable import PushSimExperiment
import PushSimTestSupport

@Suite struct APNsDocumentedTests {
    /// Two pushes enter the store of an offline device half a second apart: with keep_older 1
    /// the older stays and the newer takes apns_replaced; with 0 the newer replaces it.
    @Test(arguments: [0.0, 1.0]) func survivingPushWithKeepOlder(keepOlder: Double) {
        var s = tinyScenario()
        s.apns.keepOlder = keepOlder
        var w = ScriptedWorld(s, letters: [ScriptedLetter(time: 1 * sec), ScriptedLetter(time: 1 * sec + 500 * ms)],
                              offline: [0..<(1 * hour)])
        w.run(.off)
        let older = w.fate(0), newer = w.fate(1)
        if keepOlder == 1 {
            #expect(isDelivered(older), "\(w.traceText)")
            expectEqual(newer, .lost(.apnsReplaced))
        } else {
            expectEqual(older, .lost(.apnsReplaced))
            #expect(isDelivered(newer))
        }
    }

    /// A re-entry counts as an entry: A, flushed at 1 h, finds the device offline again and
    /// re-enters at 1h0.1s; B enters 0.6 s later, inside the window measured from A's latest
    /// entry (not its first, an hour before).
    @Test(arguments: [0.0, 1.0]) func reEntryRestartsTheKeepWindow(keepOlder: Double) {
        var s = tinyScenario()
        s.apns.keepOlder = keepOlder
        let a = ScriptedLetter(time: 1 * sec), b = ScriptedLetter(time: 1 * hour + 550 * ms)
        var w = ScriptedWorld(s, letters: [a, b], offline: [0..<(1 * hour), (1 * hour + 50 * ms)..<(2 * hour)])
        w.run(.off)
        expectEqual(w.fate(keepOlder == 1 ? 1 : 0), .lost(.apnsReplaced), "\(w.traceText)")
        #expect(isDelivered(w.fate(keepOlder == 1 ? 0 : 1)), "\(w.traceText)")
    }

    /// Outside the keep window the newest push is stored, whatever keep_older says.
    @Test func keepOlderOnlyWithinTheWindow() {
        var s = tinyScenario()
        s.apns.keepOlder = 1
        s.apns.keepWindow = span(1 * sec)
        var w = ScriptedWorld(s, letters: [ScriptedLetter(time: 1 * sec), ScriptedLetter(time: 3 * sec)],
                              offline: [0..<(1 * hour)])
        w.run(.off)
        expectEqual(w.fate(0), .lost(.apnsReplaced))
        #expect(isDelivered(w.fate(1)))
    }

    /// duplicate 1: every hand-over brings one second copy, never more. The off arm has no
    /// collapse id, so it is a duplicate; in the queue arm it collapses into the notification
    /// still shown, and is a duplicate without collapse ids.
    @Test func duplicatesInTheOffArmCollapseInTheQueueArm() {
        var s = tinyScenario()
        s.apns.duplicate = 1
        let letters = (1...5).map { ScriptedLetter(time: Int64($0) * hour) }
        var w = ScriptedWorld(s, letters: letters)
        let off = w.run(.off)
        expectEqual(off.duplicates, 5)
        expectEqual(off.delivered, 5)
        let on = w.run(.on)
        expectEqual(on.duplicates, 0)
        expectEqual(on.delivered, 5)
        s.queue.collapseId = false
        var noCollapse = ScriptedWorld(s, letters: letters)
        expectEqual(noCollapse.run(.on).duplicates, 5)
    }

    /// On a device with display off a second copy is delivered at once, as any push: in the
    /// off arm every letter is then presented twice; the queue arm collapses the copies.
    @Test func secondCopiesOnADeviceWithDisplayOff() {
        var s = tinyScenario()
        s.apns.duplicate = 1
        let letters = (1...4).map { ScriptedLetter(time: Int64($0) * hour) }
        var w = ScriptedWorld(s, letters: letters, alertsOff: true)
        let off = w.run(.off)
        expectEqual(off.delivered, 4)
        expectEqual(off.duplicates, 4)
        expectEqual(off.pushesSeenByExtensions, 0)
        expectEqual(w.run(.on).duplicates, 0)
    }

    /// A second copy travels as any push: here it is stored while the device is offline,
    /// replaces another letter's push there (that letter takes apns_replaced) and is shown at
    /// the flush as a duplicate. Its own fate never changes its letter's.
    @Test func secondCopyTravelsAsAnyPush() {
        var s = tinyScenario()
        s.apns.duplicate = 1
        s.xiva.latency = constant(0)
        s.apns.latency = constant(100 * ms)
        // A is handed over at 1.0 s (online); B is due at 1.06 s (offline: stored); A's second
        // copy is due at 1.1 s and replaces B.
        var w = ScriptedWorld(s, letters: [ScriptedLetter(time: 900 * ms), ScriptedLetter(time: 960 * ms)],
                              offline: [(1050 * ms)..<(2 * hour)])
        let ledger = w.run(.off)
        #expect(isDelivered(w.fate(0)), "\(w.traceText)")
        expectEqual(w.fate(1), .lost(.apnsReplaced), "\(w.traceText)")
        expectEqual(ledger.duplicates, 1)
        // The second copy expires in the store: its letter stays delivered, no cause counted.
        s.apns.expiration = span(1 * hour)
        var expiring = ScriptedWorld(s, letters: [ScriptedLetter(time: 900 * ms)], offline: [(1050 * ms)..<(3 * hour)])
        let l = expiring.run(.off)
        expectEqual(l.delivered, 1, "\(expiring.traceText)")
        expectEqual(l.lost, 0, "\(expiring.traceText)")
        expectEqual(l.duplicates, 0, "\(expiring.traceText)")
    }

    /// With a share of hand-overs duplicated, the off arm's duplicate rate is that share (every
    /// letter is handed over once, online, and its second copy is shown after it).
    @Test func duplicateRateMatchesTheProbability() {
        var s = Scenario(name: "dup", duration: span(2 * day), devices: 200)
        s.apns.duplicate = 0.1
        s.queue.mode = .off
        let l = Simulator.run(s).arms[0].ledger
        let se = binomialStandardError(0.1, l.letters)
        report("duplicate rate", measured: l.duplicateRate, se: se, expected: 0.1)
        #expect(within(l.duplicateRate, 0.1, se: se))
        expectEqual(l.delivered, l.letters)
    }
}
