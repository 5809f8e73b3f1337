// A device that sleeps while online: priority-5 pushes held until it wakes or a priority-10 push wakes it.

/// When one device sleeps (docs/model.md §10): its asleep intervals over [0, end), sorted and
/// disjoint, drawn once per device and shared by both arms.
struct SleepTimeline {
    var asleep: [Range<Int64>] = []

    /// The asleep interval holding t, if any.
    func interval(holding t: Int64) -> Range<Int64>? { asleep.interval(holding: t) }

    mutating func generate(_ scenario: Scenario, device: Int) {
        asleep.removeAll(keepingCapacity: true)
        guard let sleep = scenario.device.sleep else { return }
        var rng = RandomStream(seed: scenario.seed, device: device, purpose: .sleep)
        AlternatingProcess.intervalsOfSecondState(first: sleep.awake, second: sleep.asleep, rng: &rng,
                                                  end: scenario.end.microseconds, into: &asleep)
    }
}

extension DeviceWorld {
    /// A push handed to an online device (rule 5) when the device may sleep. Apple: a priority-5
    /// push may be held "until the device is awake or is already being woken up due to another
    /// priority 10 push". So a priority-5 push that finds the device asleep waits for the wake;
    /// a priority-10 push is handed over at once, wakes the device, and the held ones follow it
    /// at the same instant, in the order they were held.
    mutating func handOverMaySleep(copy c: CopyIndex, at now: Int64) {
        let letter = copies[c].letter.offset
        if draws.letters[letter].lowPriority {
            if let interval = draws.sleepTimeline.interval(holding: now) {
                mechanisms.provider.held.append(c)
                copies[c].console.held()
                ledger.sleep.held += counted(letter)
                note(.apns, letter, .heldWhileAsleep, at: now)
                if !mechanisms.provider.wakeScheduled && interval.upperBound < clock.end {
                    mechanisms.provider.wakeScheduled = true
                    clock.queue.schedule(at: interval.upperBound, .mechanism(.deviceWakes))
                }
                return
            }
            deviceReceives(copy: c, at: now)
            return
        }
        deviceReceives(copy: c, at: now)
        if !mechanisms.provider.held.isEmpty {
            note(.device, letter, .wokenByPriority10(held: mechanisms.provider.held.count), at: now)
            for h in mechanisms.provider.held { ledger.sleep.releasedByPriority10 += counted(copies[h].letter.offset) }
            releaseHeld(at: now)
        }
    }

    /// The device wakes: what APNs held goes out (to the store if the device is offline now).
    mutating func deviceWakes(at now: Int64) {
        mechanisms.provider.wakeScheduled = false
        note(.device, nil, .awake)
        // Awake but in Low Power Mode: what is held waits for the window's end (LowPowerMode.swift).
        if _slowPath(parameters.lowPower) && lowPowerHoldsOnWake(at: now) { return }
        releaseHeld(at: now)
    }

    /// Hands the held pushes over (the device is awake or being woken: no second sleep check),
    /// or stores them if it went offline meanwhile (rule 3).
    mutating func releaseHeld(at now: Int64) {
        let released = mechanisms.provider.held
        mechanisms.provider.held.removeAll(keepingCapacity: true)
        let online = deviceIsOnline(at: now)
        for c in released {
            if online { deviceReceives(copy: c, at: now) } else { store(copy: c, at: now) }
        }
    }
}
