// XIVA's provider token (apns.token_refresh): refreshed too often, the connection is unusable for a while (429); too late, every request is refused until the next refresh (403).

/// Why every request over XIVA's connection is refused in a stretch of time.
package enum TokenFailure: UInt8, Sendable {
    /// 429 TooManyProviderTokenUpdates: the token was refreshed too soon after the previous
    /// one, and the connection takes nothing for the drawn lockout.
    case tooManyUpdates
    /// 403 ExpiredProviderToken: the token outlived its lifetime before the next refresh.
    case expired
}

extension APNsTokenRefresh {
    /// The stretches of the run in which XIVA's token fails (docs/model.md §9, Provider
    /// tokens), disjoint and in time order. The token is fresh at 0; each refresh draws its
    /// interval from `every` (and, when it comes sooner than `tooSoon`, the lockout it causes),
    /// from the run's stream `tokenRefresh`: the same for every phone, arm and shard. An interval
    /// longer than `lifetime` leaves the token expired from `lifetime` after the refresh until the
    /// next; a lockout starts at the refresh that caused it. Where two stretches meet, the
    /// earlier holds until its end. At most ``refreshLimit`` refreshes are laid out.
    package func failures(seed: UInt64, runEnd: SimTime) -> [(interval: Range<Int64>, failure: TokenFailure)] {
        var rng = RandomStream(seed: seed, device: -1, purpose: .tokenRefresh)
        let every = self.every.sampler, lockout = self.lockout.sampler
        let end = runEnd.microseconds
        var out: [(interval: Range<Int64>, failure: TokenFailure)] = []
        func add(_ start: Int64, _ stop: Int64, _ failure: TokenFailure) {
            let from = max(start, out.last?.interval.upperBound ?? Int64.min)
            if from < stop { out.append((from ..< stop, failure)) }
        }
        func plus(_ a: Int64, _ b: Int64) -> Int64 {
            let (sum, overflow) = a.addingReportingOverflow(max(0, b))
            return overflow ? Int64.max : sum
        }
        var refreshed: Int64 = 0
        var refreshes = 0
        while refreshed < end && refreshes < APNsTokenRefresh.refreshLimit {
            refreshes += 1
            let interval = max(0, every.sample(&rng))
            let next = plus(refreshed, interval)
            if interval > lifetime.microseconds { add(plus(refreshed, lifetime.microseconds), next, .expired) }
            if interval < tooSoon.microseconds && next < end { add(next, plus(next, lockout.sample(&rng)), .tooManyUpdates) }
            refreshed = next
        }
        return out
    }
}

extension DeviceWorld {
    /// The token's failure at `arrival`, if XIVA's token fails then.
    func tokenFailure(at arrival: Int64) -> TokenFailure? {
        let laid = parameters.tokenFailures
        return laid.index(holding: arrival, { $0.interval }).map { laid[$0].failure }
    }

    /// A request of XIVA reaching APNs while its token fails: refused with 429 (the connection
    /// unusable) or 403 (the token expired), and retried as any refusal; after the last attempt
    /// the copy is lost as `too_many_token_updates` or `expired_provider_token`. Whether it was
    /// refused (true) is the caller's answer.
    @inline(never) mutating func tokenRefuses(copy c: CopyIndex, at arrival: Int64) -> Bool {
        guard let failure = tokenFailure(at: arrival) else { return false }
        let letter = copies[c].letter.offset
        switch failure {
        case .tooManyUpdates:
            ledger.tokenRefresh.tooManyUpdates += counted(letter)
            retryOrGiveUp(copy: c, at: arrival, .tooManyTokenUpdates, .refused(answer: "429 TooManyProviderTokenUpdates (connection unusable)"))
        case .expired:
            ledger.tokenRefresh.expired += counted(letter)
            retryOrGiveUp(copy: c, at: arrival, .expiredProviderToken, .refused(answer: "403 ExpiredProviderToken"))
        }
        return true
    }
}
