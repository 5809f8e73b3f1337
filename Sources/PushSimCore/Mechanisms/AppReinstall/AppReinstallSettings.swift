// App reinstalls: the settings the rest of the chain reads, declared with the mechanism.

/// Its streams, each identified as before (a frozen number or its name's hash), so no draw moves.
extension StreamPurpose {
    package static let reinstalls = StreamPurpose(frozen: 30)      // when the app is reinstalled, and when XIVA learns its new token (device.reinstall)
}
