// The paired run behind `pushsim check`: the baseline's scenario and this one on the same devices and seed, differences device by device.
import PushSimCore

/// Sums over devices of the products of one quantity's value in two runs of the same device
/// (x now, x then) and its denominator's (y now, y then): enough to give the standard error of
/// the difference of two totals, or of two ratios of totals, when the runs share their random
/// draws (common random numbers). Exact integer sums, so the merge order never matters.
package struct PairedMoments: Equatable, Sendable {
    /// Σx₁, Σx₀, Σy₁, Σy₀ (1: this run, 0: the baseline's replay).
    package var sums = [Int](repeating: 0, count: 4)
    /// Σ of the products of the four, upper triangle row by row: 11 10 1y 1z 00 0y 0z yy yz zz.
    package var products = [Int](repeating: 0, count: 10)

    mutating func add(now x1: Int, then x0: Int, nowOf y1: Int, thenOf y0: Int) {
        let v = [x1, x0, y1, y0]
        var k = 0
        for i in 0..<4 {
            sums[i] &+= v[i]
            for j in i..<4 { products[k] &+= v[i] &* v[j]; k += 1 }
        }
    }

    mutating func merge(_ other: PairedMoments) {
        for i in sums.indices { sums[i] &+= other.sums[i] }
        for i in products.indices { products[i] &+= other.products[i] }
    }

    /// Σ (w·v)² over devices for a weight vector over (x₁, x₀, y₁, y₀).
    func quadratic(_ w: [Double]) -> Double {
        var total = 0.0, k = 0
        for i in 0..<4 {
            for j in i..<4 {
                total += (i == j ? 1 : 2) * w[i] * w[j] * Double(products[k])
                k += 1
            }
        }
        return total
    }
}

/// The paired spread of one arm: per-device differences between this run and the baseline's
/// replay, for every count of `CheckSpread.countKeys` (over letters) and every baseline
/// percentile (delivered letters at or below it, over delivered letters).
package struct PairedSpread: Equatable, Sendable {
    package var devices = 0
    package var counts = CheckSpread.countKeys.map { _ in PairedMoments() }
    package var below = CheckSpread.latencySlots.map { _ in PairedMoments() }

    package init() {}

    mutating func add(now: DeviceCounts, then: DeviceCounts) {
        devices += 1
        for i in counts.indices {
            counts[i].add(now: now.counts[i], then: then.counts[i], nowOf: now.counts[0], thenOf: then.counts[0])
        }
        let delivered = 1
        for slot in below.indices where slot < now.below.count && slot < then.below.count {
            below[slot].add(now: now.below[slot], then: then.below[slot],
                            nowOf: now.counts[delivered], thenOf: then.counts[delivered])
        }
    }

    package mutating func merge(_ other: PairedSpread) {
        devices += other.devices
        for i in counts.indices { counts[i].merge(other.counts[i]) }
        for i in below.indices { below[i].merge(other.below[i]) }
    }

    var correction: Double { devices > 1 ? Double(devices) / Double(devices - 1) : 1 }

    /// Standard error of (total now − total then) of count `i`: √(N/(N−1) · Σ(d − d̄)²), d the
    /// per-device difference. Zero when every device did exactly what it did in the baseline.
    package func countDifferenceStandardError(_ i: Int) -> Double {
        guard devices > 0, i < counts.count else { return 0 }
        let m = counts[i]
        let d = Double(m.sums[0] - m.sums[1])
        let squares = m.quadratic([1, -1, 0, 0])
        return (max(0, squares - d * d / Double(devices)) * correction).squareRoot()
    }

    /// Standard error of (X₁/Y₁ − X₀/Y₀) by the delta method over devices: the residual of a
    /// device is (x₁ − r₁y₁)/Y₁ − (x₀ − r₀y₀)/Y₀, whose sum is zero.
    static func ratioDifferenceStandardError(_ m: PairedMoments, correction: Double) -> Double {
        let y1 = Double(m.sums[2]), y0 = Double(m.sums[3])
        guard y1 > 0, y0 > 0 else { return 0 }
        let r1 = Double(m.sums[0]) / y1, r0 = Double(m.sums[1]) / y0
        let squares = m.quadratic([1 / y1, -1 / y0, -r1 / y1, r0 / y0])
        return (max(0, squares) * correction).squareRoot()
    }

    /// Standard error of the difference of the rates count `i` / letters.
    package func rateDifferenceStandardError(_ i: Int) -> Double {
        guard i < counts.count else { return 0 }
        return PairedSpread.ratioDifferenceStandardError(counts[i], correction: correction)
    }

    /// Standard error of the difference of the fractions of delivered letters at or below the
    /// baseline's percentile `slot`.
    package func belowDifferenceStandardError(_ slot: Int) -> Double {
        guard slot < below.count else { return 0 }
        return PairedSpread.ratioDifferenceStandardError(below[slot], correction: correction)
    }
}

