// FCM (channel: fcm): its store of 100 messages or 4 collapse keys, the TTL, Doze, onDeletedMessages.

/// FCM's store for one device (docs/model.md §12, FCM): the messages held, in the order they
/// entered, and the letters dropped that the app will hear of at its next connection.
struct FCMStore {
    /// Firebase: at most 100 non-collapsible messages are stored per device; at the limit all
    /// are discarded and the app is told.
    static let maxPending = 100
    /// Firebase: at most four collapse keys are stored per device, with no guarantee which.
    static let maxCollapseKeys = 4
    /// Firebase drops messages for a device not connected for 28 days (device inactive).
    static let inactivityLimit = 28 * SimTime.day

    var copies: [CopyIndex] = []
    /// Letters dropped (too many pending, device inactive), for the re-sync at reconnection.
    var dropped: [LetterIndex] = []

    mutating func removeAll() {
        copies.removeAll(keepingCapacity: true)
        dropped.removeAll(keepingCapacity: true)
    }
}

/// Why FCM held a copy before handing it over (kept in the copy, for the delivery delays).
enum FCMDelay {
    static let none: UInt8 = 0, offline: UInt8 = 1, doze: UInt8 = 2
}

extension DeviceWorld {
    /// A message is due at a device on FCM. The timeline counts doze windows as offline when the
    /// messages are normal priority, so "online" here means FCM can hand it over.
    mutating func fcmDelivers(copy c: CopyIndex, at now: Int64) {
        if deviceIsOnline(at: now) {
            let letter = copies[c].letter.offset
            let n = counted(letter)
            ledger.fcm.delivered += n
            switch copies[c].fcmDelay {
            case FCMDelay.offline: ledger.fcm.delayedDeviceOffline += n
            case FCMDelay.doze: ledger.fcm.delayedDeviceDoze += n
            default: ledger.fcm.deliveredNoDelay += n
            }
            deviceReceives(copy: c, at: now)
            return
        }
        let offlineSince = clock.flipsPassed == 0 ? 0 : draws.timeline.flips[clock.flipsPassed - 1]
        if now - offlineSince >= FCMStore.inactivityLimit {
            fcmDrops(copy: c, at: now, because: "device inactive")
            ledger.fcm.droppedDeviceInactive += counted(copies[c].letter.offset)
            return
        }
        fcmStores(copy: c, at: now)
    }

    /// The store: a message past its time to live is lost (TTL 0: now or never); expired ones
    /// leave first. Non-collapsible: at 100 stored, all are discarded and the newcomer starts
    /// afresh. Collapsible: a newer message replaces the one with its key; a fifth key drops one
    /// of the five messages, chosen uniformly on the store's own stream.
    mutating func fcmStores(copy c: CopyIndex, at now: Int64) {
        let letter = copies[c].letter.offset
        if now >= copies[c].expiry {
            ledger.fcm.expired += counted(letter)
            copyLost(c, .apnsExpired, at: now)
            return
        }
        fcmRemoveExpired(at: now)
        if copies[c].fcmDelay == FCMDelay.none {
            copies[c].fcmDelay = fcmDozing(at: now) ? FCMDelay.doze : FCMDelay.offline
        }
        let keys = parameters.fcmCollapseKeys
        if keys == 0 {
            if mechanisms.fcm.copies.count >= FCMStore.maxPending {
                let discarded = mechanisms.fcm.copies
                mechanisms.fcm.copies.removeAll(keepingCapacity: true)
                for d in discarded {
                    ledger.fcm.droppedTooManyPending += counted(copies[d].letter.offset)
                    fcmDrops(copy: d, at: now, because: "too many pending messages")
                }
            }
        } else {
            let key = draws.fcmKeys[letter]
            if let same = mechanisms.fcm.copies.firstIndex(where: { draws.fcmKeys[copies[$0].letter.offset] == key }) {
                let previous = mechanisms.fcm.copies.remove(at: same)
                ledger.fcm.collapsed += counted(copies[previous].letter.offset)
                copyLost(previous, .apnsReplaced, at: now)
            } else if mechanisms.fcm.copies.count >= FCMStore.maxCollapseKeys {
                let victim = Int(armState.streams.mechanismStreams.fcmStore.next() % UInt64(mechanisms.fcm.copies.count + 1))
                let evicted = victim == mechanisms.fcm.copies.count ? c : mechanisms.fcm.copies.remove(at: victim)
                ledger.fcm.evicted += counted(copies[evicted].letter.offset)
                copyLost(evicted, .apnsReplaced, at: now)
                if evicted == c { return }
            }
        }
        mechanisms.fcm.copies.append(c)
        note(.apns, letter, .storedByFCM(held: mechanisms.fcm.copies.count), at: now)
    }

