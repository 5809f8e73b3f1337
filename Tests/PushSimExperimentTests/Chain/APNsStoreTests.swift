// APNs' offline store as a parameter on hand-built letters: K slots, which copies a full store keeps, a collapse id's own slot.
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
@testable import PushSimExperiment
import PushSimTestSupport

@Suite struct APNsStoreTests {
    private func withStore(_ store: APNsStorePolicy) -> Scenario {
        var s = tinyScenario()
        s.xiva.requestError = 0
        s.apns.store = store
        return s
    }

    private func at(_ t: Int64) -> ScriptedLetter {
        ScriptedLetter(time: t, xivaLatency: 50 * ms, apnsLatency: 100 * ms, processing: 200 * ms)
    }

    /// Five pushes sent while the device is offline (0 to 10 h), one an hour.
    private let fiveOffline = [1, 2, 3, 4, 5].map { $0 * hour }
    private let back = 10 * hour

    /// A stored push reaches the device after the reconnection, a redelivery latency (100 ms)
    /// and the processing (200 ms) later.
    private func deliveredAfterReconnection(_ t: Int64) -> LetterFate { .delivered(latency: back + 300 * ms - t) }

    /// A store of 2 keeps the two newest of five pushes; with `keep: oldest`, the two oldest.
    @Test(arguments: [APNsStorePolicy.Keep.newest, .oldest])
    func aStoreOfTwoKeepsTwoOfFive(_ keep: APNsStorePolicy.Keep) {
        var w = ScriptedWorld(withStore(APNsStorePolicy(slots: 2, keep: keep)), letters: fiveOffline.map(at), offline: [0 ..< back])
        let off = w.run(.off)
        let kept: Set<Int> = keep == .newest ? [3, 4] : [0, 1]
        #expect(w.fates() == fiveOffline.indices.map { kept.contains($0) ? deliveredAfterReconnection(fiveOffline[$0]) : .lost(.apnsReplaced) },
                "\(w.traceText)")
        expectEqual(off.count(of: .apnsReplaced), 3)
        expectEqual(off.apns.deliveredFromStorage, 2)
        expectEqual(off.apns.replacedInStorage, 3)
        #expect(off.identitiesHold)
    }

    /// The default store is the one-slot store: the newest of five is kept, by the node's code.
    @Test func theDefaultIsTheOneSlotStore() {
        #expect(APNsStorePolicy().isOneSlot && !ChainParameters(withStore(APNsStorePolicy())).storeHasSlots)
        var w = ScriptedWorld(withStore(APNsStorePolicy()), letters: fiveOffline.map(at), offline: [0 ..< back])
        _ = w.run(.off)
        #expect(w.fates() == [.lost(.apnsReplaced), .lost(.apnsReplaced), .lost(.apnsReplaced), .lost(.apnsReplaced),
                              deliveredAfterReconnection(5 * hour)])
        // A store of one slot that keeps at random runs the slots' code.
        #expect(ChainParameters(withStore(APNsStorePolicy(slots: 1, keep: .random))).storeHasSlots)
    }

    /// Per collapse id: in the queue arm every push carries its letter's collapse id, so each of
    /// the five has a slot of its own and all reach the device, with no re-request; without the
    /// queue there is no collapse id, and the app's one slot keeps the newest.
    @Test func perCollapseIdKeepsOnePerId() {
        var w = ScriptedWorld(withStore(APNsStorePolicy(per: .collapseId)), letters: fiveOffline.map(at), offline: [0 ..< back])
        let on = w.run(.on)
        expectEqual(w.fates(), fiveOffline.map(deliveredAfterReconnection), "\(w.traceText)")
        expectEqual(on.reRequests, 0)
        expectEqual(on.apns.deliveredFromStorage, 5)
        let off = w.run(.off)
        expectEqual(off.delivered, 1)
        expectEqual(off.count(of: .apnsReplaced), 4)
    }

    /// A re-sent push with the shared collapse id replaces its own copy, not its neighbours: each
    /// push's answer is lost, so XIVA sends it again a minute later, and both copies meet in the
    /// store of 2. The queue arm (collapse ids) keeps one copy of each letter; the off arm, with
    /// no collapse id, keeps the second letter's two copies and loses the first letter.
    @Test func aPushReplacesItsOwnCopyNotItsNeighbours() {
        var s = withStore(APNsStorePolicy(slots: 2))
        s.apns.answerLoss = 1
        s.xiva.retry = XivaRetry(attempts: 2, backoff: constant(1 * minute))
        var w = ScriptedWorld(s, letters: [at(1 * hour), at(2 * hour)], offline: [0 ..< back])
        let on = w.run(.on)
        expectEqual(w.fates(), [deliveredAfterReconnection(1 * hour), deliveredAfterReconnection(2 * hour)], "\(w.traceText)")
        expectEqual(on.apns.replacedInStorage, 2)
        expectEqual(on.duplicates, 0)
        expectEqual(on.reRequests, 0)
        let off = w.run(.off)
        expectEqual(w.fates(), [.lost(.apnsReplaced), deliveredAfterReconnection(2 * hour)], "\(w.traceText)")
        expectEqual(off.duplicates, 1)
    }

    /// `keep: random`: a store of 2 offered three pushes drops each with probability 1/3.
    @Test func aRandomKeepDropsEachAsLikely() {
        let n = 900
        var kept = [0, 0, 0]
        for seed in 0..<n {
            var s = withStore(APNsStorePolicy(slots: 2, keep: .random))
            s.seed = UInt64(seed)
            var w = ScriptedWorld(s, letters: [at(1 * hour), at(2 * hour), at(3 * hour)], offline: [0 ..< back])
            _ = w.run(.off)
            for i in 0..<3 where w.fate(i) != .lost(.apnsReplaced) { kept[i] += 1 }
        }
        // Binomial(n, 2/3) per letter: four standard deviations.
        let tolerance = 4 * (Double(n) * 2 / 9).squareRoot()
        for count in kept { #expect(abs(Double(count) - Double(n) * 2 / 3) < tolerance, "\(kept)") }
        expectEqual(kept.reduce(0, +), 2 * n)
    }

    /// An unlimited store keeps every push; expired ones leave it (`apns_expired`) before one enters.
    @Test func anUnlimitedStoreKeepsAllButTheExpired() {
        var s = withStore(APNsStorePolicy(slots: nil))
        s.apns.expiration = span(150 * minute)
        var w = ScriptedWorld(s, letters: fiveOffline.map(at), offline: [0 ..< back])
        _ = w.run(.off)
        // Expiry 2.5 h after reaching APNs: the first two have expired at the reconnection (and
        // the first already when the fourth entered); the last three have not.
        #expect(w.fates() == [.lost(.apnsExpired), .lost(.apnsExpired), .lost(.apnsExpired), .lost(.apnsExpired), .lost(.apnsExpired)]
                    .enumerated().map { i, lost in 10 * hour < fiveOffline[i] + 50 * ms + 150 * minute ? deliveredAfterReconnection(fiveOffline[i]) : lost },
                "\(w.traceText)")
    }

    /// The keys: read, printed back, and each mistake a located error.
    @Test func theKeysAreReadPrintedBackAndCheckedWhereWritten() throws {
        let sc = try ScenarioLoader.parse(text: minimalScenario + "apns:\n  store: {slots: unlimited, keep: random, per: collapse_id}\n", file: "t.yaml")
        expectEqual(sc.apns.store, APNsStorePolicy(slots: nil, keep: .random, per: .collapseId))
        try expectEqual(ScenarioLoader.parse(text: ScenarioPrinter.yaml(sc), file: "t.yaml").apns.store, sc.apns.store)
        #expect(!ScenarioPrinter.yaml(try ScenarioLoader.parse(text: minimalScenario, file: "t.yaml")).contains("store"))
        try expectEqual(ScenarioLoader.parse(text: minimalScenario, file: "t.yaml", overrides: ["apns.store.slots=3"]).apns.store.slots, 3)
        func failure(_ store: String, _ extra: String = "") -> (String, String) {
            let error = scenarioError(minimalScenario + "apns:\n" + extra + "  store: " + store + "\n")
            return (place(error), error?.message ?? "no error")
        }
        let (slotsPlace, slots) = failure("{slots: 0}")
        #expect(slotsPlace == "t.yaml:5:18" && slots.contains("`apns.store.slots`: expected an integer in 1…1000000, found `0`"))
        #expect(failure("{slots: 1000001}").1.contains("`apns.store.slots`"))
        let (keepPlace, keep) = failure("{keep: newst}")
        #expect(keepPlace == "t.yaml:5:17" && keep.contains("did you mean `newest`?"))
        #expect(failure("{per: collapse}").1.contains("`apns.store.per`: expected one of app, collapse_id"))
        #expect(failure("{slot: 2}").1.contains("did you mean `slots`?"))
        let (olderPlace, older) = failure("{slots: 2}", "  keep_older: 0.5\n")
        #expect(olderPlace == "t.yaml:5:3" && older.contains("`apns.keep_older`: the older push kept"))
        expectEqual(failure("{slots: 1, keep: newest, per: app}", "  keep_older: 0.5\n").1, "no error")
    }
}
