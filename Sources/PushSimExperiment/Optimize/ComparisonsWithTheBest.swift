// Multiple comparisons with the best (MCB) on common random numbers, and the fixed sample size a two-stage procedure of the same guarantee would take.
import PushSimCore

/// One system's MCB interval: bounds on μ_i − min_{l≠i} μ_l, how much worse it is than the
/// best of the others. An upper bound of 0 says the system is the best; a lower bound of 0
/// says it is not (some other is better); the width says how far apart they may be.
package struct ComparisonWithTheBest: Equatable, Sendable {
    package var system: Int
    package var lower: Double
    package var upper: Double
}

package enum ComparisonsWithTheBest {
    /// Hsu's constrained MCB intervals (Hsu 1984, "Constrained simultaneous confidence intervals
    /// for multiple comparisons with the best", Annals of Statistics 12(3)) for the smallest mean,
    /// in the paired form for common random numbers with Bonferroni's critical value (Nelson and
    /// Matejcik 1995, "Using common random numbers for indifference-zone selection and multiple
    /// comparisons in simulation", Management Science 41(12)):
    ///
    ///   D_i⁻ = min(0, max_{l≠i} (x̄_i − x̄_l − w_il)),  D_i⁺ = max(0, max_{l≠i} (x̄_i − x̄_l + w_il)),
    ///   w_il = t(1 − α/(k−1), n_il − 1) · S_il / √n_il,
    ///
    /// over the n_il replications systems i and l share (S_il: the standard deviation of their
    /// differences). With a fixed, equal sample the k intervals hold together with probability
    /// ≥ 1 − α. (μ_i − min_l μ_l is max_l (μ_i − μ_l), so each bound is the largest of the
    /// pairs' bounds.) A pair with fewer than two shared replications bounds nothing above.
    package static func intervals(_ observations: [[Double]], alpha: Double) -> [ComparisonWithTheBest] {
        let k = observations.count
        guard k > 1 else { return [] }
        let p = 1 - alpha / Double(k - 1)
        return (0..<k).map { i in
            var lowest = -Double.infinity, highest = -Double.infinity
            for l in 0..<k where l != i {
                // The paired mean and t(p, n − 1) · S / √n: the sweep's interval at level p.
                let pair = ReplicationStatistics.summarize(zip(observations[i], observations[l]).map { $0 - $1 }, quantile: p)
                guard let w = pair.ci95 else { highest = .infinity; continue }
                lowest = max(lowest, pair.mean - w)
                highest = max(highest, pair.mean + w)
            }
            return ComparisonWithTheBest(system: i, lower: min(0, lowest), upper: max(0, highest))
        }
    }

    /// The replications per system a fixed-sample procedure with the same guarantee would
    /// take, from the first stage's variances: Clark and Yang's (1986) Bonferroni two-stage
    /// procedure on common random numbers, N = max(n₀, ⌈(t · S_max / δ)²⌉) with
    /// t = t(1 − α/(k−1), n₀ − 1) and S_max the largest standard deviation of a pair's
    /// differences over the first n₀ replications. nil when the first stage is missing.
    package static func fixedSampleSize(_ observations: [[Double]], firstStage n0: Int, delta: Double, alpha: Double) -> Int? {
        let k = observations.count
        guard k > 1, n0 > 1, delta > 0, observations.allSatisfy({ $0.count >= n0 }) else { return nil }
        var largest = 0.0
        for i in 0..<k {
            for l in (i + 1)..<k {
                let d = (0..<n0).map { observations[i][$0] - observations[l][$0] }
                let mean = d.reduce(0, +) / Double(n0)
                largest = max(largest, d.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(n0 - 1))
            }
        }
        let t = ReplicationStatistics.studentTQuantile(1 - alpha / Double(k - 1), degreesOfFreedom: n0 - 1)
        let n = (t * largest.squareRoot() / delta) * (t * largest.squareRoot() / delta)
        guard n.isFinite else { return nil }
        return max(n0, Int(n.rounded(.up)))
    }
}
