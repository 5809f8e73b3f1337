// Closed forms: where the model has a formula, the simulator must match it within 4 standard
// errors computed from the sample (fixed seeds, devices as independent batches).
import Foundation
import Testing
@testable import PushSimCore
@testable import PushSimExperiment
import PushSimTestSupport

/// The fates of each device's letters in one arm, keeping only the letters `include` accepts
/// (to leave out the edges of a run, where a formula for the stationary regime does not hold).
func fatesPerDevice(_ s: Scenario, arm: Arm,
                    include: (LetterScript, Int) -> Bool = { _, _ in true }) -> [[LetterFate]] {
    var world = DeviceWorld(scenario: s)
    var result: [[LetterFate]] = []
    for d in 0..<s.devices {
        world.prepare(device: d)
        world.run(arm)
        result.append((0..<world.draws.letters.count).filter { include(world.draws.letters, $0) }.map { world.fate(of: $0) })
    }
    return result
}

/// The share of letters whose fate satisfies `predicate`, with its standard error by device.
func share(_ fates: [[LetterFate]], _ predicate: (LetterFate) -> Bool) -> (ratio: Double, se: Double) {
    ratioAndStandardError(numerators: fates.map { Double($0.filter(predicate).count) },
                          denominators: fates.map { Double($0.count) })
}

func isDelivered(_ f: LetterFate) -> Bool { if case .delivered = f { return true } else { return false } }

/// A scenario with every latency zero, so only the rules, not the delays, decide fates.
func instantScenario(_ name: String, duration: Int64, devices: Int) -> Scenario {
    var s = Scenario(name: name, duration: span(duration), devices: devices)
    s.xiva.latency = constant(0)
    s.apns.latency = constant(0)
    s.extension.processing = constant(0)
    return s
}

