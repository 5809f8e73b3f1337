// What `device.id_change` counted (queue arm), declared once.

/// Device id changes an extension run found, each forgetting the saved position, and the
/// positions skipped between the forgotten saved position and the next push's: letters in gaps
/// the change hid (some may still arrive late).
package struct DeviceIdChangeCounters: CounterSet {
    package var changes = 0
    package var positionsInForgottenGaps = 0
    package init() {}
}

extension CounterGroup {
    /// Device id changes an extension run found, and the positions in gaps the change hid.
    static let deviceIdChange = CounterGroup("device.id_change", json: nil, place: .queueBlock, arms: .queueArm,
                                             shown: { $0.deviceIdChange.changes > 0 }, isEmpty: { $0.deviceIdChange == DeviceIdChangeCounters() }, [
        Counter("device_id_changes", \.deviceIdChange.changes, json: "device_id_changes", label: "  device id changes"),
        Counter("positions_in_forgotten_gaps", \.deviceIdChange.positionsInForgottenGaps, json: "positions_in_forgotten_gaps",
                label: "  positions in forgotten gaps"),
    ])
}
