// XIVA's provider token: what the rest of PushSim reads of it, declared with it (its streams; its keys' types and its cost where it has them).

/// Its streams, each identified as before (a frozen number or its name's hash), so no draw moves.
extension StreamPurpose {
    package static let tokenRefresh = StreamPurpose(named: "tokenRefresh")       // per run: XIVA's provider token's refreshes and lockouts (apns.token_refresh)
}

/// Its cost in the resource estimate (``CostModel/mechanismLoads(_:_:)``).
extension CostModel {
    /// XIVA's provider token: every world lays out the run's refreshes (a step each) and keeps
    /// up to two stretches per refresh; every arrival at APNs is an event while it is set (the
    /// sends it refuses again are `xiva.retry`'s).
    package static func tokenRefreshLoad(_ s: Scenario, _ c: LoadInput) -> MechanismLoad? {
        let L = c.letters, armCount = c.armCount, end = c.end
        if let refresh = s.apns.tokenRefresh, s.channel != .fcm {
            let refreshes = min(Double(APNsTokenRefresh.refreshLimit), finite(end / max(1, refresh.every.mean)) + 1)
            return MechanismLoad(key: "apns.token_refresh", eventsPerDevice: armCount * L, stepsPerWorld: refreshes,
                                 bytesPerDevice: 0, bytesPerWorld: bytesPerInterval * 2 * refreshes,
                                 fix: "lengthen apns.token_refresh's every")
        }
        return nil
    }
}
