// Multiple comparisons with the best and the fixed-sample size, against values worked by hand with the closed-form t quantile of two degrees of freedom.
import Testing
@testable import PushSimExperiment
@testable import PushSimCore
import PushSimTestSupport

@Suite struct ComparisonsWithTheBestTests {
    /// Three systems, three replications each (common random numbers: replication r of every
    /// system on the same seed). With k = 3 and α = 0.05 every pair's critical value is the
    /// one-sided t(1 − 0.025, 2), which for two degrees of freedom has the closed form
    /// (2p − 1) / √(2p(1 − p)).
    static let observations: [[Double]] = [[1, 2, 3], [2, 3, 4.5], [5, 5, 6]]
    static let t: Double = { let p = 0.975; return (2 * p - 1) / (2 * p * (1 - p)).squareRoot() }()

    /// w_il = t · S_il / √n for the differences of systems i and l.
    static func halfWidth(_ i: Int, _ l: Int) -> Double {
        let d = zip(observations[i], observations[l]).map { $0 - $1 }
        let mean = d.reduce(0, +) / 3
        let variance = d.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / 2
        return t * (variance / 3).squareRoot()
    }

    @Test func theIntervalsAreHsusBoundsWorkedByHand() {
        let mcb = ComparisonsWithTheBest.intervals(Self.observations, alpha: 0.05)
        let means = Self.observations.map { $0.reduce(0, +) / 3 }
        // System 0 is the best: its upper bound is 0, its lower bound how much better it may be
        // than the best of the others: max over l of (x̄_0 − x̄_l − w_0l), here against system 1.
        expectEqual(mcb[0].upper, 0)
        #expect(abs(mcb[0].lower - (means[0] - means[1] - Self.halfWidth(0, 1))) < 1e-9)
        // Systems 1 and 2 are not the best (lower bound 0); their upper bounds are their
        // largest difference plus its half-width, both against system 0.
        #expect(mcb[1].lower == 0 && abs(mcb[1].upper - (means[1] - means[0] + Self.halfWidth(1, 0))) < 1e-9)
        #expect(mcb[2].lower == 0 && abs(mcb[2].upper - (means[2] - means[0] + Self.halfWidth(2, 0))) < 1e-9)
        // The worked numbers, so a change of formula (min for max) cannot pass unnoticed.
        #expect(abs(mcb[0].lower + 1.8837754549852) < 1e-9 && abs(mcb[2].upper - 4.7675509099704) < 1e-9)
    }

    /// Eliminated systems have fewer replications: a pair is compared over the ones they share,
    /// and a pair with a single shared replication bounds nothing above.
    @Test func pairsUseTheReplicationsTheyShare() {
        let mcb = ComparisonsWithTheBest.intervals([[1, 2, 3], [7]], alpha: 0.05)
        #expect(mcb[0].upper == .infinity && mcb[1].upper == .infinity)
        #expect(mcb[0].lower == -.infinity || mcb[0].lower <= 0)
    }

    /// N = max(n₀, ⌈(t · S_max / δ)²⌉): the largest pair variance of the first stage is that of
    /// systems 1 and 2 (7/12), so with δ = 0.5 N = ⌈t² · 7/12 / 0.25⌉ = 44.
    @Test func theFixedSampleSizeIsClarkAndYangsBonferroniCount() {
        let n = ComparisonsWithTheBest.fixedSampleSize(Self.observations, firstStage: 3, delta: 0.5, alpha: 0.05)
        expectEqual(n, Int((Self.t * Self.t * (7.0 / 12) / 0.25).rounded(.up)))
        expectEqual(n, 44)
        // A wide δ never asks for fewer than the first stage.
        expectEqual(ComparisonsWithTheBest.fixedSampleSize(Self.observations, firstStage: 3, delta: 100, alpha: 0.05), 3)
        #expect(ComparisonsWithTheBest.fixedSampleSize(Self.observations, firstStage: 4, delta: 0.5, alpha: 0.05) == nil)
    }

    /// Coverage on synthetic systems with known means (a stand-in model, not the chain):
    /// observations μ_i + 2·Z_r + ε_ir with Z_r shared by the systems of replication r. Over
    /// 400 macro-replications of a fixed sample of 10, all four intervals hold together in at
    /// least 95 % of them, less three standard errors, 3 · √(0.95 · 0.05 / 400) = 0.0327.
    @Test func theIntervalsHoldTogetherAtThePromisedLevel() {
        let means: [Double] = [0, 0.5, 1, 1]
        let truth = means.indices.map { i in means[i] - (means.indices.filter { $0 != i }.map { means[$0] }.min() ?? 0) }
        let macros = 400
        var covered = 0
        for m in 0..<macros {
            var shared = RandomStream(seed: 50_000 + UInt64(m))
            var noise = RandomStream(seed: 90_000 + UInt64(m))
            let common = (0..<10).map { _ in shared.nextGaussian() }
            let observations = means.map { mu in common.map { mu + 2 * $0 + noise.nextGaussian() } }
            let mcb = ComparisonsWithTheBest.intervals(observations, alpha: 0.05)
            if mcb.indices.allSatisfy({ mcb[$0].lower <= truth[$0] && truth[$0] <= mcb[$0].upper }) { covered += 1 }
        }
        let share = Double(covered) / Double(macros)
        #expect(share >= 0.95 - 3 * (0.95 * 0.05 / Double(macros)).squareRoot(), "coverage \(share)")
    }
}
