// The run behind `pushsim check`: the same result as `Simulator.run`, plus the spread between devices.
import Dispatch
import PushSimCore

/// Where a baseline's latency percentiles sit, so the run can count, device by device, how
/// many of its letters are as fast as the baseline's p50, p90 and p99.
package struct CheckThresholds: Equatable, Sendable {
    /// One value per `CheckSpread.quantiles`, in microseconds.
    package var quantileMicroseconds: [Int64]
    package init(quantileMicroseconds: [Int64]) { self.quantileMicroseconds = quantileMicroseconds }
}

/// The spread between the devices of one arm, as exact integer sums. Devices are the
/// independent units of a run (a device's letters share its connectivity, its display
/// setting, its nights), so standard errors are computed over devices, not over letters:
/// that way clustered losses (a flight loses 30 letters of one device at once) widen the
/// tolerance as much as they widen the real scatter between seeds.
package struct CheckSpread: Equatable, Sendable {
    package static let topCount = 15

    /// The per-device integer counts, in the order of `counts(_:)`, by their names in the
    /// contract's JSON (`pushsim check` compares them under these names).
    package static let countKeys: [String] =
        ["letters", "delivered", "summarized", "lost", "duplicates"]
        + LossCause.allCases.map { "causes." + $0.key }
        + ["re_requests", "resent", "summaries", "extension_timeouts", "fetches"]
        + Ledger.checkedCounters.map(\.jsonPath)
        + designCountKeys

    /// The counts behind the harm and cost set (``DesignMetrics``, docs/model.md §7) that no
    /// other key holds: the letters told of twice (duplicates, a summary then the push, a sync
    /// then the push), the alert pushes sent to APNs, the silent pushes, the mail-server fetches
    /// (a catch-up's or a sync's) and the background wake-ups. `check` reads them from an arm's
    /// JSON as the sums of its fields (``counts(_:)`` adds the same per device).
    package static let designCountKeys = ["harms_and_costs.shown_twice", "harms_and_costs.alert_pushes",
                                          "harms_and_costs.silent_pushes", "harms_and_costs.fetches", "harms_and_costs.wakeups"]

    /// The percentiles of `latency_s` a baseline gives thresholds for, and their probabilities.
    package static let quantiles: [(key: String, p: Double)] = [("p50", 0.50), ("p90", 0.90), ("p99", 0.99)]

    /// One latency percentile `check` compares: a slot of the thresholds and of the spreads.
    package struct LatencySlot: Sendable {
        /// Its dotted key in the run's JSON (`latency_s.p90`, `latency_seen_s.p90`).
        package var key: String
        package var p: Double
        /// The latency seen by the user (docs/model.md §10, Focus and the scheduled summary),
        /// not the delivered one: present only in runs that measure it.
        package var seen: Bool
    }

    /// The delivered latency's percentiles, then the seen latency's: both have the same
    /// delivered letters as their denominator, so one per-device ratio estimator serves both.
    package static let latencySlots: [LatencySlot] =
        quantiles.map { LatencySlot(key: "latency_s." + $0.key, p: $0.p, seen: false) }
        + quantiles.map { LatencySlot(key: "latency_seen_s." + $0.key, p: $0.p, seen: true) }

    package var devices = 0
    /// Σ c, Σ c², Σ c·letters for each of `CheckSpread.countKeys`.
    package var sum: [Int]
    package var squares: [Int]
    package var timesLetters: [Int]
    /// For each baseline percentile: Σ a, Σ a², Σ a·d, where a is a device's delivered letters
    /// at or below the baseline's percentile (its histogram bucket) and d its delivered letters.
    package var below: [Int]
    package var belowSquares: [Int]
    package var belowTimesDelivered: [Int]
    /// The largest per-device maximum latencies (µs), descending, at most `topCount`.
    package var topDeviceMaxima: [Int64] = []

    package init() {
        let n = CheckSpread.countKeys.count, q = CheckSpread.latencySlots.count
        sum = Array(repeating: 0, count: n)
        squares = Array(repeating: 0, count: n)
        timesLetters = Array(repeating: 0, count: n)
        below = Array(repeating: 0, count: q)
        belowSquares = Array(repeating: 0, count: q)
        belowTimesDelivered = Array(repeating: 0, count: q)
    }

    /// The per-device counts of a ledger, in `CheckSpread.countKeys` order.
    static func counts(_ l: Ledger) -> [Int] {
        [l.letters, l.delivered, l.summarized, l.lost, l.duplicates] + LossCause.allCases.map { l.count(of: $0) }
            + [l.reRequests, l.resent, l.summaries, l.extensionTimeouts, l.catchUp.fetches]
            + Ledger.checkedCounters.map { l[keyPath: $0.path] }
            + [l.duplicates + l.summaryThenPush.letters + l.backgroundSync.shownTwice, l.apns.sent,
               l.backgroundSync.pushes, l.catchUp.fetches + l.backgroundSync.fetches, l.backgroundSync.wakes]
    }

    /// Adds one device's ledger.
    mutating func add(device l: Ledger, thresholds: CheckThresholds?) {
        devices += 1
        let c = CheckSpread.counts(l)
        let letters = l.letters
        for i in c.indices {
            sum[i] &+= c[i]
            squares[i] &+= c[i] &* c[i]
            timesLetters[i] &+= c[i] &* letters
        }
        if let thresholds, l.delivered > 0 {
            let delivered = l.delivered
            for (slot, a) in CheckSpread.belowCounts(l, thresholds).enumerated() {
                below[slot] &+= a
                belowSquares[slot] &+= a &* a
                belowTimesDelivered[slot] &+= a &* delivered
            }
        }
        if l.delivered > 0 { insertTop(l.latency.maximum) }
    }

    /// A device's delivered letters at or below each of the baseline's percentiles (their
    /// histogram buckets), on the delivered latency or the seen one as the slot says; all its
    /// delivered letters for a percentile past its slowest. A seen slot the baseline has no
    /// value for (it does not measure it) counts nothing and costs nothing.
    static func belowCounts(_ l: Ledger, _ thresholds: CheckThresholds) -> [Int] {
        var out = thresholds.quantileMicroseconds.map { _ in 0 }
        guard l.delivered > 0 else { return out }
        func isSeen(_ slot: Int) -> Bool { slot < latencySlots.count && latencySlots[slot].seen }
        for seen in [false, true] {
            guard let histogram = seen ? l.focusSummary.seenLatency : l.latency else { continue }
            let slots = out.indices.filter { isSeen($0) == seen && !(seen && thresholds.quantileMicroseconds[$0] == 0) }
            guard !slots.isEmpty else { continue }
            let buckets = slots.map { LatencyHistogram.index(of: thresholds.quantileMicroseconds[$0]) }
            let maxBucket = LatencyHistogram.index(of: histogram.maximum)
            let last = min(buckets.max() ?? 0, maxBucket)
            var prefix = [Int](repeating: 0, count: last + 1)
            var running = 0
            let counts = histogram.counts
            for index in 0...last {
                running += Int(counts[index])
                prefix[index] = running
            }
            for (k, slot) in slots.enumerated() { out[slot] = buckets[k] >= maxBucket ? l.delivered : prefix[buckets[k]] }
        }
        return out
    }

    mutating func insertTop(_ value: Int64) {
        if topDeviceMaxima.count == CheckSpread.topCount, let smallest = topDeviceMaxima.last, value <= smallest { return }
        let at = topDeviceMaxima.firstIndex { $0 < value } ?? topDeviceMaxima.count
        topDeviceMaxima.insert(value, at: at)
        if topDeviceMaxima.count > CheckSpread.topCount { topDeviceMaxima.removeLast() }
    }

    /// Adds the spread of another, disjoint set of devices. Integer sums: the order of merging
    /// never changes the result.
    package mutating func merge(_ other: CheckSpread) {
        devices += other.devices
        for i in sum.indices {
            sum[i] &+= other.sum[i]; squares[i] &+= other.squares[i]; timesLetters[i] &+= other.timesLetters[i]
        }
        for i in below.indices {
            below[i] &+= other.below[i]; belowSquares[i] &+= other.belowSquares[i]
            belowTimesDelivered[i] &+= other.belowTimesDelivered[i]
        }
        for value in other.topDeviceMaxima { insertTop(value) }
    }

    /// N/(N−1): the unbiased correction of a variance over devices (1 for a single device).
    var correction: Double { devices > 1 ? Double(devices) / Double(devices - 1) : 1 }

    /// Standard error of the total of count `i` over devices: √(N/(N−1) · Σ(c − c̄)²).
    package func countStandardError(_ i: Int) -> Double {
        guard devices > 0 else { return 0 }
        let s = Double(sum[i])
        let centred = Double(squares[i]) - s * s / Double(devices)
        return (max(0, centred) * correction).squareRoot()
    }

    /// Standard error of the ratio count `i` / letters (delta method for a ratio of totals):
    /// √(N/(N−1) · Σ(cᵢ − r·Lᵢ)²) / L.
    package func rateStandardError(_ i: Int) -> Double {
        let letters = Double(sum[0])
        guard letters > 0 else { return 0 }
        let r = Double(sum[i]) / letters
        let residual = Double(squares[i]) - 2 * r * Double(timesLetters[i]) + r * r * Double(squares[0])
        return (max(0, residual) * correction).squareRoot() / letters
    }

    /// Standard error of the fraction of delivered letters at or below the baseline's
    /// percentile `slot` (same ratio estimator, over delivered letters).
    package func belowStandardError(_ slot: Int) -> Double {
        let deliveredIndex = 1
        let delivered = Double(sum[deliveredIndex])
        guard delivered > 0 else { return 0 }
        let f = Double(below[slot]) / delivered
        let residual = Double(belowSquares[slot]) - 2 * f * Double(belowTimesDelivered[slot])
            + f * f * Double(squares[deliveredIndex])
        return (max(0, residual) * correction).squareRoot() / delivered
    }
}