    /// FCM drops a message and will tell the app at its next connection (onDeletedMessages).
    /// Its letter waits for the re-sync; a second copy's letter needs none.
    mutating func fcmDrops(copy c: CopyIndex, at now: Int64, because reason: String) {
        let copy = copies[c]
        note(.apns, copy.letter.offset, .droppedByFCM(reason: reason), at: now)
        if !copy.isSecondCopy { mechanisms.fcm.dropped.append(copy.letter) }
    }

    mutating func fcmRemoveExpired(at now: Int64) {
        guard mechanisms.fcm.copies.contains(where: { now >= copies[$0].expiry }) else { return }
        var kept: [CopyIndex] = []
        for s in mechanisms.fcm.copies {
            if now >= copies[s].expiry {
                ledger.fcm.expired += counted(copies[s].letter.offset)
                copyLost(s, .apnsExpired, at: now)
            } else {
                kept.append(s)
            }
        }
        mechanisms.fcm.copies = kept
    }

    /// FCM can reach the device again: every stored message goes out in the order it entered,
    /// each with a fresh latency; then, if FCM dropped messages meanwhile, the app is told and
    /// makes a full re-sync with its server: every dropped letter not yet shown is summarized
    /// now, in one summary.
    mutating func fcmFlush(at now: Int64) {
        fcmRemoveExpired(at: now)
        for c in mechanisms.fcm.copies {
            note(.apns, copies[c].letter.offset, .storedMessageSentByFCM)
            clock.queue.schedule(at: later(now, parameters.apnsLatency.sample(&armState.streams.redelivery)), .due(c))
        }
        mechanisms.fcm.copies.removeAll(keepingCapacity: true)
        guard !mechanisms.fcm.dropped.isEmpty else { return }
        var covered = 0
        for letter in mechanisms.fcm.dropped where !letterStates[letter].delivered {
            letterStates[letter].summarized = true
            covered += counted(letter.offset)
        }
        note(.user, nil, .toldOfDroppedMessages(count: mechanisms.fcm.dropped.count))
        mechanisms.fcm.dropped.removeAll(keepingCapacity: true)
        if covered > 0 {
            ledger.fcm.resyncs += 1
            ledger.summaries += 1
            loadLog.note(.summaries, at: now)
        }
    }

    /// Whether a doze window holds the device at `now` (normal priority only).
    func fcmDozing(at now: Int64) -> Bool {
        parameters.mechanismWindows.doze.contains { $0.contains(now) }
    }

    /// The end of the run: stored messages still valid are pending (their letters unfinished),
    /// the others expired; a message still on its way to the device is pending; dropped letters
    /// the app has not yet re-synced are unfinished.
    mutating func fcmCloses() {
        for event in clock.queue.pending {
            if case .due(let c) = event.payload { ledger.fcm.pending += counted(copies[c].letter.offset) }
        }
        for c in mechanisms.fcm.copies {
            let copy = copies[c]
            if clock.end < copy.expiry {
                ledger.fcm.pending += counted(copy.letter.offset)
                if !copy.isSecondCopy { letterStates[copy.letter.offset].unfinished = true }
            } else {
                ledger.fcm.expired += counted(copy.letter.offset)
                copyLost(c, .apnsExpired)
            }
        }
        mechanisms.fcm.copies.removeAll(keepingCapacity: true)
        for letter in mechanisms.fcm.dropped where !letterStates[letter].delivered {
            letterStates[letter].unfinished = true
        }
        mechanisms.fcm.dropped.removeAll(keepingCapacity: true)
    }
}

extension DeviceWorld {
    /// Each letter's collapse key, uniform over `fcm.collapse_keys`, from its own stream: a
    /// mail app's keys stand for its folders or accounts; both arms see the same keys.
    @inline(never) mutating func drawCollapseKeys() {
        var rng = RandomStream(seed: scenario.seed, device: armState.device, purpose: .fcmCollapseKeys)
        let k = UInt64(parameters.fcmCollapseKeys)
        draws.fcmKeys.removeAll(keepingCapacity: true)
        for _ in 0..<draws.letters.count { draws.fcmKeys.append(UInt16(truncatingIfNeeded: rng.next() % k)) }
    }
}
