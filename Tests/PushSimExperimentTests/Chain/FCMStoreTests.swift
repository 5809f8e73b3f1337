// FCM (channel: fcm) on hand-built cases: the store's limits, TTL, inactivity, Doze, the re-sync, the outcomes.
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
@testable import PushSimExperiment
import PushSimTestSupport

@Suite struct FCMStoreTests {
    private func delivered(_ fate: LetterFate) -> Bool {
        if case .delivered = fate { return true } else { return false }
    }

    /// Non-collapsible messages: all of them wait for an offline device and come when it is
    /// back (held offline), unlike APNs' single slot; one sent online goes at once.
    @Test func everyMessageWaitsForTheDevice() {
        let letters = [ScriptedLetter(time: 1 * hour)] + (0..<5).map { ScriptedLetter(time: 2 * hour + Int64($0) * minute) }
        var w = ScriptedWorld(tinyScenario(on: .fcm), letters: letters, offline: [90 * minute..<3 * hour])
        let off = w.run(.off)
        #expect(w.fates().allSatisfy(delivered), "\(w.traceText)")
        expectEqual(off.fcm.accepted, 6)
        expectEqual(off.fcm.delivered, 6)
        expectEqual(off.fcm.deliveredNoDelay, 1)
        expectEqual(off.fcm.delayedDeviceOffline, 5)
        var apns = ScriptedWorld(tinyScenario(), letters: letters, offline: [90 * minute..<3 * hour])
        expectEqual(apns.run(.off).count(of: .apnsReplaced), 4)
    }

    /// At 100 stored, all are discarded and the app is told at its next connection: a full
    /// re-sync summarizes the 100 letters, in one summary; the 101st is stored and delivered.
    @Test func theHundredAndFirstDiscardsAllAndTheAppResyncs() {
        let letters = (0...100).map { ScriptedLetter(time: 2 * hour + Int64($0) * sec) }
        var w = ScriptedWorld(tinyScenario(on: .fcm), letters: letters, offline: [1 * hour..<5 * hour])
        let off = w.run(.off)
        #expect((0..<100).allSatisfy { w.fate($0) == .summarized }, "\(w.traceText)")
        #expect(delivered(w.fate(100)))
        expectEqual(off.fcm.droppedTooManyPending, 100)
        expectEqual(off.fcm.delayedDeviceOffline, 1)
        expectEqual(off.fcm.resyncs, 1)
        expectEqual(off.summaries, 1)
        expectEqual(off.fcm.accepted, 101)
    }

    /// If the device is not back by the end, the re-sync is still owed: the dropped letters are
    /// unfinished, and the message stored is pending.
    @Test func aResyncNotYetMadeIsUnfinished() {
        let letters = (0...100).map { ScriptedLetter(time: 2 * hour + Int64($0) * sec) }
        var w = ScriptedWorld(tinyScenario(on: .fcm), letters: letters, offline: [1 * hour..<3 * day])
        let off = w.run(.off)
        expectEqual(off.count(of: .unfinished), 101)
        expectEqual(off.fcm.pending, 1)
        expectEqual(off.fcm.resyncs, 0)
    }

    /// With one collapse key FCM keeps one message per device, as APNs does: the same fates.
    @Test func oneCollapseKeyIsAPNsOneSlot() {
        let letters = (0..<30).map { ScriptedLetter(time: Int64($0) * 47 * minute) }
        let offline = [2 * hour..<5 * hour, 9 * hour..<10 * hour, 13 * hour..<20 * hour]
        var s = tinyScenario(on: .fcm) { $0.fcm.collapseKeys = 1; $0.fcm.ttl = span(1 * day) }
        var w = ScriptedWorld(s, letters: letters, offline: offline)
        w.world.draws.fcmKeys = Array(repeating: 0, count: letters.count)
        var apns = ScriptedWorld(tinyScenario(), letters: letters, offline: offline)
        for arm in Arm.allCases {
            let f = w.run(arm), a = apns.run(arm)
            expectEqual(w.fates(), apns.fates())
            #expect(f.fcm.collapsed == a.count(of: .apnsReplaced) || arm == .on)
        }
        s.fcm.collapseKeys = 0
        var plain = ScriptedWorld(s, letters: letters, offline: offline)
        expectEqual(plain.run(.off).lost, 0)
    }

