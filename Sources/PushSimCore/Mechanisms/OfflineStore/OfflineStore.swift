// APNs' offline store of more than one push (apns.store): its slots, what a full store drops, and a push replacing its own copy.

/// The copies APNs stores for an offline device in one arm when `apns.store` is not the
/// one-slot store (docs/model.md §5), in the order they entered. (The one-slot store is
/// ``APNsStore``, on the node.)
struct OfflineStoreSlots {
    var stored: [CopyIndex] = []

    mutating func reset() { stored.removeAll(keepingCapacity: true) }
}

extension DeviceWorld {
    /// A copy due at an offline device enters a store of `apns.store` (docs/model.md §5, APNs'
    /// offline store as a parameter). Copies past their expiry leave first (`apns_expired`).
    /// A push with a collapse id (the queue arm's, with `queue.collapse_id`) replaces a stored
    /// copy of its own letter, and no other. Otherwise, with `per: collapse_id` it takes a slot
    /// of its own; without an id, or with `per: app`, it takes one of the app's `slots`, and when
    /// they are full `keep` decides which copy is discarded (`apns_replaced`).
    @inline(never) mutating func storeInSlots(copy c: CopyIndex, at now: Int64) {
        let copy = copies[c]
        if now >= copy.expiry {
            copyLost(c, .apnsExpired)
            return
        }
        dropExpiredStoredCopies(at: now)
        let hasCollapseId = armState.checksGaps && parameters.collapseId
        if hasCollapseId, let own = mechanisms.offlineStore.stored.firstIndex(where: { copies[$0].letter.offset == copy.letter.offset }) {
            copyLost(mechanisms.offlineStore.stored.remove(at: own), .apnsReplaced)
        } else if !(hasCollapseId && parameters.storePerCollapseId) && mechanisms.offlineStore.stored.count >= parameters.storeSlots {
            let full = mechanisms.offlineStore.stored.count
            // The candidates: the stored copies in the order they entered, then the newcomer.
            var leaving = 0
            switch parameters.storeKeep {
            case .newest: leaving = 0
            case .oldest: leaving = full
            case .random: leaving = min(full, Int(armState.streams.mechanismStreams.store.nextUnit() * Double(full + 1)))
            }
            if leaving == full {
                copyLost(c, .apnsReplaced)
                note(.apns, copy.letter.offset, .olderStoredPushKept)
                return
            }
            copyLost(mechanisms.offlineStore.stored.remove(at: leaving), .apnsReplaced)
        }
        mechanisms.offlineStore.stored.append(c)
        copies[c].console.storedOffline()
        note(.apns, copy.letter.offset, .storedForOfflineDevice)
    }

    /// Stored copies past their expiry leave the store, in the order they entered.
    private mutating func dropExpiredStoredCopies(at now: Int64) {
        guard mechanisms.offlineStore.stored.contains(where: { now >= copies[$0].expiry }) else { return }
        var kept: [CopyIndex] = []
        for c in mechanisms.offlineStore.stored {
            if now >= copies[c].expiry { copyLost(c, .apnsExpired) } else { kept.append(c) }
        }
        mechanisms.offlineStore.stored = kept
    }

    /// The device is back online: every stored copy goes out, in the order they entered, each
    /// with a fresh latency (the redelivery stream, one draw each), keeping its expiry.
    @inline(never) mutating func flushStoreSlots(at now: Int64) {
        for i in mechanisms.offlineStore.stored.indices {
            let c = mechanisms.offlineStore.stored[i]
            if now >= copies[c].expiry {
                copyLost(c, .apnsExpired)
                continue
            }
            note(.apns, copies[c].letter.offset, .storedPushSent)
            clock.queue.schedule(at: later(now, parameters.apnsLatency.sample(&armState.streams.redelivery)), .due(c))
        }
        mechanisms.offlineStore.stored.removeAll(keepingCapacity: true)
    }

    /// The end of the arm: each copy still stored is under way or expired, as the one-slot store's.
    mutating func closeStoreSlots() {
        for c in mechanisms.offlineStore.stored { closeStoredCopy(c) }
    }
}

/// Its cost in the resource estimate (``CostModel/mechanismLoads(_:_:)``).
extension CostModel {
    /// APNs' store of more than one slot: each stored copy kept, and sent again at the reconnection.
    package static func storeSlotsLoad(_ s: Scenario, _ c: LoadInput) -> MechanismLoad? {
        let L = c.letters, peakL = c.peakLetters, armCount = c.armCount
        if s.channel == .apns && !s.apns.store.isOneSlot {
            let held = min(Double(s.apns.store.slots ?? Int.max), peakL)
            return MechanismLoad(key: "apns.store", eventsPerDevice: armCount * L, bytesPerDevice: 8 * held,
                                 fix: "lower apns.store.slots")
        }
        return nil
    }
}