package enum CheckRun {
    /// Simulates `scenario` exactly as `Simulator.run` does (the same devices, streams and
    /// arms, so the same ledgers) but one device at a time, recording each device's counts
    /// into a `CheckSpread` per arm. `thresholds` holds one entry per arm (nil: no baseline).
    /// The chunking never changes a result: ledgers and spreads are integer sums.
    package static func run(_ scenario: Scenario, thresholds: [CheckThresholds?], jobs: Int = 1)
        -> (result: RunResult, spreads: [CheckSpread]) {
        let (total, spreads) = ledgers(scenario, thresholds: thresholds, jobs: jobs)
        return (total.result(scenario, arms: scenario.arms, devices: 0..<scenario.devices), spreads)
    }

    /// ``run(_:thresholds:jobs:)``'s ledgers, before they are turned into a result.
    static func ledgers(_ scenario: Scenario, thresholds: [CheckThresholds?], jobs: Int)
        -> (ledgers: SegmentedLedgers, spreads: [CheckSpread]) {
        let range = 0..<scenario.devices
        let arms = scenario.arms
        // One sink per thread, every chunk it takes adding into it (Simulator.run says why).
        let sinks = Simulator.inChunks(of: range, jobs: jobs, unit: .of(scenario), accumulator: {
            CheckSink(run: SegmentedLedgerSink(ledgers: SegmentedLedgers(arms: arms.count, segments: scenario.segments.count)),
                      spreads: arms.map { _ in CheckSpread() }, thresholds: thresholds)
        }) { sink, devices in
            Simulator.simulate(scenario, devices: devices, arms: arms, into: &sink)
        }.accumulators
        var total = sinks[0].run.finished()
        var spreads = sinks[0].spreads
        for sink in sinks.dropFirst() {
            total.merge(sink.run.finished())
            for a in spreads.indices { spreads[a].merge(sink.spreads[a]) }
        }
        return (total, spreads)
    }
}

/// A check's sink: each device's counts into its own spread, then into the run's ledgers.
struct CheckSink: DeviceLedgerSink {
    var run: SegmentedLedgerSink
    var spreads: [CheckSpread]
    let thresholds: [CheckThresholds?]

    mutating func account(device: Int, segment: Int?, arm: Int, _ body: (inout Ledger) -> Void) {
        var ledger = Ledger()
        body(&ledger)
        spreads[arm].add(device: ledger, thresholds: arm < thresholds.count ? thresholds[arm] : nil)
        run.account(device: device, segment: segment, arm: arm) { $0.merge(ledger) }
    }

    mutating func partitionQueue(arm: Int, maxQueue: Int, maxQueueBySegment: [Int], series: XivaQueueSeries) {
        run.partitionQueue(arm: arm, maxQueue: maxQueue, maxQueueBySegment: maxQueueBySegment, series: series)
    }
}
