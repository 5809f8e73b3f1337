// Offline windows are half-open, [start, end): a push due exactly at a boundary must see the
// state of that interval, whatever order the events were scheduled in.
import Testing
@testable import PushSimCore
import PushSimTestSupport

@Suite struct ConnectivityBoundaryTests {
    /// The flip at a window's end is scheduled only when the window starts, so a push scheduled
    /// earlier and due exactly at the end comes out of the event list first; it must still find
    /// the device online, since the window is over at `end`.
    @Test
    func pushDueExactlyAtWindowEndFindsTheDeviceOnline() {
        var s = tinyScenario()
        s.apns.expiration = .zero
        // Letter at 30 min: at APNs 30 min + 50 ms, due at exactly 2h, when [1h, 2h) is over.
        var w = ScriptedWorld(s, letters: [ScriptedLetter(time: 30 * minute, apnsLatency: 90 * minute - 50 * ms)],
                              offline: [1 * hour..<2 * hour])
        #expect(w.world.draws.timeline.isOnline(at: 2 * hour))
        w.run(.off)
        expectEqual(w.fate(0), .delivered(latency: 90 * minute + 200 * ms), "\(w.traceText)")
    }

    /// The same at a window's start, for the second window: its flip is scheduled at the end of
    /// the first, after the push was already due-scheduled; the push must find the device offline.
    @Test
    func pushDueExactlyAtWindowStartFindsTheDeviceOffline() {
        var s = tinyScenario()
        s.apns.expiration = .zero
        var w = ScriptedWorld(s, letters: [ScriptedLetter(time: 30 * minute, apnsLatency: 150 * minute - 50 * ms)],
                              offline: [1 * hour..<2 * hour, 3 * hour..<4 * hour])
        #expect(!w.world.draws.timeline.isOnline(at: 3 * hour))
        w.run(.off)
        expectEqual(w.fate(0), .lost(.apnsExpired), "\(w.traceText)")
    }

    /// The first window's start: its flip is scheduled at time 0, before any push.
    @Test func pushDueExactlyAtTheFirstWindowStartIsStored() {
        var s = tinyScenario()
        s.apns.expiration = .zero
        var w = ScriptedWorld(s, letters: [ScriptedLetter(time: 30 * minute, apnsLatency: 30 * minute - 50 * ms)],
                              offline: [1 * hour..<2 * hour])
        w.run(.off)
        expectEqual(w.fate(0), .lost(.apnsExpired))
    }
}
