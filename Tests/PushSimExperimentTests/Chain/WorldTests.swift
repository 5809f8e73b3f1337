// Whole runs: common random numbers across arms, accounting identities, determinism, the end.
import Foundation
import Testing
@testable import PushSimCore
@testable import PushSimExperiment
import PushSimTestSupport

/// A random but valid scenario: every knob of the contract moved, small enough to run quickly.
func randomScenario(_ k: UInt64) -> Scenario {
    var rng = RandomStream(seed: 1_000 + k)
    func pick<T>(_ xs: [T]) -> T { xs[Int(rng.next() % UInt64(xs.count))] }
    var s = Scenario(name: "random-\(k)", duration: span(pick([Int64(1), 2, 3]) * day), devices: 12)
    s.seed = k
    s.drain = span(pick([Int64(0), 1 * hour, 1 * day]))
    s.mail.ratePerMicrosecond = pick([10.0, 40, 200]) / Double(day)
    if rng.chance(0.7) {
        s.connectivity.online = pick([Distribution.exponential(mean: Double(3 * hour)), .uniform(min: Double(1 * hour), max: Double(6 * hour)),
                                      constant(2 * hour)])
        s.connectivity.offline = pick([Distribution.exponential(mean: Double(40 * minute)), .lognormal(median: Double(20 * minute), p99: Double(5 * hour)),
                                       constant(30 * minute)])
    }
    if rng.chance(0.5) {
        s.connectivity.windows = [OfflineWindow(start: span(23 * hour), end: span(31 * hour), every: span(1 * day))]
    }
    s.xiva.drop = pick([0, 0.02, 0.2])
    s.xiva.latency = pick([constant(50 * ms), Distribution.exponential(mean: Double(2 * sec))])
    s.xiva.retention = pick([span(10 * minute), span(3 * day), SimTime.forever])
    s.xiva.requestLatency = pick([constant(300 * ms), Distribution.uniform(min: 0, max: Double(40 * sec))])
    s.xiva.requestError = pick([0, 0.1, 1])
    s.xiva.resendLatency = pick([constant(200 * ms), Distribution.exponential(mean: Double(5 * sec))])
    s.apns.loss = pick([0, 0.05, 0.5])
    s.apns.latency = pick([constant(100 * ms), Distribution.lognormal(median: Double(300 * ms), p99: Double(30 * sec))])
    s.apns.expiration = pick([SimTime.zero, span(1 * hour), span(1 * day), .forever])
    s.device.alertsOff = pick([0, 0.3])
    s.device.clearAfter = pick([Distribution?.none, .exponential(mean: Double(10 * minute))])
    s.extension.deadline = pick([span(30 * sec), span(5 * sec), SimTime.forever])
    s.extension.processing = pick([constant(200 * ms), Distribution.lognormal(median: Double(1 * sec), p99: Double(40 * sec))])
    s.queue.repeatMaxCount = pick([0, 1, 10, 100])
    s.queue.collapseId = rng.chance(0.5)
    s.queue.client = pick([ClientVariant.intended, .literal])
    return s
}

@Suite struct WorldTests {
    /// Section 3: every letter in exactly one state, causes adding up, on scenarios of every kind.
    @Test(arguments: 0..<Int(ProcessInfo.processInfo.environment["PUSHSIM_FUZZ"] ?? "24")!)
    func accountingIdentitiesHoldOnRandomScenarios(_ k: Int) {
        let s = randomScenario(UInt64(k))
        let result = Simulator.run(s, jobs: 1)
        expectEqual(result.arms.count, 2)
        for arm in result.arms {
            #expect(arm.ledger.identitiesHold, "\(s.name) queue \(arm.arm.rawValue)")
        }
        let off = result.arms[0].ledger, on = result.arms[1].ledger
        expectEqual(result.arms.map(\.arm), [.off, .on])
        // The off arm never uses queue-only causes, never re-requests or summarizes.
        for cause in LossCause.allCases where cause.isQueueOnly { expectEqual(off.count(of: cause), 0, "\(cause.key)") }
        expectEqual(off.summarized, 0)
        expectEqual(off.reRequests, 0)
        expectEqual(off.resent, 0)
        expectEqual(off.summaries, 0)
        // Common random numbers: the same letters and the same drops in both arms.
        expectEqual(off.letters, on.letters)
        expectEqual(off.count(of: .xivaDrop), on.count(of: .xivaDrop))
        // Re-sent copies only come from answered re-requests.
        #expect(on.resent <= on.missedInGaps)
        #expect(on.reRequests <= on.gapsDetected)
        // Only re-sent copies can present a letter twice; each summary has its own current letter.
        expectEqual(off.duplicates, 0)
        #expect(on.duplicates <= on.resent)
        #expect(on.summarized >= on.summaries)
        #expect(on.extensionTimeouts <= on.pushesSeenByExtensions && off.extensionTimeouts <= off.pushesSeenByExtensions)
    }

