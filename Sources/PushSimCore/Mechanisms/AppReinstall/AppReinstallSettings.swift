// App reinstalls: what the rest of PushSim reads of it, declared with it (its streams; its keys' types and its cost where it has them).

/// Its streams, each identified as before (a frozen number or its name's hash), so no draw moves.
extension StreamPurpose {
    package static let reinstalls = StreamPurpose(frozen: 30)      // when the app is reinstalled, and when XIVA learns its new token (device.reinstall)
}

/// Its cost in the resource estimate (``CostModel/mechanismLoads(_:_:)``).
extension CostModel {
    /// App reinstalls: each is passed in a loop (two draws) and keeps its first position.
    package static func reinstallLoad(_ s: Scenario, _ c: LoadInput) -> MechanismLoad? {
        let armCount = c.armCount, end = c.end
        if s.device.reinstallRatePerMicrosecond > 0 {
            let reinstalls = finite(s.device.reinstallRatePerMicrosecond * end)
            return MechanismLoad(key: "device.reinstall", eventsPerDevice: armCount * (reinstalls + 1) * eventsPerLoopStep * 2,
                                 bytesPerDevice: 8 * peak(reinstalls + 1),
                                 fix: "lower device.reinstall")
        }
        return nil
    }
}
