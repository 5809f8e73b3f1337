// Low Power Mode: what the rest of PushSim reads of it, declared with it (its streams; its keys' types and its cost where it has them).

/// Its streams, each identified as before (a frozen number or its name's hash), so no draw moves.
extension StreamPurpose {
    package static let lowPower = StreamPurpose(named: "lowPower")               // whether a phone goes into Low Power Mode (device.low_power)
    package static let lowPowerRelease = StreamPurpose(named: "lowPowerRelease") // per arm: the order of a shuffled release (device.low_power)
}

/// Its cost in the resource estimate (``CostModel/mechanismLoads(_:_:)``).
extension CostModel {
    /// Low Power Mode (docs/model.md §10): a Low Power phone's windows, laid out once per
    /// device and kept for both arms, and at most one release event per window that holds a
    /// push. The busiest device is a Low Power phone whenever the share is above 0.
    package static func lowPowerLoad(_ s: Scenario, _ c: LoadInput) -> MechanismLoad? {
        let L = c.letters, armCount = c.armCount, end = c.end
        if let lowPower = s.device.lowPower, lowPower.share > 0 {
            let windows = lowPower.windows.isEmpty ? (intervals: 1.0, steps: 1.0) : repetitions(lowPower.windows, end: end)
            return MechanismLoad(key: "device.low_power",
                                 eventsPerDevice: lowPower.share * (layoutEvents(windows) + armCount * min(windows.intervals, L)),
                                 bytesPerDevice: bytesPerInterval * windows.intervals,
                                 fix: "lengthen device.low_power's windows (their every), or shorten the duration")
        }
        return nil
    }
}