@Suite struct ClosedFormTests {
    /// Queue off, one-slot store, Poisson letters (rate λ), exponential online / offline periods
    /// (offline rate β = 1/m_off), zero latencies, expiration E. By PASTA a letter finds the device
    /// offline with probability p_off = m_off / (m_on + m_off); from then on the remaining offline
    /// time R ~ Exp(β) and the next letter N ~ Exp(λ) are independent:
    ///   replaced  iff N < min(R, E):  p_off · λ/(λ+β) · (1 − e^{−(λ+β)E})
    ///   expired   iff min(N, R) ≥ E:  p_off · e^{−(λ+β)E}
    ///   delivered otherwise (R < min(N, E)).
    /// Letters in the last 12 h of the run are left out (their next letter may never come).
    @Test(arguments: [SimTime.forever, span(30 * minute)])
    func offlineLossIsReplacementOrExpiry(_ expiration: SimTime) {
        var s = instantScenario("replacement", duration: 20 * day, devices: 150)
        s.queue.mode = .off
        s.mail.ratePerMicrosecond = 1.0 / Double(hour)
        s.connectivity.online = .exponential(mean: Double(3 * hour))
        s.connectivity.offline = .exponential(mean: Double(1 * hour))
        s.apns.expiration = expiration
        let lambda = 1.0, beta = 1.0, pOff = 0.25      // per hour
        let e = expiration.isForever ? Double.infinity : expiration.seconds / 3600
        let survive = exp(-(lambda + beta) * e)
        let expectedReplaced = pOff * lambda / (lambda + beta) * (1 - survive)
        let expectedExpired = pOff * survive

        let horizon = s.duration.microseconds - 12 * hour
        let fates = fatesPerDevice(s, arm: .off) { letters, i in letters[i].time < horizon }
        let replaced = share(fates) { $0 == .lost(.apnsReplaced) }
        let expired = share(fates) { $0 == .lost(.apnsExpired) }
        let lost = share(fates) { !isDelivered($0) }
        report("offline E=\(expiration) replaced", measured: replaced.ratio, se: replaced.se, expected: expectedReplaced)
        #expect(within(replaced.ratio, expectedReplaced, se: replaced.se),
                "replaced \(replaced.ratio) ± \(replaced.se), expected \(expectedReplaced)")
        report("offline E=\(expiration) lost", measured: lost.ratio, se: lost.se, expected: expectedReplaced + expectedExpired)
        #expect(within(lost.ratio, expectedReplaced + expectedExpired, se: lost.se),
                "lost \(lost.ratio) ± \(lost.se), expected \(expectedReplaced + expectedExpired)")
        if expiration.isForever {
            expectEqual(expired.ratio, 0)
        } else {
            report("offline E=\(expiration) expired", measured: expired.ratio, se: expired.se, expected: expectedExpired)
            #expect(within(expired.ratio, expectedExpired, se: expired.se),
                    "expired \(expired.ratio) ± \(expired.se), expected \(expectedExpired)")
        }
    }

    /// Queue on, intended client, always online, each push (first or re-sent) lost with
    /// probability q. A maximal run of L lost pushes is revealed by the next received one. With
    /// R = repeat_max_count, runs with L > R become a summary of the run and the revealing letter;
    /// runs with L ≤ R are re-requested and each re-sent copy gets through with probability 1 − q.
    /// For a letter in the stationary regime, with Σ_{L≥K} L q^L = q^K (K(1−q) + q)/(1−q)²:
    ///   summarized = (1−q)² Σ_{L>R} L q^L + (1−q) q^{R+1} = q^{R+1} (R + 2 − (R+1) q)
    ///   recovered  = A (1−q),  lost = A q,  where A = q − q^{R+1} ((R+1)(1−q) + q)
    ///   delivered  = (1−q)(1 − q^{R+1}) + recovered.
    /// The first and last 30 letters of a device are left out (q^30 ≈ 2·10⁻¹⁶).
    @Test(arguments: [0, 2])
    func gapRecoveryAndSummariesFollowGeometricRuns(_ r: Int) {
        var s = Scenario(name: "runs", duration: span(400 * minute), devices: 150)
        s.queue.mode = .on
        s.queue.repeatMaxCount = r
        s.mail.ratePerMicrosecond = 1.0 / Double(minute)
        let q = 0.3
        s.apns.loss = q
        let qR1 = pow(q, Double(r + 1))
        let expectedSummarized = qR1 * (Double(r) + 2 - Double(r + 1) * q)
        let a = q - qR1 * (Double(r + 1) * (1 - q) + q)
        let expectedLost = a * q
        let expectedDelivered = (1 - q) * (1 - qR1) + a * (1 - q)

        let fates = fatesPerDevice(s, arm: .on) { letters, i in i >= 30 && i < letters.count - 30 }
        let summarized = share(fates) { $0 == .summarized }
        let lost = share(fates) { $0 == .lost(.networkLoss) }
        let delivered = share(fates, isDelivered)
        report("runs R=\(r) summarized", measured: summarized.ratio, se: summarized.se, expected: expectedSummarized)
        #expect(within(summarized.ratio, expectedSummarized, se: summarized.se),
                "R=\(r) summarized \(summarized.ratio) ± \(summarized.se), expected \(expectedSummarized)")
        report("runs R=\(r) delivered", measured: delivered.ratio, se: delivered.se, expected: expectedDelivered)
        #expect(within(delivered.ratio, expectedDelivered, se: delivered.se),
                "R=\(r) delivered \(delivered.ratio) ± \(delivered.se), expected \(expectedDelivered)")
        if a == 0 {
            expectEqual(lost.ratio, 0)
        } else {
            report("runs R=\(r) lost", measured: lost.ratio, se: lost.se, expected: expectedLost)
            #expect(within(lost.ratio, expectedLost, se: lost.se),
                    "R=\(r) lost \(lost.ratio) ± \(lost.se), expected \(expectedLost)")
        }
        // Interior letters have no other way to be lost.
        #expect(abs(delivered.ratio + summarized.ratio + lost.ratio - 1) < 1e-12)
        // Recovered: the first copy was lost, a re-sent one was delivered.
        var world = DeviceWorld(scenario: s)
        var recoveredCounts: [Double] = [], letterCounts: [Double] = []
        for d in 0..<s.devices {
            world.prepare(device: d)
            world.run(.on)
            let interior = 30..<max(30, world.draws.letters.count - 30)
            recoveredCounts.append(Double(interior.filter { world.draws.letters[$0].lostBeforeAPNs && world.letterStates[$0].delivered }.count))
            letterCounts.append(Double(interior.count))
        }
        let recovered = ratioAndStandardError(numerators: recoveredCounts, denominators: letterCounts)
        report("runs R=\(r) recovered", measured: recovered.ratio, se: recovered.se, expected: a * (1 - q))
        if a == 0 {
            expectEqual(recovered.ratio, 0)
        } else {
            #expect(within(recovered.ratio, a * (1 - q), se: recovered.se), "recovered \(recovered.ratio) ± \(recovered.se)")
        }
    }

    /// XIVA drops each letter with probability d, before numbering: the loss rate is d in both
    /// arms, every loss is `xiva_drop`, and the queue cannot see them (no re-requests).
    @Test func xivaDropRateIsTheLossRateInBothArms() {
        var s = Scenario(name: "drops", duration: span(10 * day), devices: 100)
        let d = 0.1
        s.xiva.drop = d
        let result = Simulator.run(s)
        for arm in result.arms {
            let l = arm.ledger
            report("xiva drop queue=\(arm.arm.rawValue)", measured: l.lossRate, se: binomialStandardError(d, l.letters), expected: d)
            expectEqual(l.lost, l.count(of: .xivaDrop))
            #expect(within(l.lossRate, d, se: binomialStandardError(d, l.letters)),
                    "queue \(arm.arm.rawValue): \(l.lossRate) vs \(d)")
            expectEqual(l.reRequests, 0)
        }
        let off = result.arms[0].ledger, on = result.arms[1].ledger
        expectEqual(off.delivered, on.delivered)
        expectEqual(off.lost, on.lost)
        expectEqual(off.latency, on.latency)
    }

    /// Network loss q with the queue off: the loss rate is q, every loss is `network_loss`.
    @Test func networkLossRateIsTheLossRateWithQueueOff() {
        var s = Scenario(name: "network", duration: span(10 * day), devices: 100)
        let q = 0.1
        s.apns.loss = q
        s.queue.mode = .off
        let l = Simulator.run(s).arms[0].ledger
        report("network loss off", measured: l.lossRate, se: binomialStandardError(q, l.letters), expected: q)
        expectEqual(l.lost, l.count(of: .networkLoss))
        #expect(within(l.lossRate, q, se: binomialStandardError(q, l.letters)), "\(l.lossRate) vs \(q)")
    }

    /// One offline window [1h, 7h) of length W, expiration E < W, queue off, zero latencies,
    /// Poisson letters (rate λ). In the window each push replaces the stored one; a stored push
    /// left alone for E expires. A letter at t ≤ end − E is expired iff no letter follows within E;
    /// the last letter of the window survives iff it came within E of the end. Per device:
    ///   E[lost]    = λW − (1 − e^{−λE})
    ///   E[expired] = λ(W − E) e^{−λE}
    @Test func expiryInAFixedWindow() {
        var s = instantScenario("window", duration: 8 * hour, devices: 3_000)
        s.queue.mode = .off
        s.mail.ratePerMicrosecond = 2.0 / Double(hour)
        s.connectivity.windows = [OfflineWindow(start: span(1 * hour), end: span(7 * hour))]
        s.apns.expiration = span(1 * hour)
        let lambda = 2.0, w = 6.0, e = 1.0
        let fates = fatesPerDevice(s, arm: .off)
        let lost = meanAndStandardError(fates.map { Double($0.filter { !isDelivered($0) }.count) })
        let expired = meanAndStandardError(fates.map { Double($0.filter { $0 == .lost(.apnsExpired) }.count) })
        let expectedLost = lambda * w - (1 - exp(-lambda * e))
        let expectedExpired = lambda * (w - e) * exp(-lambda * e)
        report("window lost/device", measured: lost.mean, se: lost.se, expected: expectedLost)
        #expect(within(lost.mean, expectedLost, se: lost.se), "lost \(lost.mean) ± \(lost.se) vs \(expectedLost)")
        report("window expired/device", measured: expired.mean, se: expired.se, expected: expectedExpired)
        #expect(within(expired.mean, expectedExpired, se: expired.se),
                "expired \(expired.mean) ± \(expired.se) vs \(expectedExpired)")
    }

    /// Nights {23h, 31h, every 1d} over a 3-day run, expiration forever, queue off, zero
    /// latencies: in each offline stretch of length L that letters can reach, all but the last
    /// letter are replaced: E[lost] = Σ (λL − (1 − e^{−λL})). The stretches are [0, 7h) (the
    /// night that began before time 0), [23h, 31h), [47h, 55h) and [71h, 72h) (letters stop at
    /// 72h; the device is back at 79h, before the end at 96h).
    @Test func nightsLoseAllButTheLastLetter() {
        var s = instantScenario("nights", duration: 3 * day, devices: 800)
        s.queue.mode = .off
        s.mail.ratePerMicrosecond = 1.0 / Double(hour)
        s.connectivity.windows = [OfflineWindow(start: span(23 * hour), end: span(31 * hour), every: span(1 * day))]
        s.apns.expiration = .forever
        let lambda = 1.0
        let expected = [7.0, 8, 8, 1].reduce(0) { $0 + lambda * $1 - (1 - exp(-lambda * $1)) }
        let fates = fatesPerDevice(s, arm: .off)
        let lost = meanAndStandardError(fates.map { Double($0.filter { !isDelivered($0) }.count) })
        report("nights lost/device", measured: lost.mean, se: lost.se, expected: expected)
        #expect(within(lost.mean, expected, se: lost.se), "lost \(lost.mean) ± \(lost.se) vs \(expected)")
        #expect(fates.joined().allSatisfy { isDelivered($0) || $0 == .lost(.apnsReplaced) })
    }

    /// The literal client on a perfect chain: push 1 saves the position, and every second push
    /// after it looks like a gap of one, so a device with n letters sends ⌊(n − 1)/2⌋ re-requests.
    /// Without collapse each re-sent copy is a duplicate.
    @Test func literalClientReRequestsEveryOtherPush() {
        var s = Scenario(name: "literal", duration: span(3 * day), devices: 200)
        s.queue.mode = .on
        s.queue.client = .literal
        s.queue.collapseId = false
        var world = DeviceWorld(scenario: s)
        var expected = 0
        for d in 0..<s.devices {
            world.prepare(device: d)
            expected += max(0, (world.draws.letters.count - 1) / 2)
        }
        let l = Simulator.run(s).arms[0].ledger
        report("literal re-requests", measured: Double(l.reRequests), se: 0, expected: Double(expected))
        expectEqual(l.reRequests, expected)
        expectEqual(l.resent, expected)
        expectEqual(l.duplicates, expected)
        expectEqual(l.delivered, l.letters)
        s.queue.client = .intended
        expectEqual(Simulator.run(s).arms[0].ledger.reRequests, 0)
    }

    /// Queue on, the same offline process as above, every latency zero, retention and expiration
    /// forever. An offline period of length Exp(β) receives K letters, geometric with
    /// P(K = k) = (1−ρ) ρ^k, ρ = λ/(λ+β); on return the last is delivered and reveals a gap of
    /// K − 1. Gaps ≤ R are re-sent at once and delivered; larger ones are summarized with the
    /// revealing letter, K letters. Per cycle (mean m_on + m_off, λ(m_on + m_off) letters):
    ///   E[summarized] = Σ_{k ≥ R+2} k (1−ρ) ρ^k = ρ^{R+2} ((R+2)(1−ρ) + ρ) / (1−ρ)
    /// and nothing in the stationary regime is lost.
    @Test func queueRecoversOrSummarizesEveryOfflineGap() {
        var s = instantScenario("gaps", duration: 20 * day, devices: 100)
        s.queue.mode = .both
        s.queue.repeatMaxCount = 1
        s.xiva.requestLatency = constant(0)
        s.xiva.resendLatency = constant(0)
        s.xiva.retention = .forever
        s.apns.expiration = .forever
        s.mail.ratePerMicrosecond = 1.0 / Double(hour)
        s.connectivity.online = .exponential(mean: Double(3 * hour))
        s.connectivity.offline = .exponential(mean: Double(1 * hour))
        let lambda = 1.0, beta = 1.0, cycle = 4.0, r = 1.0
        let rho = lambda / (lambda + beta)
        let expected = pow(rho, r + 2) * ((r + 2) * (1 - rho) + rho) / (1 - rho) / (lambda * cycle)
        let interior: (LetterScript, Int) -> Bool = { letters, i in
            letters[i].time >= 12 * hour && letters[i].time < s.duration.microseconds - 12 * hour
        }
        let fates = fatesPerDevice(s, arm: .on, include: interior)
        let summarized = share(fates) { $0 == .summarized }
        report("offline gaps R=1 summarized", measured: summarized.ratio, se: summarized.se, expected: expected)
        #expect(within(summarized.ratio, expected, se: summarized.se),
                "summarized \(summarized.ratio) ± \(summarized.se) vs \(expected)")
        let lost = fates.joined().filter { !isDelivered($0) && $0 != .summarized }
        #expect(lost.isEmpty, "\(lost.prefix(5))")
        // Off arm, same letters: the replaced share of the first closed form.
        let off = share(fatesPerDevice(s, arm: .off, include: interior)) { $0 == .lost(.apnsReplaced) }
        #expect(within(off.ratio, 0.125, se: off.se))
    }

    /// Display off on a share a of devices, network loss q, always online: in the queue arm the
    /// lost letters of display-off devices are `alerts_off` (share a·q), the others are all
    /// recovered but for a re-sent copy lost again (share (1−a)·q², R large, interior letters).
    @Test func alertsOffShareIsDisplayOffTimesLoss() {
        var s = Scenario(name: "alerts", duration: span(2 * day), devices: 400)
        s.queue.mode = .on
        s.mail.ratePerMicrosecond = 100.0 / Double(day)
        s.device.alertsOff = 0.3
        s.apns.loss = 0.2
        let a = 0.3, q = 0.2
        let fates = fatesPerDevice(s, arm: .on) { letters, i in i >= 20 && i < letters.count - 20 }
        let alertsOff = share(fates) { $0 == .lost(.alertsOff) }
        let network = share(fates) { $0 == .lost(.networkLoss) }
        report("alerts off share", measured: alertsOff.ratio, se: alertsOff.se, expected: a * q)
        report("re-sent copy lost share", measured: network.ratio, se: network.se, expected: (1 - a) * q * q)
        #expect(within(alertsOff.ratio, a * q, se: alertsOff.se), "\(alertsOff.ratio) ± \(alertsOff.se)")
        #expect(within(network.ratio, (1 - a) * q * q, se: network.se), "\(network.ratio) ± \(network.se)")
    }

    /// Queue off, always online: a push times out iff its processing exceeds the deadline D.
    /// With processing lognormal(median, p99), σ = ln(p99/median)/z₉₉:
    ///   P(time-out) = 1 − Φ(ln(D/median)/σ).
    @Test func extensionTimeoutShareIsTheProcessingTailBeyondTheDeadline() {
        var s = Scenario(name: "timeouts", duration: span(5 * day), devices: 100)
        s.queue.mode = .off
        s.extension.processing = .lognormal(median: Double(5 * sec), p99: Double(60 * sec))
        s.extension.deadline = span(30 * sec)
        let sigma = log(60.0 / 5) / Distribution.z99
        let expected = 0.5 * erfc(log(30.0 / 5) / sigma / 2.0.squareRoot())
        let l = Simulator.run(s).arms[0].ledger
        let measured = Double(l.extensionTimeouts) / Double(l.pushesSeenByExtensions)
        let se = binomialStandardError(expected, l.pushesSeenByExtensions)
        report("timeout share", measured: measured, se: se, expected: expected)
        #expect(within(measured, expected, se: se), "\(measured) vs \(expected)")
        expectEqual(l.delivered, l.letters)
    }

    /// Queue off, always online, latency = c + Exp(m) with c the constant XIVA latency and
    /// processing: the p-quantile is c + m·ln(1/(1−p)). A sample quantile's standard error is
    /// √(p(1−p)/n) / f(x_p) = m √(p/((1−p)n)); the histogram adds at most 1/256 of the value.
    @Test func latencyPercentilesOfExponentialAPNsLatency() {
        var s = Scenario(name: "latency", duration: span(10 * day), devices: 100)
        s.queue.mode = .off
        s.apns.latency = .exponential(mean: Double(2 * sec))
        let c = Double(250 * ms), m = Double(2 * sec)
        let l = Simulator.run(s).arms[0].ledger
        let n = Double(l.delivered)
        for p in [0.5, 0.9, 0.99] {
            let expected = c + m * log(1 / (1 - p))
            let se = m * (p / ((1 - p) * n)).squareRoot()
            let measured = Double(l.latency.percentile(p))
            report("latency p\(p) (us)", measured: measured, se: se, expected: expected)
            #expect(abs(measured - expected) <= 4 * se + expected / 256, "p\(p): \(measured) vs \(expected)")
        }
    }

    /// The literal client on a perfect chain with collapse and clear_after = Exp(c): the copy
    /// re-sent for letter k is presented G + d after letter k itself, where G ~ Exp(λ) is the
    /// time to the next letter and d = 0.8 s the fixed latencies between them. It is a duplicate
    /// iff the user cleared letter k first:
    ///   P(duplicate) = P(C < G + d) = 1 − e^{−d/c} · λ/(λ + 1/c).
    @Test func duplicateShareIsTheChanceOfClearingBeforeTheCopy() {
        var s = Scenario(name: "clear", duration: span(5 * day), devices: 200)
        s.queue.mode = .on
        s.queue.client = .literal
        s.device.clearAfter = .exponential(mean: Double(1 * hour))
        let lambda = 40.0 / 24, c = 1.0, d = 0.8 / 3600   // per hour, hours
        let expected = 1 - exp(-d / c) * lambda / (lambda + 1 / c)
        let l = Simulator.run(s).arms[0].ledger
        let measured = Double(l.duplicates) / Double(l.reRequests)
        let se = binomialStandardError(expected, l.reRequests)
        report("duplicates per needless re-request", measured: measured, se: se, expected: expected)
        #expect(within(measured, expected, se: se), "\(measured) vs \(expected)")
    }
}
