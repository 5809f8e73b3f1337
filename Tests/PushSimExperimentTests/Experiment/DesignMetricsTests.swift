// The harm and cost set of every design: known answers from a ledger, the n/a of what a design cannot have, and a world where every letter is told twice.
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
@testable import PushSimExperiment
import PushSimTestSupport

@Suite struct DesignMetricsTests {
    /// 1 000 letters, 5 duplicates, 1 010 alert pushes; a background sync's 1 000 silent
    /// pushes, 600 wake-ups, 700 fetches and 200 letters synced then shown by their own push.
    static func ledger() -> Ledger {
        var l = Ledger()
        l.letters = 1000
        l.duplicates = 5
        l.apns.sent = 1010
        l.reRequests = 40
        l.summaryThenPush.letters = 7
        l.catchUp.fetches = 300
        l.backgroundSync.pushes = 1000
        l.backgroundSync.wakes = 600
        l.backgroundSync.fetches = 700
        l.backgroundSync.shownTwice = 200
        return l
    }

    @Test func backgroundSyncCountsItsSyncsAndHasNoReRequests() {
        let (values, na) = DesignMetrics.measure(ArmResult(.on, ledger: Self.ledger(), recovery: .backgroundSync))
        expectEqual(values["shown_twice_rate"], 0.205)         // (5 + 200) / 1 000
        #expect(values["duplicates_rate"] == 0.005 && values["sync_then_push_rate"] == 0.2)
        #expect(values["silent_pushes_per_letter"] == 1 && values["wakeups_per_letter"] == 0.6)
        #expect(values["fetches_per_letter"] == 0.7 && values["alert_pushes_per_letter"] == 1.01)
        #expect(values["xiva_requests_per_letter"] == nil && na["xiva_requests_per_letter"]?.contains("no re-request") == true)
        #expect(values["summary_then_push_rate"] == nil && na["summary_then_push_rate"] != nil)
    }

    @Test func theQueueHasReRequestsAndNoFetches() {
        let (values, na) = DesignMetrics.measure(ArmResult(.on, ledger: Self.ledger(), recovery: .queue))
        expectEqual(values["shown_twice_rate"], 0.012)         // (5 + 7) / 1 000
        #expect(values["summary_then_push_rate"] == 0.007 && values["xiva_requests_per_letter"] == 0.04)
        for name in ["sync_then_push_rate", "silent_pushes_per_letter", "fetches_per_letter", "wakeups_per_letter"] {
            #expect(values[name] == nil && !(na[name] ?? "").isEmpty, "\(name)")
        }
    }

    /// The main app's work counts in the push queue's costs: its 60 re-requests beside the
    /// extension's 40, and the background pushes that woke it (queue.background_pushes) as
    /// silent pushes and wake-ups.
    @Test func theQueuesAppCountsItsRequestsAndTheBackgroundPushesThatWokeIt() {
        var l = Self.ledger()
        l.appHook.reRequests = 60
        l.appHook.backgroundPushes = 900
        l.appHook.backgroundWakes = 450
        let (values, na) = DesignMetrics.measure(ArmResult(.on, ledger: l, recovery: .queue))
        expectEqual(values["xiva_requests_per_letter"], 0.1)   // (40 + 60) / 1 000
        #expect(values["silent_pushes_per_letter"] == 0.9 && values["wakeups_per_letter"] == 0.45)
        #expect(values["fetches_per_letter"] == nil && na["fetches_per_letter"] != nil)
        // Without background pushes the queue's silent pushes and wake-ups are n/a, with the reason.
        l.appHook.backgroundPushes = 0
        l.appHook.backgroundWakes = 0
        let (without, reasons) = DesignMetrics.measure(ArmResult(.on, ledger: l, recovery: .queue))
        #expect(without["silent_pushes_per_letter"] == nil && without["wakeups_per_letter"] == nil)
        expectEqual(reasons["silent_pushes_per_letter"], "the push queue sends no silent push")
    }

    @Test func theCatchUpFetchesAndTheOffArmRecoversNothing() {
        let (catchUp, _) = DesignMetrics.measure(ArmResult(.on, ledger: Self.ledger(), recovery: .catchUp))
        #expect(catchUp["fetches_per_letter"] == 0.3 && catchUp["summary_then_push_rate"] == 0.007)
        let (off, na) = DesignMetrics.measure(ArmResult(.off, ledger: Self.ledger(), recovery: RecoveryDesign.none))
        #expect(off["shown_twice_rate"] == 0.005 && off["alert_pushes_per_letter"] == 1.01)
        #expect(Set(na.keys) == ["summary_then_push_rate", "sync_then_push_rate", "xiva_requests_per_letter",
                                 "silent_pushes_per_letter", "fetches_per_letter", "wakeups_per_letter"])
        #expect(na.values.allSatisfy { $0.contains("the off arm recovers nothing") })
        // Every figure is a value or a reason, never both and never neither.
        for arm in [ArmResult(.on, ledger: Self.ledger(), recovery: .queue), ArmResult(.off, ledger: Ledger(), recovery: RecoveryDesign.none)] {
            let (v, n) = DesignMetrics.measure(arm)
            #expect(Set(v.keys).union(n.keys) == Set(DesignMetrics.all.map(\.name)) && Set(v.keys).isDisjoint(with: n.keys))
        }
    }

    /// A result read back from parts knows no design: its ledger says which.
    @Test func theDesignIsReadFromTheLedgerWhenUnknown() {
        expectEqual(DesignMetrics.design(of: ArmResult(.on, ledger: Self.ledger())), .backgroundSync)
        var catchUp = Ledger(); catchUp.catchUp.fetches = 1
        expectEqual(DesignMetrics.design(of: ArmResult(.on, ledger: catchUp)), .catchUp)
        expectEqual(DesignMetrics.design(of: ArmResult(.on, ledger: Ledger())), .queue)
        expectEqual(DesignMetrics.design(of: ArmResult(.off, ledger: Self.ledger())), RecoveryDesign.none)
    }

    /// Every push takes 2 h through APNs and the user opens the app every hour, always online:
    /// each letter is fetched and summarized by the first opening after it, before its push
    /// arrives, and then its push shows it. So every letter is told twice, and delivered.
    @Test func aCatchUpBeforeEveryPushTellsEveryLetterTwice() throws {
        let text = """
        name: told-twice
        seed: 7
        duration: 2d
        drain: 1d
        devices: 6
        mail:
          rate: 20/d
        connectivity:
          online: 1000d
          offline: 1s
        apns:
          latency: 2h
          expiration: 3d
        device:
          app_open: 1h
        queue:
          mode: both
        recovery: catch_up
        """
        let result = Simulator.run(try ScenarioLoader.parse(text: text, file: "t.yaml"), jobs: 1)
        let on = try #require(result.arms.first { $0.arm == .on })
        let l = on.ledger
        #expect(l.letters > 100)
        expectEqual(l.delivered, l.letters, "\(l.summaryThenPush.letters) of \(l.letters)")
        expectEqual(l.summaryThenPush.letters, l.letters, "\(l.summaryThenPush.letters) of \(l.letters)")
        let (values, _) = DesignMetrics.measure(on)
        expectEqual(values["summary_then_push_rate"], 1)
        expectEqual(values["shown_twice_rate"], 1 + Double(l.duplicates) / Double(l.letters))
        // The off arm shows no summary: nothing of it is told twice that way.
        let off = try #require(result.arms.first { $0.arm == .off })
        expectEqual(off.ledger.summaryThenPush.letters, 0)
    }
}
