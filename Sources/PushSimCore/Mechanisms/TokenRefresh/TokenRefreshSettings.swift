// XIVA's provider token: the settings the rest of the chain reads, declared with the mechanism.

/// Its streams, each identified as before (a frozen number or its name's hash), so no draw moves.
extension StreamPurpose {
    package static let tokenRefresh = StreamPurpose(named: "tokenRefresh")       // per run: XIVA's provider token's refreshes and lockouts (apns.token_refresh)
}
