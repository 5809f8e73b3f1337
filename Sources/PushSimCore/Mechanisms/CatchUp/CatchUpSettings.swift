// The client catch-up: the settings the rest of the chain reads, declared with the mechanism.

/// Its streams, each identified as before (a frozen number or its name's hash), so no draw moves.
extension StreamPurpose {
    package static let appOpens = StreamPurpose(frozen: 15)        // when the user opens the app (recovery: catch_up)
}
