// The ledger: one record per letter, identities, merging.
import Testing
@testable import PushSimCore
import PushSimTestSupport

@Suite struct LedgerTests {
    func randomLedger(_ seed: UInt64) -> Ledger {
        var rng = RandomStream(seed: seed)
        var l = Ledger()
        for _ in 0..<1_000 {
            switch rng.next() % 3 {
            case 0: l.record(.delivered(latency: Int64(rng.next() % 10_000_000)))
            case 1: l.record(.summarized)
            default: l.record(.lost(LossCause.allCases[Int(rng.next() % UInt64(LossCause.allCases.count))]))
            }
        }
        l.duplicates = Int(rng.next() % 100); l.events = Int(rng.next() % 10_000)
        l.reRequests = Int(rng.next() % 100); l.resent = Int(rng.next() % 100)
        l.summaries = Int(rng.next() % 100); l.extensionTimeouts = Int(rng.next() % 100)
        l.pushesSeenByExtensions = Int(rng.next() % 100); l.gapsDetected = Int(rng.next() % 100)
        l.missedInGaps = Int(rng.next() % 100); l.lettersOnVisibleDevices = Int(rng.next() % 100)
        l.positionsKnownToTelemetry = Int(rng.next() % 100)
        return l
    }

    @Test func recordingKeepsTheIdentities() {
        let l = randomLedger(1)
        expectEqual(l.letters, 1_000)
        #expect(l.identitiesHold)
        expectEqual(LossCause.allCases.map(l.count(of:)).reduce(0, +), l.lost)
        expectEqual(Int(l.latency.total), l.delivered)
    }

    @Test func brokenLedgersFailTheIdentities() {
        var l = randomLedger(2)
        l.lost += 1
        #expect(!l.identitiesHold)
        l = randomLedger(2)
        l.causes[LossCause.unfinished.rawValue] += 1
        #expect(!l.identitiesHold)
    }

    /// Merge adds every field: the merged ledger is the ledger of all records.
    @Test func mergeSumsEveryField() {
        let a = randomLedger(3), b = randomLedger(4)
        var m = a
        m.merge(b)
        expectEqual(m.letters, a.letters + b.letters)
        expectEqual(m.delivered, a.delivered + b.delivered)
        expectEqual(m.summarized, a.summarized + b.summarized)
        expectEqual(m.lost, a.lost + b.lost)
        expectEqual(m.causes, zip(a.causes, b.causes).map { $0 + $1 })
        expectEqual(m.duplicates, a.duplicates + b.duplicates)
        expectEqual(m.events, a.events + b.events)
        expectEqual(m.reRequests, a.reRequests + b.reRequests)
        expectEqual(m.resent, a.resent + b.resent)
        expectEqual(m.summaries, a.summaries + b.summaries)
        expectEqual(m.extensionTimeouts, a.extensionTimeouts + b.extensionTimeouts)
        expectEqual(m.pushesSeenByExtensions, a.pushesSeenByExtensions + b.pushesSeenByExtensions)
        expectEqual(m.gapsDetected, a.gapsDetected + b.gapsDetected)
        expectEqual(m.missedInGaps, a.missedInGaps + b.missedInGaps)
        expectEqual(m.lettersOnVisibleDevices, a.lettersOnVisibleDevices + b.lettersOnVisibleDevices)
        expectEqual(m.positionsKnownToTelemetry, a.positionsKnownToTelemetry + b.positionsKnownToTelemetry)
        var h = a.latency
        h.merge(b.latency)
        expectEqual(m.latency, h)
        #expect(m.identitiesHold)
        // Merging is order-free and the empty ledger is neutral.
        var n = b
        n.merge(a)
        expectEqual(n, m)
        var e = Ledger()
        e.merge(a)
        expectEqual(e, a)
    }

