// APNs: network loss on the way in, latency with jitter, and the one-slot offline store.

/// APNs' one-slot offline store for this device in one arm (timing rule 3).
struct APNsStore {
    /// The copy stored; nil when the store is empty.
    var copy: CopyIndex? = nil
    /// When it entered the store: keep_older looks at it (docs/model.md §5, APNs' store).
    var enteredAt: Int64 = 0
}

extension DeviceWorld {
    /// A re-sent copy reaches APNs (timing rule 2): lost, or due at the device after one
    /// latency draw from the re-sends' stream. A first copy arrives as an event only when
    /// shortcuts are off; its loss and latency were drawn with its letter.
    mutating func apnsReceives(copy c: CopyIndex, at now: Int64) {
        let copy = copies[c]
        if _slowPath(copy.attempt > 0) {
            retriedCopyArrives(copy: c, at: now)
            return
        }
        if !copy.isResend {
            let i = copy.letter.offset
            apnsAccepts(copy: c, at: now, lost: draws.letters[i].lostBeforeAPNs, latency: draws.letters[i].apnsLatency)
            return
        }
        let lost = armState.streams.resends.chance(parameters.apnsLoss)
        let latency = parameters.apnsLatency.sample(&armState.streams.resends)
        apnsAccepts(copy: c, at: now, lost: lost, latency: latency)
    }

    /// A first copy on its way to APNs, settled when XIVA sends it: its loss and latency were
    /// drawn with the letter, and nothing between the send and the arrival can change what
    /// happens at APNs, so the arrival needs no event of its own (a fifth of all events were
    /// these). What is recorded is what the arrival event would have recorded, at its time.
    /// With shortcuts off it is scheduled like a re-sent copy's.
    @inline(__always) mutating func firstCopyTravels(copy c: CopyIndex, letter i: Int, reachingAPNsAt arrival: Int64) {
        guard mechanisms.firstCopiesSettle else {
            // Over the binary interface the push first joins its connection (docs/model.md §11).
            clock.queue.schedule(at: arrival, parameters.binary ? .binaryJoin(c) : .apnsArrival(c))
            return
        }
        guard arrival < clock.end else {
            // It would still be on its way to APNs when the run ends.
            letterStates[i].unfinished = true
            return
        }
        apnsAccepts(copy: c, at: arrival, lost: draws.letters[i].lostBeforeAPNs, latency: draws.letters[i].apnsLatency)
    }

    /// Timing rule 2 at the instant `arrival`: the copy is lost on the way in, or APNs takes it,
    /// with an offline expiry from now, and it is due at the device after `latency`.
    @inline(__always)
    mutating func apnsAccepts(copy c: CopyIndex, at arrival: Int64, lost: Bool, latency: Int64) {
        if _slowPath(parameters.providerAnswers) {
            guard apnsAnswers(copy: c, at: arrival, lost: lost) else { return }
        } else if lost {
            copyLost(c, .networkLoss, at: arrival)
            return
        }
        copies[c].expiry = later(arrival, parameters.apnsExpiration.microseconds)
        note(.apns, copies[c].letter.offset, .reachedAPNs, at: arrival)
        let due = later(arrival, latency)
        if clock.settleAtOnce && due < clock.end && draws.timeline.isOnline(at: due, cursor: &clock.lookaheadFlipCursor) {
            // With the queue off, a copy that finds the device online goes straight through
            // the device and the extension to the screen, touching nothing another event
            // could change (not the offline store, not the saved position; nothing is drawn):
            // it is settled now, at the instants its events would have had.
            deviceReceives(copy: c, at: due)
        } else {
            clock.queue.schedule(at: due, .due(c))
        }
    }

    /// A copy is due at the device: handed over if it is online, stored if not (rule 3).
    @inline(__always) mutating func apnsDelivers(copy c: CopyIndex, at now: Int64) {
        if _slowPath(parameters.channel != .apns) { channelDelivers(copy: c, at: now); return }
        if deviceIsOnline(at: now) {
            if _slowPath(parameters.mayHold) { handOverMayHold(copy: c, at: now); return }
            deviceReceives(copy: c, at: now)
        } else {
            store(copy: c, at: now)
        }
    }

    /// The one-slot store (a store of `apns.store` is in Mechanisms/OfflineStore/): the copy that entered last replaces the one stored — "in most
    /// cases" (docs/model.md §5, APNs' store): when the stored copy, still valid, entered less than `keep_window` before,
    /// with probability `keep_older` it stays and the newcomer is discarded instead.
    mutating func store(copy c: CopyIndex, at now: Int64) {
        if _slowPath(parameters.storeHasSlots) { storeInSlots(copy: c, at: now); return }
        let copy = copies[c]
        if now >= copy.expiry {
            copyLost(c, .apnsExpired)  // expiration 0 (never stored) or already past its expiry
            return
        }
        if let previous = apnsStore.copy {
            if now >= copies[previous].expiry {
                copyLost(previous, .apnsExpired)
            } else if parameters.keepOlder > 0 && now - apnsStore.enteredAt < parameters.keepWindow
                        && armState.streams.mechanismStreams.store.chance(parameters.keepOlder) {
                copyLost(c, .apnsReplaced)
                note(.apns, copy.letter.offset, .olderStoredPushKept)
                return
            } else {
                copyLost(previous, .apnsReplaced)
            }
        }
        apnsStore = APNsStore(copy: c, enteredAt: now)
        copies[c].console.storedOffline()
        note(.apns, copy.letter.offset, .storedForOfflineDevice)
    }

    /// The device is back online: the stored copy goes out with a fresh latency, keeping its
    /// original expiry, and is not exposed to network loss again.
    mutating func apnsFlushStore(at now: Int64) {
        if _slowPath(parameters.storeHasSlots) { flushStoreSlots(at: now); return }
        guard let c = apnsStore.copy else {
            if _slowPath(parameters.channel != .apns) { channelFlushes(at: now) }
            return
        }
        apnsStore.copy = nil
        if now >= copies[c].expiry {
            copyLost(c, .apnsExpired)
            return
        }
        note(.apns, copies[c].letter.offset, .storedPushSent)
        clock.queue.schedule(at: later(now, parameters.apnsLatency.sample(&armState.streams.redelivery)), .due(c))
    }
}

extension DeviceWorld {
    /// A hand-over to an online device (docs/model.md §5, Second copies): APNs documents no de-duplication, and a request
    /// accepted while its answer was lost is sent again, so with probability
    /// `duplicate` a second copy follows. It reaches APNs now, is not exposed to network loss,
    /// draws its own latency, and is never duplicated again.
    mutating func apnsMayDuplicate(copy c: CopyIndex, at now: Int64) {
        let copy = copies[c]
        guard !copy.isSecondCopy, armState.streams.mechanismStreams.duplicates.chance(parameters.duplicate) else { return }
        let second: CopyIndex = copies.nextIndex()
        copies.append(PushCopy(letter: copy.letter, isResend: false, isSecondCopy: true, expiry: 0))
        note(.apns, copy.letter.offset, .handedOverTwice, at: now)
        apnsAccepts(copy: second, at: now, lost: false, latency: parameters.apnsLatency.sample(&armState.streams.mechanismStreams.duplicates))
    }
}
