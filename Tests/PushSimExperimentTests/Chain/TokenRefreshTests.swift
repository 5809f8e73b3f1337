// XIVA's provider token on hand-built letters and laid-out runs: a 429 locks the connection for its drawn time, a 403 refuses until the next refresh, the share of expired time in closed form, the file's keys.
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
@testable import PushSimExperiment
import PushSimTestSupport

@Suite struct TokenRefreshTests {
    private func withRefresh(_ refresh: APNsTokenRefresh, attempts: Int = 1, backoff: Int64 = 10 * minute) -> Scenario {
        var s = tinyScenario()
        s.xiva.requestError = 0
        s.apns.tokenRefresh = refresh
        if attempts > 1 { s.xiva.retry = XivaRetry(attempts: attempts, backoff: constant(backoff)) }
        return s
    }

    /// Refreshed every 90 minutes where 2 hours would be too soon, each refresh is answered 429
    /// and locks the connection for its 30 minutes: [90k, 90k + 30) minutes, k ≥ 1, and nothing else.
    @Test func everyRefreshTooSoonLocksTheConnectionForItsLockout() {
        let refresh = APNsTokenRefresh(every: constant(90 * minute), lockout: constant(30 * minute),
                                       tooSoon: span(2 * hour), lifetime: span(3 * hour))
        let laid = refresh.failures(seed: 7, runEnd: span(10 * hour))
        let expected = (1...6).map { k in (Int64(k) * 90 * minute ..< Int64(k) * 90 * minute + 30 * minute) }
        expectEqual(laid.map(\.interval), expected)
        #expect(laid.allSatisfy { $0.failure == .tooManyUpdates })
    }

    /// Refreshed every 90 minutes with a one-hour lifetime, the token is expired from 60 to 90
    /// minutes after each refresh: [90k + 60, 90k + 90) minutes, and no refresh is too soon.
    @Test func aTokenOutlivingItsLifetimeIsExpiredUntilTheNextRefresh() {
        let laid = APNsTokenRefresh(every: constant(90 * minute)).failures(seed: 7, runEnd: span(10 * hour))
        let expected = (0..<7).map { k in (Int64(k) * 90 * minute + 60 * minute ..< Int64(k + 1) * 90 * minute) }
        expectEqual(laid.map(\.interval), expected)
        #expect(laid.allSatisfy { $0.failure == .expired })
    }

    /// A 429's lockout refuses every request in it; XIVA's retries deliver each push with the
    /// first send after the lockout, ⌈(end − a) / backoff⌉ refusals after its first arrival a.
    @Test func aLockoutRefusesEverythingAndRetriesDeliverAfterIt() {
        let refresh = APNsTokenRefresh(every: constant(90 * minute), lockout: constant(30 * minute),
                                       tooSoon: span(2 * hour), lifetime: span(3 * hour))
        let backoff = 7 * minute
        let times = [30 * minute, 90 * minute, 100 * minute, 119 * minute, 2 * hour + 1 * minute, 3 * hour + 10 * minute]
        var w = ScriptedWorld(withRefresh(refresh, attempts: 100, backoff: backoff), letters: times.map(letterAt))
        let met = times.map { t -> Int64 in
            let a = t + 50 * ms
            return refusals(arrival: a, start: 90 * minute, end: 2 * hour, backoff: backoff)
                + refusals(arrival: a, start: 3 * hour, end: 3 * hour + 30 * minute, backoff: backoff)
        }
        let refused = Int(met.reduce(0, +))
        let off = w.run(.off)
        expectEqual(w.fates(), met.map { .delivered(latency: $0 * backoff + 350 * ms) }, "\(w.traceText)")
        expectEqual(off.tokenRefresh.tooManyUpdates, refused)
        expectEqual(off.tokenRefresh.expired, 0)
        #expect(off.provider.retries == refused && off.apns.refused == refused && off.identitiesHold)
        #expect(w.traceText.contains("429 TooManyProviderTokenUpdates (connection unusable)"))
        let on = w.run(.on)
        #expect(on.delivered == times.count && on.identitiesHold)
    }

    /// Without retries a push refused while the token is expired is lost with its own cause,
    /// and one refused in a lockout with the other; before and after, nothing changes.
    @Test func withoutRetriesEachFailureHasItsOwnCause() {
        var expired = ScriptedWorld(withRefresh(APNsTokenRefresh(every: constant(90 * minute))),
                                    letters: [letterAt(30 * minute), letterAt(70 * minute), letterAt(95 * minute)])
        let e = expired.run(.off)
        expectEqual(expired.fates(), [.delivered(latency: 350 * ms), .lost(.expiredProviderToken), .delivered(latency: 350 * ms)])
        expectEqual(e.tokenRefresh.expired, 1)
        expectEqual(e.count(of: .expiredProviderToken), 1)
        expectEqual(e.apns.refused, 1)
        #expect(expired.traceText.contains("403 ExpiredProviderToken"))
        let refresh = APNsTokenRefresh(every: constant(90 * minute), lockout: constant(30 * minute),
                                       tooSoon: span(2 * hour), lifetime: span(3 * hour))
        var locked = ScriptedWorld(withRefresh(refresh), letters: [letterAt(95 * minute)])
        let l = locked.run(.off)
        expectEqual(locked.fates(), [.lost(.tooManyTokenUpdates)])
        expectEqual(l.count(of: .tooManyTokenUpdates), 1)
    }