    /// Every declared count merges by its rule, by construction: a counter added to a group (or
    /// to the core list) is covered here without a line of its own; `partialCarriesEveryLedgerField`
    /// checks that every field is declared.
    @Test func mergeCombinesEveryDeclaredCountByItsRule() {
        let counts = Ledger.everyCount
        expectEqual(Set(counts.map(\.key)).count, counts.count, "two counters share a partial-result key")
        var a = Ledger(), b = Ledger()
        for (n, count) in counts.enumerated() { a[keyPath: count.path] = n + 1; b[keyPath: count.path] = 3 * n + 2 }
        var m = a
        m.merge(b)
        for (n, count) in counts.enumerated() {
            let expected = count.merge == .sum ? (n + 1) + (3 * n + 2) : max(n + 1, 3 * n + 2)
            expectEqual(m[keyPath: count.path], expected, "\(count.key) does not merge by its rule")
        }
        // A group whose counter set is empty is skipped, and merging into an empty one copies.
        var e = Ledger()
        e.merge(a)
        for count in counts { expectEqual(e[keyPath: count.path], a[keyPath: count.path], "\(count.key)") }
    }

    /// The merge above goes by offset (the coupled path merges once per device and arm): every
    /// group counter has its offset in `MechanismCounts`, so the key-path fallback is never taken.
    @Test func everyGroupCounterMergesByOffset() {
        #expect(MechanismCounts.mergePlan != nil)
        expectEqual(MechanismCounts.mergePlan?.count, Ledger.ownStorageGroups.count)
        for group in Ledger.groups {
            for counter in group.counters {
                #expect(MemoryLayout<MechanismCounts>.offset(of: counter.pathInCounts) != nil, "\(counter.key) has no offset")
            }
        }
    }

    @Test func ratesAreSharesOfLetters() {
        var l = Ledger()
        expectEqual(l.lossRate, 0)
        expectEqual(l.duplicateRate, 0)
        l.record(.lost(.networkLoss)); l.record(.delivered(latency: 5)); l.record(.summarized); l.record(.delivered(latency: 1))
        l.duplicates = 1
        expectEqual(l.lossRate, 0.25)
        expectEqual(l.duplicateRate, 0.25)
    }

    /// An undeliverable letter stays outside `letters` (docs/model.md §9): the identities still hold.
    @Test func undeliverableLettersAreOutsideTheLetters() {
        var l = Ledger()
        l.record(.delivered(latency: 5)); l.record(.undeliverable); l.record(.lost(.throttled))
        #expect(l.letters == 2 && l.uninstall.undeliverable == 1 && l.lost == 1 && l.identitiesHold)
        var m = Ledger()
        m.merge(l); m.merge(l)
        expectEqual(m.uninstall.undeliverable, 2)
        expectEqual(m.letters, 4)
        expectEqual(m.count(of: .throttled), 2)
    }

    @Test func causesOnlyTheQueueCanGive() {
        expectEqual(LossCause.allCases.filter(\.isQueueOnly), [.alertsOff, .undetectedGap, .retentionExpired, .extensionTimeout, .memoryKill])
        #expect(LossCause.allCases.map(\.key) == ["xiva_drop", "xiva_outage", "network_loss", "apns_replaced", "apns_expired",
                                                  "payload_too_large", "throttled", "server_error", "alerts_off", "undetected_gap", "retention_expired",
                                                  "extension_timeout", "unfinished", "no_store", "callkit_unreported",
                                                  "rejected", "connection_discard", "memory_kill", "apns_outage",
                                                  "too_many_token_updates", "expired_provider_token"])
        // Appended at the end: the raw values (indices of `Ledger.causes`) of the others do not move.
        #expect(LossCause.callKitUnreported.rawValue == 14 && LossCause.rejected.rawValue == 15
                && LossCause.connectionDiscard.rawValue == 16)
    }

    /// The binary interface's counters (docs/model.md §11) add up in a merge and take part in equality.
    @Test func binaryCountersMergeAndCompare() {
        var a = Ledger(), b = Ledger()
        a.binary.written = 7; a.binary.errors = 1; a.binary.discarded = 3; a.binary.rewritten = 2
        b.binary.written = 5; b.binary.errors = 2; b.binary.discarded = 4; b.binary.rewritten = 1
        a.record(.lost(.rejected)); b.record(.lost(.connectionDiscard))
        var m = a
        m.merge(b)
        expectEqual(m.binary.written, 12)
        expectEqual(m.binary.errors, 3)
        expectEqual(m.binary.discarded, 7)
        expectEqual(m.binary.rewritten, 3)
        #expect(m.count(of: .rejected) == 1 && m.count(of: .connectionDiscard) == 1 && m.identitiesHold)
        var c = a
        c.binary.rewritten += 1
        #expect(c != a)
    }
}
