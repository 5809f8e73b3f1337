// APNs: network loss on the way in, latency with jitter, and the one-slot offline store.

extension DeviceWorld {
    /// A re-sent copy reaches APNs (timing rule 2): lost, or due at the device after one
    /// latency draw from the re-sends' stream. A first copy arrives as an event only when
    /// shortcuts are off; its loss and latency were drawn with its letter.
    mutating func apnsReceives(copy c: Int32, at now: Int64) {
        let copy = copies[Int(c)]
        if !copy.isResend {
            let i = Int(copy.letter)
            apnsAccepts(copy: c, at: now, lost: letters[i].lostBeforeAPNs, latency: letters[i].apnsLatency)
            return
        }
        let lost = streams.resends.chance(parameters.apnsLoss)
        let latency = parameters.apnsLatency.sample(&streams.resends)
        apnsAccepts(copy: c, at: now, lost: lost, latency: latency)
    }

    /// A first copy on its way to APNs, settled when XIVA sends it: its loss and latency were
    /// drawn with the letter, and nothing between the send and the arrival can change what
    /// happens at APNs, so the arrival needs no event of its own (a fifth of all events were
    /// these). What is recorded is what the arrival event would have recorded, at its time.
    /// With shortcuts off it is scheduled like a re-sent copy's.
    @inline(__always) mutating func firstCopyTravels(copy c: Int32, letter i: Int, reachingAPNsAt arrival: Int64) {
        guard shortcuts == .taken else {
            queue.schedule(at: arrival, .apnsArrival(c))
            return
        }
        guard arrival < end else {
            // It would still be on its way to APNs when the run ends.
            letterStates[i].unfinished = true
            return
        }
        apnsAccepts(copy: c, at: arrival, lost: letters[i].lostBeforeAPNs, latency: letters[i].apnsLatency)
    }

    /// Timing rule 2 at the instant `arrival`: the copy is lost on the way in, or APNs takes it,
    /// with an offline expiry from now, and it is due at the device after `latency`.
    @inline(__always)
    mutating func apnsAccepts(copy c: Int32, at arrival: Int64, lost: Bool, latency: Int64) {
        if lost {
            copyLost(c, .networkLoss, at: arrival)
            return
        }
        copies[Int(c)].expiry = later(arrival, parameters.apnsExpiration.microseconds)
        note(.apns, Int(copies[Int(c)].letter), "reached APNs", at: arrival)
        let due = later(arrival, latency)
        if settleAtOnce && due < end && timeline.isOnline(at: due, cursor: &lookaheadFlipCursor) {
            // With the queue off, a copy that finds the device online goes straight through
            // the device and the extension to the screen, touching nothing another event
            // could change (not the offline store, not the saved position; nothing is drawn):
            // it is settled now, at the instants its events would have had.
            deviceReceives(copy: c, at: due)
        } else {
            queue.schedule(at: due, .due(c))
        }
    }

    /// A copy is due at the device: handed over if it is online, stored if not (rule 3).
    @inline(__always) mutating func apnsDelivers(copy c: Int32, at now: Int64) {
        if _slowPath(parameters.channel != .apns) { channelDelivers(copy: c, at: now); return }
        if deviceIsOnline(at: now) {
            deviceReceives(copy: c, at: now)
        } else {
            store(copy: c, at: now)
        }
    }

    /// The one-slot store: the copy that entered last replaces the one stored — "in most
    /// cases" (docs/model.md §5, APNs' store): when the stored copy, still valid, entered less than `keep_window` before,
    /// with probability `keep_older` it stays and the newcomer is discarded instead.
    mutating func store(copy c: Int32, at now: Int64) {
        let copy = copies[Int(c)]
        if now >= copy.expiry {
            copyLost(c, .apnsExpired)  // expiration 0 (never stored) or already past its expiry
            return
        }
        if stored >= 0 {
            let previous = stored
            if now >= copies[Int(previous)].expiry {
                copyLost(previous, .apnsExpired)
            } else if parameters.keepOlder > 0 && now - storedEnteredAt < parameters.keepWindow
                        && streams.store.chance(parameters.keepOlder) {
                copyLost(c, .apnsReplaced)
                note(.apns, Int(copy.letter), "the older stored push kept")
                return
            } else {
                copyLost(previous, .apnsReplaced)
            }
        }
        stored = c
        storedEnteredAt = now
        note(.apns, Int(copy.letter), "stored for offline device")
    }

    /// The device is back online: the stored copy goes out with a fresh latency, keeping its
    /// original expiry, and is not exposed to network loss again.
    mutating func apnsFlushStore(at now: Int64) {
        guard stored >= 0 else {
            if _slowPath(parameters.channel != .apns) { channelFlushes(at: now) }
            return
        }
        let c = stored
        stored = -1
        if now >= copies[Int(c)].expiry {
            copyLost(c, .apnsExpired)
            return
        }
        note(.apns, Int(copies[Int(c)].letter), "stored push sent to device")
        queue.schedule(at: later(now, parameters.apnsLatency.sample(&streams.redelivery)), .due(c))
    }
}

extension DeviceWorld {
    /// A hand-over to an online device (docs/model.md §5, Second copies): APNs documents no de-duplication, and a request
    /// accepted while its answer was lost is sent again, so with probability
    /// `duplicate` a second copy follows. It reaches APNs now, is not exposed to network loss,
    /// draws its own latency, and is never duplicated again.
    mutating func apnsMayDuplicate(copy c: Int32, at now: Int64) {
        let copy = copies[Int(c)]
        guard !copy.isSecondCopy, streams.duplicates.chance(parameters.duplicate) else { return }
        let second = Int32(copies.count)
        copies.append(PushCopy(letter: copy.letter, isResend: false, isSecondCopy: true, expiry: 0))
        note(.apns, Int(copy.letter), "handed over twice: a second copy follows", at: now)
        apnsAccepts(copy: second, at: now, lost: false, latency: parameters.apnsLatency.sample(&streams.duplicates))
    }
}