    /// With intervals uniform on [0, 80 min) and a one-hour lifetime (no lockout), the share of
    /// time the token is expired is E[(d − 60)⁺] / E[d] = (20² / 2 / 80) / 40 = 1/16.
    @Test func theShareOfExpiredTimeIsTheClosedForm() {
        let refresh = APNsTokenRefresh(every: .uniform(min: 0, max: Double(80 * minute)), lockout: constant(0))
        let runEnd = 2000 * day
        let laid = refresh.failures(seed: 11, runEnd: span(runEnd))
        let expired = laid.filter { $0.failure == .expired }.reduce(Int64(0)) { $0 + min($1.interval.upperBound, runEnd) - $1.interval.lowerBound }
        // n ≈ runEnd / 40 min refreshes; the share's standard error from the per-refresh variance
        // of (d − 60)⁺ − d/16: below 0.5 / √n, so 4 of them is a generous bound.
        let n = Double(runEnd) / Double(40 * minute)
        #expect(abs(Double(expired) / Double(runEnd) - 1.0 / 16) < 4 * 0.5 / n.squareRoot() / 40 * 20)
        #expect(laid.allSatisfy { $0.failure == .expired })
        // Nothing overlaps, and the layout is the seed's alone.
        #expect(zip(laid, laid.dropFirst()).allSatisfy { $0.interval.upperBound <= $1.interval.lowerBound })
        expectEqual(refresh.failures(seed: 11, runEnd: span(runEnd)).map(\.interval), laid.map(\.interval))
    }

    /// The run's layout is the same for every segment (one connection), none on FCM.
    @Test func theLayoutIsTheRunsAndFCMIsNotConcerned() throws {
        let s = try ScenarioLoader.parse(text: """
            name: seg
            duration: 2d
            devices: 10
            apns: {token_refresh: {every: uniform(5m, 80m), lockout: uniform(10m, 1h)}}
            segments:
              - {name: a, share: 50%}
              - {name: b, share: 50%, channel: fcm}
            """, file: "t.yaml")
        let a = ChainParameters(s.scenario(forSegment: 0))
        #expect(a.hasTokenFailures && a.tokenFailures.contains { $0.failure == .expired } && a.tokenFailures.contains { $0.failure == .tooManyUpdates })
        expectEqual(a.tokenFailures.map(\.interval), ChainParameters(s.scenario(forSegment: 0)).tokenFailures.map(\.interval))
        #expect(!ChainParameters(s.scenario(forSegment: 1)).hasTokenFailures)
    }

    /// The keys: read, printed back, and each mistake a located error.
    @Test func theKeysAreReadPrintedBackAndChecked() throws {
        let text = minimalScenario + "apns:\n  token_refresh: {every: uniform(10m, 70m), lockout: 2h, too_soon: 15m, lifetime: 50m}\n"
        let sc = try ScenarioLoader.parse(text: text, file: "t.yaml")
        #expect(sc.apns.tokenRefresh == APNsTokenRefresh(every: .uniform(min: Double(10 * minute), max: Double(70 * minute)),
                                                         lockout: constant(2 * hour), tooSoon: span(15 * minute), lifetime: span(50 * minute)))
        try expectEqual(ScenarioLoader.parse(text: ScenarioPrinter.yaml(sc), file: "t.yaml").apns.tokenRefresh, sc.apns.tokenRefresh)
        #expect(!ScenarioPrinter.yaml(try ScenarioLoader.parse(text: minimalScenario, file: "t.yaml")).contains("token_refresh"))
        func failure(_ mapping: String, _ extra: String = "") -> (String, String) {
            let error = scenarioError(minimalScenario + "apns:\n  token_refresh: " + mapping + "\n" + extra)
            return (place(error), error?.message ?? "no error")
        }
        #expect(failure("{lockout: 1h}").1.contains("missing required key `every` in `apns.token_refresh`"))
        let (manyPlace, many) = failure("{every: 10us}")
        #expect(manyPlace == "t.yaml:5:26" && many.contains("`apns.token_refresh.every`") && many.contains("at most 1000000 times"))
        #expect(failure("{every: 30m, lifetime: 0}").1.contains("`apns.token_refresh.lifetime`: expected a duration greater than 0"))
        #expect(failure("{every: 30m, lockuot: 1h}").1.contains("did you mean `lockout`?"))
        let (binaryPlace, binary) = failure("{every: 30m}", "  interface: binary\n")
        #expect(binaryPlace == "t.yaml:5:3" && binary.contains("`apns.token_refresh`: the binary interface answers only errors"))
    }

    /// The shortcuts' invariants still hold with the token failing: every step as an event gives the same ledgers.
    @Test func shortcutsChangeNothingWithTokenFailures() throws {
        let s = try ScenarioLoader.parse(text: """
            name: token
            duration: 2d
            devices: 12
            mail: {rate: 80/d}
            connectivity: {online: exponential(3h), offline: exponential(40m)}
            apns:
              loss: 5%
              latency: lognormal(100ms, 5s)
              token_refresh: {every: uniform(5m, 80m), lockout: uniform(10m, 1h)}
            xiva: {retry: {attempts: 4, backoff: exponential(20m)}}
            """, file: "t.yaml")
        #expect(ShortcutsPerMechanismTests.disagreement(s) == nil)
        let run = Simulator.simulateSegments(s, devices: 0..<s.devices, arms: s.arms, shortcuts: .taken)
        for ledger in run.totals {
            #expect(ledger.identitiesHold && ledger.tokenRefresh.tooManyUpdates > 0 && ledger.tokenRefresh.expired > 0)
        }
    }
}
