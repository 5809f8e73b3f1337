// The binary interface: the settings the rest of the chain reads, declared with the mechanism.

/// Its streams, each identified as before (a frozen number or its name's hash), so no draw moves.
extension StreamPurpose {
    package static let binaryErrors = StreamPurpose(frozen: 40)    // whether a written notification is malformed, its error's round trip (apns.interface: binary)
}
