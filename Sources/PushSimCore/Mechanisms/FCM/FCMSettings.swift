// FCM: what the rest of PushSim reads of it, declared with it (its streams; its keys' types and its cost where it has them).

/// Its streams, each identified as before (a frozen number or its name's hash), so no draw moves.
extension StreamPurpose {
    package static let fcmCollapseKeys = StreamPurpose(frozen: 26) // each letter's FCM collapse key (fcm.collapse_keys)
    package static let fcmStore = StreamPurpose(frozen: 27)        // which collapse key FCM's store drops past four (fcm.collapse_keys > 4)
}

/// Its cost in the resource estimate (``CostModel/mechanismLoads(_:_:)``).
extension CostModel {
    /// The doze windows' intervals of a resolved scenario: FCM at normal priority holds
    /// messages while the device dozes, so they are offline windows for it; 0 otherwise.
    package static func dozeIntervals(_ s: Scenario, end: Double) -> Double {
        guard s.channel == .fcm && s.fcm.priority == .normal && !s.device.doze.isEmpty else { return 0 }
        return repetitions(s.device.doze, end: end).intervals
    }

    /// FCM's doze windows (normal priority): for the channel, offline windows of every device.
    package static func fcmDozeLoad(_ s: Scenario, _ c: LoadInput) -> MechanismLoad? {
        let L = c.letters, armCount = c.armCount, end = c.end
        if dozeIntervals(s, end: end) > 0 {
            let doze = repetitions(s.device.doze, end: end)
            let flips = 2 * doze.intervals
            // Flips drawn and taken in each arm (a store flush each), and each stored message's
            // scan of the doze list.
            let events = flips + armCount * (1.5 * flips + L * doze.intervals * eventsPerScanStep)
            return MechanismLoad(key: "device.doze", eventsPerDevice: events, stepsPerWorld: 2 * doze.steps,
                                 bytesPerDevice: bytesPerFlip * (flips + 2), bytesPerWorld: bytesPerInterval * doze.intervals,
                                 fix: "lengthen device.doze's every (or end − start), use fcm.priority: high, or shorten the duration")
        }
        return nil
    }

    /// FCM's store: a stored message is sent again at the next connection (its own event).
    package static func fcmStoreLoad(_ s: Scenario, _ c: LoadInput) -> MechanismLoad? {
        let L = c.letters, peakL = c.peakLetters, armCount = c.armCount
        if s.channel == .fcm {
            return MechanismLoad(key: "channel: fcm", eventsPerDevice: armCount * (2 * L + c.processFlips),
                                 bytesPerDevice: 2 * peakL + 64 * 100,
                                 fix: "lower mail.rate, or lengthen the online/offline periods")
        }
        return nil
    }
}
