// A sleeping device: what the rest of PushSim reads of it, declared with it (its streams; its keys' types and its cost where it has them).

/// Its streams, each identified as before (a frozen number or its name's hash), so no draw moves.
extension StreamPurpose {
    package static let sleep = StreamPurpose(frozen: 24)           // the device's awake and asleep periods (device.sleep)
}

/// `device.sleep` (docs/model.md §10): the device alternates awake and asleep periods (drawn
/// from these laws, in equilibrium at time 0); priority-5 pushes wait while it sleeps.
package struct DeviceSleep: Hashable, Sendable {
    package var awake: Distribution
    package var asleep: Distribution
    package init(awake: Distribution, asleep: Distribution) { self.awake = awake; self.asleep = asleep }
}

/// Its cost in the resource estimate (``CostModel/mechanismLoads(_:_:)``).
extension CostModel {
    /// A sleeping device (priority 5 meets device.sleep): its asleep intervals, drawn once
    /// per device and taking no event, and a wake event only for a sleep that holds a push
    /// (at most one a letter).
    package static func sleepLoad(_ s: Scenario, _ c: LoadInput) -> MechanismLoad? {
        let L = c.letters, armCount = c.armCount, end = c.end
        if let sleep = s.device.sleep, s.apns.lowPriorityShare > 0 {
            let flips = alternatingFlips(sleep.awake, sleep.asleep, end: end)
            return MechanismLoad(key: "device.sleep", eventsPerDevice: flips * eventsPerDrawnFlip + armCount * min(flips / 2, L),
                                 bytesPerDevice: 16 * (peak(flips) + 2),
                                 fix: "lengthen device.sleep's awake and asleep periods")
        }
        return nil
    }
}
