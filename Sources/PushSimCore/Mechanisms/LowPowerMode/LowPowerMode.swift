// Low Power Mode (device.low_power): a share of phones, in daily windows, on which APNs holds every push until the window ends.

/// `device.low_power` (docs/model.md §10, Low Power Mode): the share of phones that are in Low
/// Power Mode during the daily `windows` (nil: all day), and the order in which APNs hands over
/// what it held when a window ends.
package struct LowPowerMode: Hashable, Sendable {
    /// How the pushes held during a window reach the device when it ends.
    package enum ReleaseOrder: String, Hashable, Sendable, CaseIterable {
        /// In the order APNs held them, as a sleeping phone's priority-5 pushes (§10).
        case held
        /// In a random order: a burst handed over at one instant is not promised to keep its order.
        case shuffled
        /// Each push handed over at the window's end reaches the phone after its own
        /// `apns.latency` draw, as a push sent from the offline store does: they arrive spread
        /// over the latency's range, in the order of their draws.
        case latency
    }

    /// The probability that a phone is one that goes into Low Power Mode.
    package var share: Double
    /// Daily windows (`every` one day; a window that crosses midnight ends the next day); empty: all day.
    package var windows: [OfflineWindow]
    package var releaseOrder: ReleaseOrder

    package init(share: Double, windows: [OfflineWindow] = [], releaseOrder: ReleaseOrder = .shuffled) {
        self.share = share; self.windows = windows; self.releaseOrder = releaseOrder
    }
}

/// When one device is in Low Power Mode: its intervals over [0, end), sorted and disjoint,
/// drawn once per device (stream `lowPower`) and shared by both arms; empty on a phone that is not one.
struct LowPowerTimeline {
    var intervals: [Range<Int64>] = []

    /// The interval holding t, if any.
    func interval(holding t: Int64) -> Range<Int64>? { intervals.interval(holding: t) }

    /// One draw per device: whether it is a Low Power Mode phone; if it is, the windows' layout.
    mutating func generate(_ scenario: Scenario, device: Int) {
        intervals.removeAll(keepingCapacity: true)
        guard let lowPower = scenario.device.lowPower else { return }
        var rng = RandomStream(seed: scenario.seed, device: device, purpose: .lowPower)
        guard rng.chance(lowPower.share) else { return }
        let end = scenario.end.microseconds
        // A window with a spread is shifted per phone, after the share's draw (docs/model.md §10).
        intervals = lowPower.windows.isEmpty ? [0..<end]
            : ConnectivityTimeline.windowIntervals(ConnectivityTimeline.shiftedBySpread(lowPower.windows, &rng), end: end)
    }
}

/// Low Power Mode's state in one arm: whether the end of the current window is scheduled, and
/// the stream that shuffles a release (seeded from the device at the arm's start, so both arms
/// shuffle alike until their held pushes differ).
struct LowPowerState {
    var endScheduled = false
    var release = RandomStream(seed: 0)

    init() {}
    init(seed: UInt64, device: Int) {
        release = RandomStream(seed: seed, device: device, purpose: .lowPowerRelease)
    }
}

extension DeviceWorld {
    /// A push handed to an online device that may hold it (rule 5 with `device.sleep` or
    /// `device.low_power`). In Low Power Mode, Apple DTS: "even priority 10 may not be enough
    /// to wake it up": every push is held, whatever its priority, until the window ends, in the
    /// sleeping phone's hold (docs/model.md §10); otherwise the sleep rule applies.
    mutating func handOverMayHold(copy c: CopyIndex, at now: Int64) {
        if parameters.lowPower, let window = draws.lowPowerTimeline.interval(holding: now) {
            let letter = copies[c].letter.offset
            mechanisms.provider.held.append(c)
            // The console's Stored – Power Considerations, then Delivered (From Storage).
            copies[c].console.held()
            ledger.lowPower.held += counted(letter)
            if !draws.letters[letter].lowPriority { ledger.lowPower.heldPriority10 += counted(letter) }
            note(.apns, letter, .heldInLowPowerMode, at: now)
            scheduleLowPowerEnd(window)
            return
        }
        if parameters.sleeps { handOverMaySleep(copy: c, at: now); return }
        deviceReceives(copy: c, at: now)
    }

    /// The window's end, scheduled once: what is held then goes out.
    mutating func scheduleLowPowerEnd(_ window: Range<Int64>) {
        guard !mechanisms.lowPower.endScheduled && window.upperBound < clock.end else { return }
        mechanisms.lowPower.endScheduled = true
        clock.queue.schedule(at: window.upperBound, .mechanism(.lowPowerEnds))
    }

    /// A sleeping device wakes inside a Low Power Mode window: what it held stays held until the
    /// window ends. Returns whether the device is in Low Power Mode now.
    mutating func lowPowerHoldsOnWake(at now: Int64) -> Bool {
        guard let window = draws.lowPowerTimeline.interval(holding: now) else { return false }
        scheduleLowPowerEnd(window)
        return true
    }

    /// A Low Power Mode window ends: what APNs held goes out together, in the order of
    /// `release_order`. A sleeping device's priority-5 pushes wait on for its wake unless a held
    /// priority-10 push wakes it (then all follow, §10).
    mutating func lowPowerEnds(at now: Int64) {
        mechanisms.lowPower.endScheduled = false
        note(.device, nil, .lowPowerModeEnded(held: mechanisms.provider.held.count))
        if parameters.sleeps, let asleep = draws.sleepTimeline.interval(holding: now),
           !mechanisms.provider.held.contains(where: { !draws.letters[copies[$0].letter.offset].lowPriority }) {
            if !mechanisms.provider.wakeScheduled && asleep.upperBound < clock.end {
                mechanisms.provider.wakeScheduled = true
                clock.queue.schedule(at: asleep.upperBound, .mechanism(.deviceWakes))
            }
            return
        }
        for c in mechanisms.provider.held { ledger.lowPower.released += counted(copies[c].letter.offset) }
        switch scenario.device.lowPower?.releaseOrder ?? .held {
        case .held: releaseHeld(at: now)
        case .shuffled: shuffleHeld(); releaseHeld(at: now)
        case .latency: releaseHeldWithLatencies(at: now)
        }
    }

    /// `release_order: latency`: each held push goes out now and reaches the phone after its own
    /// latency draw (the redelivery stream, as the offline store's), where it is handed over as
    /// any push then (stored if the phone went offline meanwhile, held if it sleeps).
    mutating func releaseHeldWithLatencies(at now: Int64) {
        let released = mechanisms.provider.held
        mechanisms.provider.held.removeAll(keepingCapacity: true)
        for c in released {
            clock.queue.schedule(at: later(now, parameters.apnsLatency.sample(&armState.streams.redelivery)), .due(c))
        }
    }

    /// Fisher–Yates over the held pushes, from the arm's release stream.
    mutating func shuffleHeld() {
        var i = mechanisms.provider.held.count - 1
        while i > 0 {
            let j = Int(mechanisms.lowPower.release.next() % UInt64(i + 1))
            mechanisms.provider.held.swapAt(i, j)
            i -= 1
        }
    }
}
