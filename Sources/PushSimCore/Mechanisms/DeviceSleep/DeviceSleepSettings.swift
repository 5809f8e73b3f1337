// A sleeping device: the settings the rest of the chain reads, declared with the mechanism.

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
