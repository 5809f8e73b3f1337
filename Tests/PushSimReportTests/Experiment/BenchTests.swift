// Tests of the bench's report and baseline check on a tiny ladder (no timing is asserted).
import Foundation
import Testing
@testable import PushSimCore
@testable import PushSimExperiment
@testable import PushSimReport
import PushSimTestSupport

@Suite struct BenchTests {
    static let tiny = [BenchRung(devices: 20, days: 1), BenchRung(devices: 60, days: 1)]

    @Test func reportCarriesEveryFigurePerRung() throws {
        let report = try BenchReport.run(ladder: BenchTests.tiny, repetitions: 2, parallelJobs: 2)
        expectEqual(report.rungs.count, 2)
        expectEqual(report.parallel?.jobs, 2)
        guard case .object(let top) = report.json, case .array(let rungs)? = top["rungs"] else {
            Issue.record("no rungs"); return
        }
        for key in ["goals", "reference_simpy", "parallel", "repetitions", "command"] { #expect(top[key] != nil, "\(key)") }
        for case .object(let rung) in rungs {
            for key in ["name", "devices", "events", "events_per_s", "ns_per_event", "letters_per_s", "peak_rss_bytes",
                        "bytes_per_device", "seconds", "seconds_median", "repetitions"] {
                #expect(rung[key] != nil, "\(key)")
            }
            expectEqual(rung["repetitions"], .int(2))
        }
        // Work is deterministic even though time is not: same events in every repetition and thread count.
        for r in report.rungs { #expect(Set(r.samples.map(\.events)).count == 1 && r.events > 0) }
        expectEqual(report.parallel?.events, report.rungs.last?.events)
        #expect(report.table.contains("events/s"))
        // The SimPy figure is the peer's measurement, printed with where it was made.
        #expect(report.table.hasSuffix(SimPyReference.line + "\n") && report.table.contains(SimPyReference.measuredBy))
        #expect(!report.table.contains("issue"))
        if case .object(let simpy)? = top["reference_simpy"] {
            expectEqual(simpy["measured_by"], .string(SimPyReference.measuredBy))
            expectEqual(simpy["letters_per_s"], .int(Int(SimPyReference.lettersPerSecond)))
        } else { Issue.record("no reference_simpy") }
    }

    @Test func baselineComparisonUsesTheTolerance() throws {
        let report = try BenchReport.run(ladder: [BenchRung(devices: 10, days: 1)], repetitions: 1, parallelJobs: 1)
        let now = report.rungs[0].lettersPerSecond
        func baseline(_ lettersPerSecond: Double) -> String {
            "{\"rungs\": [{\"name\": \"10x1d\", \"letters_per_s\": \(Int(lettersPerSecond))}]}"
        }
        let faster = try report.compare(baselineText: baseline(now * 2), source: "b", tolerancePercent: 10)
        #expect(faster.count == 1 && faster[0].regressed)
        let same = try report.compare(baselineText: baseline(now * 1.05), source: "b", tolerancePercent: 10)
        #expect(!same[0].regressed)
        #expect(throws: BenchBaselineError.self) { _ = try report.compare(baselineText: "{}", source: "b", tolerancePercent: 10) }
        #expect(throws: BenchBaselineError.self) {
            _ = try report.compare(baselineText: "{\"rungs\": [{\"name\": \"1M\", \"letters_per_s\": 5}]}", source: "b", tolerancePercent: 10)
        }
    }

    @Test func rungNamesAndMedians() {
        expectEqual(BenchRung(devices: 1_000).name, "1k")
        expectEqual(BenchRung(devices: 1_000_000).name, "1M")
        expectEqual(BenchRung(devices: 250, days: 3).name, "250x3d")
        expectEqual(Bench.median([3, 1, 2]), 2)
        expectEqual(Bench.median([4, 1, 2, 3]), 2.5)
        expectEqual(Bench.median([]), 0)
        expectEqual(BenchRung.ladder().map(\.devices), [1_000, 10_000, 100_000])
        expectEqual(BenchRung.ladder(million: true).last?.devices, 1_000_000)
    }

    /// The hot path's rounding must give exactly what `rounded()` gives, or results change.
    @Test func fastRoundingEqualsLibmRounding() {
        var rng = RandomStream(seed: 99)
        var values: [Double] = [0.5, 1.5, 2.5, 0.49999999999999994, 4503599627370495.5, 4503599627370497,
                                9.1e18, 1e-300, 123456.49999999999, 7.5, 8.5,
                                2251799813685247.5, 2251799813685246.5, 2251799813685248.5, 2251799813685249]
        for _ in 0..<200_000 {
            let magnitude = pow(10.0, Double(rng.next() % 19))
            values.append(rng.nextUnit() * magnitude)
            values.append(Double(rng.next() % 1_000_000) + 0.5)
        }
        for v in values where v > 0 && v < 9.2e18 {
            expectEqual(SimTime.rounding(v).microseconds, Int64(v.rounded()), "\(v)")
        }
    }

    /// The sampler's cached sigma gives the very draws of `Distribution.sample`.
    @Test func samplerDrawsEqualDistributionDraws() {
        for d in [Distribution.lognormal(median: 150_000, p99: 3_000_000), .exponential(mean: 3_600_000_000),
                  .uniform(min: 5, max: 900), .constant(SimTime(microseconds: 42))] {
            var a = RandomStream(seed: 7), b = RandomStream(seed: 7)
            let sampler = d.sampler
            for _ in 0..<10_000 { expectEqual(sampler.sample(&a), d.sample(&b).microseconds) }
        }
    }
}

@Suite struct RealisticBenchTests {
    /// The version-2 rung sets every mechanism it advertises and runs: its segments add up.
    @Test func realisticRungUsesVersionTwoKeys() throws {
        let rung = BenchRung(devices: 50, days: 1, realistic: true)
        expectEqual(rung.name, "50x1d-v2")
        let s = try Bench.scenario(rung)
        expectEqual(s.segments.map(\.devices), [0..<30, 30..<50])
        #expect(s.mail.dailyProfile != nil && s.apns.keepOlder > 0 && s.apns.duplicate > 0)
        #expect(s.segments.allSatisfy { $0.connectivity.windows.allSatisfy { !$0.isSameForEveryDevice } })
        let result = Simulator.run(s)
        for a in result.arms.indices {
            expectEqual(result.segments.reduce(0) { $0 + $1.arms[a].ledger.letters }, result.arms[a].ledger.letters)
        }
        #expect(result.arms[0].ledger.duplicates > 0)
    }