    /// A fifth collapse key drops one of the five messages, each as likely (own stream).
    @Test func aFifthKeyDropsOneOfFiveAtRandom() {
        let letters = (0..<5).map { ScriptedLetter(time: 2 * hour + Int64($0) * minute) }
        var dropped = [Int](repeating: 0, count: 5)
        let n = 1_000
        for seed in 0..<n {
            var w = ScriptedWorld(tinyScenario(on: .fcm) { $0.fcm.collapseKeys = 8; $0.seed = UInt64(seed) }, letters: letters, offline: [1 * hour..<3 * hour])
            w.world.draws.fcmKeys = [0, 1, 2, 3, 4]
            let off = w.run(.off)
            expectEqual(off.fcm.evicted, 1)
            expectEqual(off.fcm.delivered, 4)
            expectEqual(off.count(of: .apnsReplaced), 1)
            for i in 0..<5 where w.fate(i) == .lost(.apnsReplaced) { dropped[i] += 1 }
        }
        for count in dropped { #expect(within(Double(count) / Double(n), 0.2, se: binomialStandardError(0.2, n)), "\(dropped)") }
    }

    /// The same key replaces the stored message (collapsed); distinct keys up to four stay.
    @Test func theSameKeyCollapses() {
        let letters = (0..<4).map { ScriptedLetter(time: 2 * hour + Int64($0) * minute) }
        var w = ScriptedWorld(tinyScenario(on: .fcm) { $0.fcm.collapseKeys = 3 }, letters: letters, offline: [1 * hour..<3 * hour])
        w.world.draws.fcmKeys = [0, 1, 0, 2]
        let off = w.run(.off)
        expectEqual(w.fate(0), .lost(.apnsReplaced))
        expectEqual(off.fcm.collapsed, 1)
        expectEqual(off.fcm.delivered, 3)
    }

    /// The time to live: a message stored past it expires; TTL 0 is now or never.
    @Test func theTimeToLiveExpires() {
        var w = ScriptedWorld(tinyScenario(on: .fcm) { $0.fcm.ttl = span(1 * hour) }, letters: [ScriptedLetter(time: 2 * hour)],
                              offline: [1 * hour..<4 * hour])
        let off = w.run(.off)
        expectEqual(w.fate(0), .lost(.apnsExpired))
        expectEqual(off.fcm.expired, 1)
        var never = ScriptedWorld(tinyScenario(on: .fcm) { $0.fcm.ttl = .zero }, letters: [ScriptedLetter(time: 2 * hour)],
                                  offline: [1 * hour..<(2 * hour + 1 * sec)])
        never.run(.off)
        expectEqual(never.fate(0), .lost(.apnsExpired))
    }

    /// A device offline 28 days or more is inactive: FCM drops the message instead of storing
    /// it, and the app re-syncs when it connects again.
    @Test func anInactiveDeviceGetsARestyncInstead() {
        var w = ScriptedWorld(tinyScenario(on: .fcm) { $0.duration = span(40 * day); $0.drain = span(10 * day) },
                              letters: [ScriptedLetter(time: 10 * day), ScriptedLetter(time: 30 * day)],
                              offline: [1 * day..<31 * day])
        let off = w.run(.off)
        #expect(delivered(w.fate(0)) && w.fate(1) == .summarized, "\(w.traceText)")
        expectEqual(off.fcm.droppedDeviceInactive, 1)
        expectEqual(off.fcm.delayedDeviceOffline, 1)
        expectEqual(off.fcm.resyncs, 1)
    }

    /// Doze holds normal-priority messages until the window ends (delayed by doze); with high
    /// priority the doze windows are not the channel's business.
    @Test func dozeHoldsNormalPriorityOnly() {
        let doze = [OfflineWindow(start: span(1 * hour), end: span(3 * hour))]
        let normal = ScriptedWorld(tinyScenario(on: .fcm) { $0.device.doze = doze }, letters: [])
        #expect(normal.world.parameters.sharedWindows == [1 * hour..<3 * hour] && normal.world.parameters.mechanismWindows.doze == [1 * hour..<3 * hour])
        let high = ScriptedWorld(tinyScenario(on: .fcm) { $0.device.doze = doze; $0.fcm.priority = .high }, letters: [])
        #expect(high.world.parameters.sharedWindows.isEmpty && high.world.parameters.mechanismWindows.doze.isEmpty)
        var w = ScriptedWorld(tinyScenario(on: .fcm) { $0.device.doze = doze }, letters: [ScriptedLetter(time: 2 * hour, xivaLatency: 0, apnsLatency: 0, processing: 0)],
                              offline: normal.world.parameters.sharedWindows)
        let off = w.run(.off)
        #expect(off.fcm.delayedDeviceDoze == 1 && w.firstDelivery(0) >= 3 * hour)
    }

    /// The outcomes add up to the messages accepted, and the delays to the delivered, in a run.
    @Test func outcomesAddUp() throws {
        var s = try ScenarioLoader.parse(text: "name: t\nduration: 3d\ndevices: 30\nchannel: fcm\nfcm: {collapse_keys: 6, ttl: 2h}\nmail: {rate: 100/d}\nconnectivity: {online: exponential(3h), offline: exponential(2h)}\n",
                                         file: "t.yaml")
        s.device.doze = [OfflineWindow(start: span(23 * hour), end: span(31 * hour), every: span(1 * day))]
        let result = Simulator.run(s)
        // Off arm, no loss: every letter's one message was accepted and ended in one outcome.
        expectEqual(result.arms[0].ledger.fcm.accepted, result.arms[0].ledger.letters)
        for arm in result.arms {
            let f = arm.ledger.fcm
            expectEqual(f.delivered, f.deliveredNoDelay + f.delayedDeviceOffline + f.delayedDeviceDoze)
            #expect(f.collapsed > 0 && f.evicted > 0 && f.expired > 0 && f.delayedDeviceDoze > 0, "\(f)")
            #expect(arm.ledger.identitiesHold)
        }
    }
}