/// One device's counts in one arm: `CheckSpread.countKeys`, then below each percentile.
struct DeviceCounts: Sendable {
    var counts: [Int]
    var below: [Int]
    init(_ l: Ledger, thresholds: CheckThresholds?) {
        counts = CheckSpread.counts(l)
        below = thresholds.map { CheckSpread.belowCounts(l, $0) } ?? []
    }
    init(counts: [Int], below: [Int]) { self.counts = counts; self.below = below }
}

extension CheckRun {
    /// Whether two scenarios can be paired device by device: the same devices and arms at the
    /// same seed, each device simulated on its own. nil if they can, else why not.
    package static func pairingRefusal(_ now: Scenario, _ then: Scenario) -> String? {
        if now.seed != then.seed { return "this run's seed (\(now.seed)) is not the baseline's (\(then.seed)): no draws in common" }
        if now.devices != then.devices { return "the device count changed (\(then.devices) → \(now.devices))" }
        if now.arms != then.arms { return "the arms changed" }
        if CouplingUnit.of(now) != .oneDevice || CouplingUnit.of(then) != .oneDevice {
            return "devices share a server (finite XIVA capacity or the binary interface), so they are not independent pairs"
        }
        return nil
    }

    /// Runs `then` (the baseline's scenario) and `now` over the same devices, chunk by chunk,
    /// and pairs each device's counts: the results of both, the spread of `now`, and the paired
    /// spreads. Call only when ``pairingRefusal(_:_:)`` is nil. Each result is the one
    /// ``run(_:thresholds:jobs:)`` gives (the same devices, streams and arms).
    package static func runPaired(now: Scenario, then: Scenario, thresholds: [CheckThresholds?], jobs: Int = 1)
        -> (result: RunResult, spreads: [CheckSpread], baseline: RunResult, paired: [PairedSpread]) {
        let run = pairedLedgers(now: now, then: then, thresholds: thresholds, jobs: jobs)
        let range = 0..<now.devices
        return (run.ledgers.result(now, arms: now.arms, devices: range), run.spreads,
                run.baseline.result(then, arms: now.arms, devices: range), run.paired)
    }