    @Test func coupledRungQueuesReRequestsInTenPartitions() throws {
        let rung = BenchRung(devices: 200, days: 1, coupled: true)
        expectEqual(rung.name, "200x1d-xiva")
        let s = try Bench.scenario(rung)
        expectEqual(s.xiva.partitions, 10)
        expectEqual(s.xiva.capacityPerMicrosecond, 200.0 / 1e6)
        expectEqual(CouplingUnit.of(s).partitions?.count, 10)
        // The reconnects at 8:40 and 19:10 bring re-requests together: at a slower server some wait.
        var slow = s
        slow.xiva.capacityPerMicrosecond = 1.0 / 1e6
        let queueArm = Simulator.run(slow).arms[1].ledger
        #expect(queueArm.reRequests > 0 && queueArm.xivaMaxQueue > 0 && queueArm.xivaMaxWaitMicroseconds > 0)
    }

    @Test func binaryRungWritesEveryPushOverTenConnections() throws {
        let rung = BenchRung(devices: 200, days: 1, binary: true)
        expectEqual(rung.name, "200x1d-binary")
        let s = try Bench.scenario(rung)
        expectEqual(s.apns.interface, .binary)
        expectEqual(s.xiva.partitions, 10)
        expectEqual(s.xiva.resendBuffer, 50)
        expectEqual(CouplingUnit.of(s).partitions?.count, 10)
        let result = Simulator.run(s)
        for arm in result.arms {
            // Every push XIVA sent was written: first sends, and the queue arm's re-sends too.
            #expect(arm.ledger.binary.written >= arm.ledger.letters - arm.ledger.count(of: .xivaDrop) + arm.ledger.resent - arm.ledger.count(of: .unfinished))
        }
        #expect(result.arms[1].ledger.binary.written > result.arms[0].ledger.binary.written)
    }
}
