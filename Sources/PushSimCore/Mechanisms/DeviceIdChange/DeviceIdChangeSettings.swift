// Device id changes: what the rest of PushSim reads of it, declared with it (its streams; its keys' types and its cost where it has them).

/// Its streams, each identified as before (a frozen number or its name's hash), so no draw moves.
extension StreamPurpose {
    package static let deviceIdChanges = StreamPurpose(frozen: 17) // when the device id changes (device.id_change)
}

/// Its cost in the resource estimate (``CostModel/mechanismLoads(_:_:)``).
extension CostModel {
    /// Device id changes: passed in a loop by the queue arm's extension runs.
    package static func idChangeLoad(_ s: Scenario, _ c: LoadInput) -> MechanismLoad? {
        let queueArm = c.queueArm, end = c.end
        if s.device.idChangeRatePerMicrosecond > 0 && s.recovery == .queue {
            let changes = finite(s.device.idChangeRatePerMicrosecond * end)
            return MechanismLoad(key: "device.id_change", eventsPerDevice: queueArm * (changes + 1) * eventsPerLoopStep,
                                 bytesPerDevice: 0, fix: "lower device.id_change")
        }
        return nil
    }
}
