// Decoding `apns.token_refresh` (docs/scenarios.md §2a, XIVA's provider token): how often the token is refreshed, the lockout after a 429, Apple's two limits.
import PushSimCore

extension ScenarioDecoder {
    /// `apns.token_refresh: {every, lockout, too_soon, lifetime}`; `every` is required and its
    /// mean may not lay out more than ``APNsTokenRefresh/refreshLimit`` refreshes over the run.
    static func tokenRefresh(_ apns: Fields, into scenario: inout Scenario) throws {
        guard let node = apns.value("token_refresh") else { return }
        let path = apns.fullPath("token_refresh")
        let fields = try Fields(node, path: path, keys: ScenarioSchema.tokenRefreshKeys)
        let runEnd = Double(scenario.end.microseconds)
        let every = try value(fields.required("every", example: "every: uniform(20m, 60m)"), path + ".every", "a distribution") { (t) throws(ValueParsers.Failure) in
            let law = try ValueParsers.distribution(t)
            // Each refresh is kept as the run's layout: a mean that would lay out more is refused.
            guard law.mean > 0, runEnd / law.mean <= Double(APNsTokenRefresh.refreshLimit) else {
                throw ValueParsers.Failure("expected a distribution whose mean refreshes the token at most \(APNsTokenRefresh.refreshLimit) times over the run, found `\(t)`")
            }
            return law
        }
        var refresh = APNsTokenRefresh(every: every)
        try fields.decode("lockout", "a distribution", ValueParsers.distribution) { refresh.lockout = $0 }
        try fields.decode("too_soon", "a duration", ValueParsers.duration) { refresh.tooSoon = $0 }
        try fields.decode("lifetime", "a duration greater than 0", { (t) throws(ValueParsers.Failure) in
            let lifetime = try ValueParsers.duration(t)
            guard lifetime.microseconds > 0 else { throw ValueParsers.Failure("expected a duration greater than 0, found `\(t)`") }
            return lifetime
        }) { refresh.lifetime = $0 }
        scenario.apns.tokenRefresh = refresh
    }
}
