// What a mechanism costs a run in kernel events and bytes: the units and laws the resource
// estimate (PushSimExperiment's ResourceEstimate) is made of, so that each mechanism states its
// own cost in its folder (``CostModel/mechanismLoads(_:_:)``, the registry) and the chain's here.
import Foundation

/// The units and laws of the resource estimate (docs/performance.md): what one step of each
/// kind costs, and how many of them a scenario's laws make.
package enum CostModel {
    /// Kernel events an extra send (a retry, a second copy, a re-write over the binary
    /// interface) causes at most: its arrival at APNs, its delivery, its extension's processed
    /// and deadline events.
    package static let eventsPerExtraSend = 4.0
    /// Bytes one extra copy occupies (a `PushCopy` and its events), with room for doubling.
    package static let bytesPerExtraCopy = 64.0
    /// Bytes one laid-out interval (a window, a doze window, an outage) occupies in a world: the
    /// interval in the merged list, its copy while sorting, and the flips it makes.
    package static let bytesPerInterval = 64.0
    /// A world's record while it runs ahead of the binary connection (`SpeculationRecords`:
    /// its counters and its arrays' headers, with room for what those arrays hold).
    package static let bytesPerSpeculationRecord = 160.0
    /// A step of work that is no kernel event, in events: scanning one doze interval for a
    /// stored message (`fcmDozing`), a reinstall or id change passed in a loop. A contiguous
    /// compare costs about a nanosecond against 100 ns for an event at 10 M events/s; the
    /// loops' steps draw a random number, so they count as a tenth.
    package static let eventsPerScanStep = 1.0 / 32
    /// A step of a binary search among a device's laid-out windows (Focus): a compare and a
    /// branch no predictor guesses, about twice a contiguous scan's step.
    package static let eventsPerSearchStep = 1.0 / 16
    package static let eventsPerLoopStep = 0.1
    /// Drawing one flip of a process that takes no event per flip (`device.sleep`'s awake and
    /// asleep periods): a sample (a logarithm) and an append, about a quarter of an event.
    package static let eventsPerDrawnFlip = 0.5
    /// Bytes one connectivity flip occupies (flip instant, drawn interval, merged interval),
    /// with room for growth.
    package static let bytesPerFlip = 80.0

    /// The repetitions of `windows` inside [0, end): each every-window's count of periods, two
    /// more for the ends (and one for a spread), or 1 for a single window; the second figure is
    /// the steps to lay them out (from the first repetition that can reach time 0).
    package static func repetitions(_ windows: [OfflineWindow], end: Double) -> (intervals: Double, steps: Double) {
        var intervals = 0.0, steps = 0.0
        for window in windows {
            let start = Double(window.start.microseconds), stop = Double(window.end.microseconds)
            if window.length == nil && stop <= start { continue }
            if let every = window.every, !every.isForever, every.microseconds > 0 {
                let period = Double(every.microseconds)
                if window.length == nil && stop - start >= period {
                    intervals += 1; steps += 1
                } else {
                    let shift = window.spread == .zero ? 0.0 : 1.0
                    intervals += end / period + 2 + shift
                    steps += (max(stop, start) + Double(window.spread.microseconds) + end) / period + 2 + shift
                }
            } else {
                intervals += 1; steps += 1
            }
        }
        return (finite(intervals), finite(steps))
    }

    /// Occurrences of XIVA's outages laid out over the run (each world lays them out again):
    /// counted from the periods, without laying them out.
    package static func outageOccurrences(_ outages: [XivaOutage], end: Double) -> Double {
        finite(outages.reduce(0.0) { sum, outage in
            guard let every = outage.every, every.microseconds > 0 else { return sum + 1 }
            let span = Double(outage.end.microseconds) - Double(outage.start.microseconds)
            return sum + (end + max(0, span)) / Double(every.microseconds) + 2
        })
    }

    /// The mean of an alternating process's flips over [0, end) (the renewal rate, with the
    /// truncated means keeping heavy tails honest), two more for the ends.
    package static func alternatingFlips(_ first: Distribution, _ second: Distribution, end: Double) -> Double {
        let cycle = truncatedMean(first, at: end) + truncatedMean(second, at: end)
        // A cycle shorter than a microsecond still advances the clock by at least one
        // microsecond every other period at most; never divide by (almost) nothing.
        return finite(2 * end / max(cycle, 1) + 2)
    }

    /// Laying out a device's own windows: a step per repetition, then the intervals sorted and
    /// merged (n log n comparisons, each a comparison and a move: two scan steps): many short
    /// windows a day over a long run cost the sort more than the steps (17 000 windows a day for
    /// 30 days: measured 2.3 times the steps' share alone per event of an ordinary run).
    package static func layoutEvents(_ windows: (intervals: Double, steps: Double)) -> Double {
        finite(windows.steps * eventsPerLoopStep + windows.intervals * log2(max(2, windows.intervals)) * 2 * eventsPerScanStep)
    }

    /// E[min(X, t)]: the mean of a period cut at the end of the run, so a heavy tail that
    /// cannot happen inside the run does not make flips look rare.
    package static func truncatedMean(_ d: Distribution, at t: Double) -> Double {
        guard t > 0 else { return 0 }
        switch d {
        case .constant(let c): return min(Double(c.microseconds), t)
        case .exponential(let m):
            guard m > 0 else { return 0 }
            return m * -expm1(-t / m)
        case .uniform(let a, let b):
            if t <= a { return t }
            if t >= b { return (a + b) / 2 }
            // ∫ min(x, t) over [a, b] / (b − a).
            return ((t * t - a * a) / 2 + t * (b - t)) / (b - a)
        case .lognormal(let median, let p99):
            guard median > 0 else { return 0 }
            let sigma = log(p99 / median) / Distribution.z99
            guard sigma > 0 else { return min(median, t) }
            let z = (log(t) - log(median)) / sigma
            // E[X; X < t] + t·P(X ≥ t), with E[X; X < t] = mean·Φ(z − σ).
            let mean = median * exp(sigma * sigma / 2)
            let below = mean.isFinite ? mean * phi(z - sigma) : 0
            let value = below + t * (1 - phi(z))
            return value.isFinite ? min(value, t) : t
        }
    }

    /// The standard normal distribution function.
    package static func phi(_ x: Double) -> Double { 0.5 * erfc(-x / 2.0.squareRoot()) }

    /// The largest of many Poisson counts with mean x, generously.
    package static func peak(_ x: Double) -> Double { x <= 0 ? 0 : finite(x + 6 * x.squareRoot() + 16) }

    /// Infinity and NaN become the largest finite value, so comparisons stay meaningful.
    package static func finite(_ x: Double) -> Double {
        if x.isNaN { return .greatestFiniteMagnitude }
        return min(max(x, 0), .greatestFiniteMagnitude)
    }
}

