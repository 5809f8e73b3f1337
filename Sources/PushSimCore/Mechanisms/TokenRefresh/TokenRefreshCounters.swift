// What `apns.token_refresh` counted (docs/model.md §9, Provider tokens), declared once.

/// XIVA's requests APNs refused because of its provider token, by the push's letter: 429
/// TooManyProviderTokenUpdates in a lockout, 403 ExpiredProviderToken while the token was
/// expired; the sends after them are `provider.retries`.
package struct TokenRefreshCounters: CounterSet {
    package var tooManyUpdates = 0
    package var expired = 0
    package init() {}

    /// Shown once a token failure met a request.
    package static let group = CounterGroup("apns.token_refresh", json: "apns_token_refresh", heading: "XIVA's provider token (requests refused)", place: .afterCauses,
                                            shown: { $0.tokenRefresh.tooManyUpdates + $0.tokenRefresh.expired > 0 },
                                            isEmpty: { $0.tokenRefresh == TokenRefreshCounters() }, [
        Counter("token_too_many_updates", \.tokenRefresh.tooManyUpdates, json: "too_many_updates", label: "  429 TooManyProviderTokenUpdates (connection unusable)"),
        Counter("token_expired", \.tokenRefresh.expired, json: "expired", label: "  403 ExpiredProviderToken"),
    ])
}
