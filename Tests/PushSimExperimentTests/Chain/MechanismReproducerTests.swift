// docs/model.md §2, §10 and §14 on whole runs of one phone replaying a trace: the console category of a push Low Power Mode holds, and letters_in after an uninstall.
import Testing
@testable import PushSimCore
@testable import PushSimExperiment
import PushSimTestSupport

@Suite struct MechanismReproducerTests {
    /// One phone, always online, letters replayed at `times`, XIVA at once, APNs in 1 s, the queue off.
    private func phone(_ times: [Int64], duration: Int64 = 1 * hour) -> Scenario {
        var s = Scenario(name: "reproducer", duration: span(duration), devices: 1)
        s.mail.trace = MailTrace(path: "t.csv", offsets: [0, times.count], times: times)
        s.xiva.latency = constant(0)
        s.apns.latency = constant(1 * sec)
        s.queue.mode = .off
        return s
    }

    private func lowPower(_ windows: [OfflineWindow]) -> LowPowerMode {
        LowPowerMode(share: 1, windows: windows, releaseOrder: .held)
    }

    private let window = OfflineWindow(start: span(100 * sec), end: span(300 * sec), every: span(day))

    /// Low Power Mode 100 s–300 s, letters at 0, 150, 160 and 170 s: the first is Delivered, the
    /// three held are Delivered (From Storage) when the window ends.
    @Test func aPushLowPowerHeldIsDeliveredFromStorage() throws {
        var s = phone([0, 150 * sec, 160 * sec, 170 * sec])
        s.device.lowPower = lowPower([window])
        let l = try #require(Simulator.run(s).arms.first).ledger
        expectEqual(l.apns.sent, 4)
        expectEqual(l.apns.delivered, 1)
        expectEqual(l.apns.deliveredFromStorage, 3)
        expectEqual(l.apns.underWay, 0)
        expectEqual(l.lowPower.held, 3)
        expectEqual(l.lowPower.released, 3)
        expectEqual(l.delivered, 4)
    }

    /// Low Power Mode all day: the four pushes are still held at the run's end, Stored – Power
    /// Considerations, and their letters `unfinished`.
    @Test func aPushHeldToTheEndIsStoredForPowerConsiderations() throws {
        var s = phone([0, 150 * sec, 160 * sec, 170 * sec])
        s.device.lowPower = lowPower([])
        let l = try #require(Simulator.run(s).arms.first).ledger
        expectEqual(l.apns.sent, 4)
        expectEqual(l.apns.storedPowerConsiderations, 4)
        expectEqual(l.apns.underWay, 0)
        expectEqual(l.count(of: .unfinished), 4)
        expectEqual(l.lowPower.released, 0)
    }

    /// Offline 50 s–120 s: the push of 60 s is stored, flushed at 120 s into the Low Power
    /// window and held again. Held to the end it is Stored – Power Considerations (one Stored –
    /// Device Offline data point before); released at 300 s, Delivered (From Storage).
    @Test func aPushFlushedFromTheStoreAndHeldAgain() throws {
        for (windows, atTheEnd) in [([window], \APNsConsoleCounters.deliveredFromStorage), ([], \.storedPowerConsiderations)] {
            var s = phone([60 * sec])
            s.connectivity.windows = [OfflineWindow(start: span(50 * sec), end: span(120 * sec))]
            s.device.lowPower = lowPower(windows)
            let l = try #require(Simulator.run(s).arms.first).ledger
            #expect(l.apns.sent == 1 && l.apns[keyPath: atTheEnd] == 1 && l.apns.everStoredDeviceOffline == 1)
            expectEqual(l.apns.storedDeviceOffline, 0)
            expectEqual(l.apns.underWay, 0)
            expectEqual(l.lowPower.held, 1)
        }
    }

    /// A letter a minute for an hour, two uninstalls an hour, seed 3: every letter reaches XIVA,
    /// those after the uninstall too, so `letters_in` is 60 in both arms; the ledger's letters
    /// are those before it, and the rest are undeliverable.
    @Test func lettersInCountsEveryLetterAfterAnUninstallToo() {
        var s = phone((0..<60).map { Int64($0) * minute })
        s.seed = 3
        s.queue.mode = .both
        s.device.uninstallRatePerMicrosecond = 2 / Double(hour)
        for arm in Simulator.run(s).arms {
            let l = arm.ledger
            expectEqual(l.load.total(.lettersIn), 60, "\(arm.arm)")
            #expect(l.uninstall.undeliverable > 0 && l.letters + l.uninstall.undeliverable == 60, "\(arm.arm)")
            // The numbered letters' first sends, and the push answered 410.
            expectEqual(l.load.total(.pushesSent), l.apns.sent, "\(arm.arm)")
        }
    }
}