/// One mechanism's events and bytes per device, beyond its population's letters and
/// connectivity: per-arm figures are already multiplied by the arms it runs in.
package struct MechanismLoad {
    /// The keys that turn it on, as a user writes them (`device.doze`, `xiva.retry`).
    package var key: String
    /// Events of one device over the run, all arms.
    package var eventsPerDevice: Double
    /// Steps of one world's construction (laid-out intervals), once per world made.
    package var stepsPerWorld: Double = 0
    /// Bytes of the busiest device, held once per thread (or per world on the coupled path).
    package var bytesPerDevice: Double
    /// Bytes of one world's layout (held by every world at once on the coupled path).
    package var bytesPerWorld: Double = 0
    /// What to change to make it smaller.
    package var fix: String
}

/// What a mechanism's cost is worked out from beside its resolved scenario: one population's
/// mean letters per device and its busiest device's, its connectivity process's flips, the
/// arms that run, and the run's end in µs.
package struct LoadInput {
    package var letters: Double
    package var peakLetters: Double
    package var processFlips: Double
    package var arms: [Arm]
    package var end: Double

    package init(letters: Double, peakLetters: Double, processFlips: Double, arms: [Arm], end: Double) {
        self.letters = letters; self.peakLetters = peakLetters; self.processFlips = processFlips
        self.arms = arms; self.end = end
    }

    /// The arms that run, and 1 when the queue arm is one of them.
    var armCount: Double { Double(arms.count) }
    var queueArm: Double { arms.contains(.on) ? 1.0 : 0.0 }
}

/// The chain's own optional parts that cost something beyond their letters (no mechanism folder).
extension CostModel {
    /// APNs' second copies.
    package static func duplicateLoad(_ s: Scenario, _ c: LoadInput) -> MechanismLoad? {
        let L = c.letters, peakL = c.peakLetters, armCount = c.armCount
        if s.apns.duplicate > 0 {
            return MechanismLoad(key: "apns.duplicate", eventsPerDevice: armCount * eventsPerExtraSend * L * s.apns.duplicate,
                                 bytesPerDevice: bytesPerExtraCopy * peakL * s.apns.duplicate, fix: "lower apns.duplicate")
        }
        return nil
    }

    /// XIVA's outages: every world lays them out and keeps them; a held letter's send moves.
    package static func xivaOutagesLoad(_ s: Scenario, _ c: LoadInput) -> MechanismLoad? {
        let L = c.letters, armCount = c.armCount, end = c.end
        if !s.xiva.outages.isEmpty {
            let occurrences = outageOccurrences(s.xiva.outages, end: end)
            return MechanismLoad(key: "xiva.outages", eventsPerDevice: armCount * L, stepsPerWorld: 2 * occurrences,
                                 bytesPerDevice: 0, bytesPerWorld: bytesPerInterval * occurrences,
                                 fix: "lengthen xiva.outages' every")
        }
        return nil
    }

    /// The capacity queue: each re-request joins the partition's server and is answered from it.
    package static func capacityLoad(_ s: Scenario, _ c: LoadInput) -> MechanismLoad? {
        let L = c.letters, peakL = c.peakLetters, queueArm = c.queueArm
        if s.xiva.capacityPerMicrosecond != nil && s.recovery == .queue {
            return MechanismLoad(key: "xiva.capacity", eventsPerDevice: queueArm * 2 * L,
                                 bytesPerDevice: 64 * peakL, fix: "raise xiva.capacity or xiva.partitions, or lower mail.rate")
        }
        return nil
    }
}
