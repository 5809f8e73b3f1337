// APNs: network loss on the way in, latency with jitter, and the one-slot offline store.

extension DeviceWorld {
    /// A copy reaches APNs (timing rule 2): lost, or due at the device after one latency draw.
    mutating func apnsReceives(copy c: Int32, at now: Int64) {
        let copy = copies[Int(c)]
        let letter = Int(copy.letter)
        let lost: Bool
        let latency: Int64
        if copy.isResend {
            lost = resendStream.chance(parameters.apnsLoss)
            latency = parameters.apnsLatency.sample(&resendStream)
        } else {
            lost = letters[letter].lostBeforeAPNs
            latency = letters[letter].apnsLatency
        }
        if lost {
            copyLost(c, .networkLoss)
            return
        }
        copies[Int(c)].expiry = (SimTime(microseconds: now) + parameters.apnsExpiration).microseconds
        note(.apns, letter, "reached APNs")
        queue.schedule(at: later(now, latency), .due(c))
    }

    /// A copy is due at the device: handed over if it is online, stored if not (rule 3).
    mutating func apnsDelivers(copy c: Int32, at now: Int64) {
        if deviceIsOnline(at: now) {
            deviceReceives(copy: c, at: now)
        } else {
            store(copy: c, at: now)
        }
    }

    /// The one-slot store: the copy that entered last replaces the one stored.
    mutating func store(copy c: Int32, at now: Int64) {
        let copy = copies[Int(c)]
        if now >= copy.expiry {
            copyLost(c, .apnsExpired)  // expiration 0 (never stored) or already past its expiry
            return
        }
        if stored >= 0 {
            let previous = stored
            copyLost(previous, now >= copies[Int(previous)].expiry ? .apnsExpired : .apnsReplaced)
        }
        stored = c
        note(.apns, Int(copy.letter), "stored for offline device")
    }

    /// The device is back online: the stored copy goes out with a fresh latency, keeping its
    /// original expiry, and is not exposed to network loss again.
    mutating func apnsFlushStore(at now: Int64) {
        guard stored >= 0 else { return }
        let c = stored
        stored = -1
        if now >= copies[Int(c)].expiry {
            copyLost(c, .apnsExpired)
            return
        }
        note(.apns, Int(copies[Int(c)].letter), "stored push sent to device")
        queue.schedule(at: later(now, parameters.apnsLatency.sample(&redeliveryStream)), .due(c))
    }
}