    @Test func bothArmsSeeTheSameLetters() {
        var s = Scenario(name: "crn", duration: span(2 * day), devices: 30)
        s.connectivity.online = .exponential(mean: Double(3 * hour))
        s.connectivity.offline = .exponential(mean: Double(40 * minute))
        s.xiva.drop = 0.1
        s.apns.loss = 0.1
        var world = DeviceWorld(scenario: s)
        for d in 0..<s.devices {
            world.prepare(device: d)
            let letters = world.draws.letters.map(\.time), flips = world.draws.timeline.flips
            world.run(.off)
            world.run(.on)
            expectEqual(world.draws.letters.map(\.time), letters)
            expectEqual(world.draws.timeline.flips, flips)
        }
        let result = Simulator.run(s)
        expectEqual(result.arms[0].ledger.letters, result.arms[1].ledger.letters)
        expectEqual(result.arms[0].ledger.count(of: .xivaDrop), result.arms[1].ledger.count(of: .xivaDrop))
        // Adding the queue arm does not move the off arm: its ledger is the same run alone.
        var offOnly = s
        offOnly.queue.mode = .off
        expectEqual(Simulator.run(offOnly).arms[0].ledger, result.arms[0].ledger)
    }

    /// Nothing the queue can add on a perfect chain: both arms deliver every letter alike.
    @Test func armsAgreeWhenNothingIsLost() {
        let s = Scenario(name: "perfect", duration: span(2 * day), devices: 20)
        let result = Simulator.run(s)
        let off = result.arms[0].ledger, on = result.arms[1].ledger
        expectEqual(off.delivered, off.letters)
        expectEqual(on.delivered, on.letters)
        expectEqual(off.latency, on.latency)
        expectEqual(on.reRequests, 0)
    }

    @Test func sameSeedSameResultAndJobsNeverChangeIt() {
        let s = randomScenario(3)
        let one = Simulator.run(s, jobs: 1)
        expectEqual(Simulator.run(s, jobs: 1), one)
        expectEqual(Simulator.run(s, jobs: 3), one)
        // Shards add up to the whole run.
        var shard = Simulator.run(s, devices: 0..<5)
        shard.merge(Simulator.run(s, devices: 5..<s.devices))
        expectEqual(shard.arms, one.arms)
        var other = s
        other.seed = 99
        #expect(Simulator.run(other).arms != one.arms)
    }

    /// Rule 10: what is still stored or in transit at duration + drain is unfinished.
    @Test func unfinishedAtEndOfRun() {
        var s = tinyScenario(duration: 2 * hour, drain: 1 * hour)
        s.apns.expiration = .forever
        // Letter 0 stored (offline until after the end); letter 1 still on its way to the device.
        var w = ScriptedWorld(s, letters: [
            ScriptedLetter(time: 30 * minute), ScriptedLetter(time: 100 * minute, apnsLatency: 2 * hour),
        ], offline: [20 * minute..<60 * minute, 90 * minute..<4 * hour])
        // Letter 0 is flushed at 1h and shown; then check the stored case with a second script.
        let off = w.run(.off)
        expectEqual(w.fate(0), .delivered(latency: 30 * minute + 300 * ms))
        expectEqual(w.fate(1), .lost(.unfinished))
        expectEqual(off.count(of: .unfinished), 1)
        w = ScriptedWorld(s, letters: [ScriptedLetter(time: 100 * minute)], offline: [90 * minute..<4 * hour])
        for arm in Arm.allCases {
            w.run(arm)
            expectEqual(w.fate(0), .lost(.unfinished))
        }
        // A stored push whose expiry has passed by the end is expired, not unfinished.
        s.apns.expiration = span(30 * minute)
        w = ScriptedWorld(s, letters: [ScriptedLetter(time: 100 * minute)], offline: [90 * minute..<4 * hour])
        w.run(.off)
        expectEqual(w.fate(0), .lost(.apnsExpired))
        // A pending re-request's gap is unfinished.
        var q = tinyScenario(duration: 2 * hour, drain: 1 * hour)
        q.xiva.requestLatency = constant(3 * hour)
        q.extension.deadline = .forever
        w = ScriptedWorld(q, letters: [ScriptedLetter(time: 0), ScriptedLetter(time: 1 * minute, lost: true),
                                       ScriptedLetter(time: 2 * minute)])
        let on = w.run(.on)
        expectEqual(w.fate(1), .lost(.unfinished))
        expectEqual(w.fate(2), .lost(.unfinished))
        expectEqual(on.reRequests, 1)
    }

    /// Tracing a device changes nothing: its ledger is the one the run counts for it.
    @Test func traceSeesTheSameRunAsTheSimulator() {
        let s = randomScenario(5)
        for device in 0..<3 {
            for arm in Arm.allCases {
                let traced = Simulator.trace(s, device: device, arm: arm)
                expectEqual(traced.ledger, Simulator.simulate(s, devices: device..<device + 1, arms: [arm])[0])
                #expect(zip(traced.entries, traced.entries.dropFirst()).allSatisfy { $0.time <= $1.time })
            }
        }
    }
}
