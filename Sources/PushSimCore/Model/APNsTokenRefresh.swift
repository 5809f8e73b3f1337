// `apns.token_refresh`: how often XIVA refreshes its provider token, and what APNs does when it is refreshed too often or too late.

/// XIVA's provider token, refreshed every drawn interval (docs/model.md §9, Provider tokens).
/// Apple's rules: a token may be refreshed no more than once every `tooSoon` (20 minutes), and
/// one older than `lifetime` (one hour) is refused with 403 ExpiredProviderToken until the next
/// refresh; a refresh sooner than `tooSoon` after the previous one is answered 429
/// TooManyProviderTokenUpdates, after which the connection takes nothing for `lockout`.
package struct APNsTokenRefresh: Hashable, Sendable {
    /// From one refresh to the next, drawn per refresh.
    package var every: Distribution
    /// How long a 429 TooManyProviderTokenUpdates leaves the connection unusable, drawn per 429.
    package var lockout: Distribution
    /// A refresh sooner than this after the previous one is refused with 429.
    package var tooSoon: SimTime
    /// A token older than this is refused with 403 until the next refresh.
    package var lifetime: SimTime

    /// Apple's figures: refresh no more than once every 20 minutes and no less than once an hour.
    package static let appleTooSoon = SimTime(microseconds: 20 * SimTime.minute)
    package static let appleLifetime = SimTime(microseconds: SimTime.hour)
    /// The default lockout: a connection that passed the token-update limit went about 1.5 hours
    /// without answers, as provider libraries' users report (sources in docs/model.md §9).
    package static let defaultLockout = Distribution.constant(SimTime(microseconds: 90 * SimTime.minute))

    package init(every: Distribution, lockout: Distribution = APNsTokenRefresh.defaultLockout,
                 tooSoon: SimTime = APNsTokenRefresh.appleTooSoon, lifetime: SimTime = APNsTokenRefresh.appleLifetime) {
        self.every = every; self.lockout = lockout; self.tooSoon = tooSoon; self.lifetime = lifetime
    }

    /// The most refreshes a run may lay out: the layout's cost stays bounded whatever `every`.
    package static let refreshLimit = 1_000_000
}
