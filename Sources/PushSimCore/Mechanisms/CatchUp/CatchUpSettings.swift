// The client catch-up: what the rest of PushSim reads of it, declared with it (its streams; its keys' types and its cost where it has them).

/// Its streams, each identified as before (a frozen number or its name's hash), so no draw moves.
extension StreamPurpose {
    package static let appOpens = StreamPurpose(frozen: 15)        // when the user opens the app (recovery: catch_up)
}

/// Its cost in the resource estimate (``CostModel/mechanismLoads(_:_:)``).
extension CostModel {
    /// The client catch-up, or a version-2 client's app: the user's openings of the app, in the
    /// queue arm, one event each (the app's requests are counted as the client's answers).
    package static func catchUpLoad(_ s: Scenario, _ c: LoadInput) -> MechanismLoad? {
        let queueArm = c.queueArm, end = c.end
        if s.recovery == .catchUp || (s.recovery == .queue && s.queue.userClient?.stateful != nil), let open = s.device.appOpen {
            let opens = finite(end / max(truncatedMean(open, at: end), 1) + 2)
            return MechanismLoad(key: "device.app_open", eventsPerDevice: queueArm * opens, bytesPerDevice: 0,
                                 fix: "lengthen device.app_open")
        }
        return nil
    }
}