    /// ``runPaired(now:then:thresholds:jobs:)``'s ledgers, before they are turned into results.
    static func pairedLedgers(now: Scenario, then: Scenario, thresholds: [CheckThresholds?], jobs: Int)
        -> (ledgers: SegmentedLedgers, spreads: [CheckSpread], baseline: SegmentedLedgers, paired: [PairedSpread]) {
        let range = 0..<now.devices
        let arms = now.arms
        let chunks = Simulator.inChunks(of: range, jobs: jobs, unit: .oneDevice) { devices in
            var recorder = DeviceCountRecorder(run: SegmentedLedgerSink(ledgers: SegmentedLedgers(arms: arms.count, segments: then.segments.count)),
                                               first: devices.lowerBound, count: devices.count, arms: arms.count,
                                               thresholds: thresholds)
            Simulator.simulate(then, devices: devices, arms: arms, into: &recorder)
            var pairer = PairingSink(check: CheckSink(run: SegmentedLedgerSink(ledgers: SegmentedLedgers(arms: arms.count, segments: now.segments.count)),
                                                      spreads: arms.map { _ in CheckSpread() }, thresholds: thresholds),
                                     recorded: recorder, paired: arms.map { _ in PairedSpread() })
            Simulator.simulate(now, devices: devices, arms: arms, into: &pairer)
            return (pairer.check.run.finished(), pairer.check.spreads, pairer.recorded.run.finished(), pairer.paired)
        }
        var total = SegmentedLedgers(arms: arms.count, segments: now.segments.count)
        var baseTotal = SegmentedLedgers(arms: arms.count, segments: then.segments.count)
        var spreads = arms.map { _ in CheckSpread() }
        var paired = arms.map { _ in PairedSpread() }
        for (ledgers, chunkSpreads, baseLedgers, chunkPaired) in chunks {
            total.merge(ledgers)
            baseTotal.merge(baseLedgers)
            for a in spreads.indices { spreads[a].merge(chunkSpreads[a]); paired[a].merge(chunkPaired[a]) }
        }
        return (total, spreads, baseTotal, paired)
    }
}

/// The baseline replay's sink: each device's counts kept (a chunk's worth) for pairing.
struct DeviceCountRecorder: DeviceLedgerSink {
    var run: SegmentedLedgerSink
    let first: Int
    let arms: Int
    let thresholds: [CheckThresholds?]
    var devices: [DeviceCounts?]

    init(run: SegmentedLedgerSink, first: Int, count: Int, arms: Int, thresholds: [CheckThresholds?]) {
        self.run = run; self.first = first; self.arms = arms; self.thresholds = thresholds
        devices = Array(repeating: nil, count: count * arms)
    }

    func slot(device: Int, arm: Int) -> Int? {
        let index = (device - first) * arms + arm
        return device >= first && arm >= 0 && arm < arms && index < devices.count ? index : nil
    }

    mutating func account(device: Int, segment: Int?, arm: Int, _ body: (inout Ledger) -> Void) {
        var ledger = Ledger()
        body(&ledger)
        if let slot = slot(device: device, arm: arm) {
            devices[slot] = DeviceCounts(ledger, thresholds: arm < thresholds.count ? thresholds[arm] : nil)
        }
        run.account(device: device, segment: segment, arm: arm) { $0.merge(ledger) }
    }

    mutating func partitionQueue(arm: Int, maxQueue: Int, maxQueueBySegment: [Int], series: XivaQueueSeries) {
        run.partitionQueue(arm: arm, maxQueue: maxQueue, maxQueueBySegment: maxQueueBySegment, series: series)
    }
}

/// This run's sink when paired: the check's own sink, plus each device's difference from its
/// recorded baseline counts.
struct PairingSink: DeviceLedgerSink {
    var check: CheckSink
    var recorded: DeviceCountRecorder
    var paired: [PairedSpread]

    mutating func account(device: Int, segment: Int?, arm: Int, _ body: (inout Ledger) -> Void) {
        var ledger = Ledger()
        body(&ledger)
        if arm < paired.count, let slot = recorded.slot(device: device, arm: arm), let then = recorded.devices[slot] {
            let thresholds = arm < check.thresholds.count ? check.thresholds[arm] : nil
            paired[arm].add(now: DeviceCounts(ledger, thresholds: thresholds), then: then)
        }
        check.account(device: device, segment: segment, arm: arm) { $0.merge(ledger) }
    }

    mutating func partitionQueue(arm: Int, maxQueue: Int, maxQueueBySegment: [Int], series: XivaQueueSeries) {
        check.partitionQueue(arm: arm, maxQueue: maxQueue, maxQueueBySegment: maxQueueBySegment, series: series)
    }
}
