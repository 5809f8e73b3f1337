// Device id changes: the settings the rest of the chain reads, declared with the mechanism.

/// Its streams, each identified as before (a frozen number or its name's hash), so no draw moves.
extension StreamPurpose {
    package static let deviceIdChanges = StreamPurpose(frozen: 17) // when the device id changes (device.id_change)
}
