// What `device.id_change` counted (queue arm), declared once.

extension CounterGroup {
    /// Device id changes an extension run found, and the positions in gaps the change hid.
    static let deviceIdChange = CounterGroup("device.id_change", json: nil, place: .queueBlock, arms: .queueArm,
                                             shown: { $0.deviceIdChanges > 0 }, [
        Counter("device_id_changes", \.deviceIdChanges, json: "device_id_changes", label: "  device id changes"),
        Counter("positions_in_forgotten_gaps", \.positionsInForgottenGaps, json: "positions_in_forgotten_gaps",
                label: "  positions in forgotten gaps"),
    ])
}
