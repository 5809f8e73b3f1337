// One accumulator per thread: chunks adding into it give what fresh ledgers per chunk, merged, gave.
import Foundation
import Testing
@testable import PushSimCore
@testable import PushSimExperiment
import PushSimTestSupport

/// `Simulator.inChunks` with an accumulator, and the runs built on it: every chunk once, parts
/// in chunk order, and counts equal to the per-chunk ledgers merged, whatever the thread count.
@Suite struct ChunkAccumulatorTests {
    @Test func everyChunkOnceIntoOneAccumulatorPerThread() {
        for jobs in [1, 2, 3, 8] {
            let (sums, parts) = Simulator.inChunks(of: 5..<105, jobs: jobs, accumulator: { [Int]() }) { seen, devices in
                seen.append(contentsOf: devices)
                return devices
            }
            #expect(sums.count >= 1 && sums.count <= max(1, jobs))
            expectEqual(parts.count, min(100, max(1, jobs) * 16))
            for (a, b) in zip(parts, parts.dropFirst()) { expectEqual(a.upperBound, b.lowerBound) }
            #expect(parts.first?.lowerBound == 5 && parts.last?.upperBound == 105)
            // Each device went into exactly one accumulator.
            expectEqual(sums.flatMap { $0 }.sorted(), Array(5..<105))
        }
    }

    /// The reference: each chunk simulated into ledgers of its own, then merged.
    static func mergedChunks(_ scenario: Scenario, jobs: Int) -> RunResult {
        let arms = scenario.arms
        let chunks = Simulator.inChunks(of: 0..<scenario.devices, jobs: jobs, unit: .of(scenario)) { $0 }
        var total = SegmentedLedgers(arms: arms.count, segments: scenario.segments.count)
        for devices in chunks { total.merge(Simulator.simulateSegments(scenario, devices: devices, arms: arms)) }
        return total.result(scenario, arms: arms, devices: 0..<scenario.devices)
    }

    @Test(arguments: [BenchRung(devices: 90, days: 2, realistic: true), BenchRung(devices: 40, days: 2, coupled: true),
                      BenchRung(devices: 50, days: 2)])
    func runsEqualChunkLedgersMerged(_ rung: BenchRung) throws {
        let scenario = try Bench.scenario(rung)
        let reference = Self.mergedChunks(scenario, jobs: 1)
        #expect(reference.arms.allSatisfy { $0.ledger.letters > 0 })
        for jobs in [1, 3] {
            expectEqual(Simulator.run(scenario, jobs: jobs), reference)
            let checked = CheckRun.run(scenario, thresholds: scenario.arms.map { _ in nil }, jobs: jobs)
            expectEqual(checked.result, reference)
        }
        if !scenario.segments.isEmpty { #expect(reference.segments.allSatisfy { $0.arms.allSatisfy { $0.ledger.letters > 0 } }) }
    }

    @Test func progressHearsEveryDeviceAndEvent() throws {
        let scenario = try Bench.scenario(BenchRung(devices: 70, days: 1, realistic: true))
        let heard = Heard()
        let result = Simulator.run(scenario, jobs: 2) { devices, events in heard.add(devices, events) }
        expectEqual(heard.devices, 70)
        expectEqual(heard.events, result.arms.reduce(0) { $0 + $1.ledger.events })
    }

    @Test func theSpeedGateSpinReadsAWholeNumberAndChangesNoCount() throws {
        let saved = SpeedGateSpin.units
        defer { SpeedGateSpin.units = saved }
        for (text, units) in [("1", 1), ("7", 7), ("0", 0), ("-3", 0), ("abc", 0), ("1.5", 0), ("99999", 1_000)] {
            SpeedGateSpin.install(environment: ["PUSHSIM_SPEED_GATE_SPIN": text])
            expectEqual(SpeedGateSpin.units, units, "\(text)")
        }
        SpeedGateSpin.install(environment: [:])
        expectEqual(SpeedGateSpin.units, 0)
        let scenario = try Bench.scenario(BenchRung(devices: 30, days: 1, coupled: true))
        let plain = Simulator.run(scenario, jobs: 1)
        SpeedGateSpin.units = 2
        expectEqual(Simulator.run(scenario, jobs: 1), plain)
    }
}

/// What a run's progress reported, from any thread.
private final class Heard: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var devices = 0, events = 0
    func add(_ d: Int, _ e: Int) { lock.lock(); devices += d; events += e; lock.unlock() }
}
