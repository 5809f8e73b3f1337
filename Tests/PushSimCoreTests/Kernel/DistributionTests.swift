// Distributions of durations: sampled means and quantiles against their closed forms.
import Foundation
import Testing
@testable import PushSimCore
import PushSimTestSupport

@Suite struct DistributionTests {
    static let n = 100_000

    func draws(_ d: Distribution, residual: Bool = false, seed: UInt64 = 1) -> [Double] {
        var rng = RandomStream(seed: seed, device: 0, purpose: .connectivity)
        return (0..<Self.n).map { _ in
            Double((residual ? d.sampleResidual(&rng) : d.sample(&rng)).microseconds)
        }
    }

    @Test func constantIsConstant() {
        var rng = RandomStream(seed: 1)
        for _ in 0..<100 { expectEqual(constant(5 * sec).sample(&rng), span(5 * sec)) }
        expectEqual(constant(5 * sec).mean, Double(5 * sec))
    }

    @Test func exponentialMeanWithinFourStandardErrors() {
        let m = Double(40 * minute)
        let (mean, _) = meanAndStandardError(draws(.exponential(mean: m)))
        // The standard deviation of an exponential is its mean.
        #expect(within(mean, m, se: m / Double(Self.n).squareRoot()))
    }

    @Test func uniformMeanAndRangeWithinFourStandardErrors() {
        let a = Double(1 * hour), b = Double(3 * hour)
        let xs = draws(.uniform(min: a, max: b))
        #expect(xs.allSatisfy { $0 >= a && $0 <= b })
        let (mean, _) = meanAndStandardError(xs)
        #expect(within(mean, (a + b) / 2, se: (b - a) / Double(12).squareRoot() / Double(Self.n).squareRoot()))
    }

    /// The share of draws below the median is 1/2, below the p99 is 0.99 (binomial errors).
    @Test func lognormalMedianAndP99() {
        let median = Double(300 * ms), p99 = Double(5 * sec)
        let d = Distribution.lognormal(median: median, p99: p99)
        let xs = draws(d)
        let belowMedian = Double(xs.filter { $0 <= median }.count) / Double(Self.n)
        let belowP99 = Double(xs.filter { $0 <= p99 }.count) / Double(Self.n)
        #expect(within(belowMedian, 0.5, se: binomialStandardError(0.5, Self.n)))
        #expect(within(belowP99, 0.99, se: binomialStandardError(0.99, Self.n)))
        // The mean median·exp(σ²/2), with the sample's own standard error.
        let (mean, se) = meanAndStandardError(xs)
        #expect(within(mean, d.mean, se: se))
    }

    @Test func samplesAreRoundedToWholeMicroseconds() {
        var rng = RandomStream(seed: 2)
        for _ in 0..<1_000 {
            let t = Distribution.uniform(min: 0.4, max: 0.6).sample(&rng)
            #expect(t.microseconds == 0 || t.microseconds == 1)
        }
    }

    /// Residual life at a random instant has mean E[X²] / (2 E[X]).
    @Test func residualOfConstantHasTheEquilibriumMean() {
        let c = Double(2 * hour)
        let xs = draws(constant(2 * hour), residual: true)
        #expect(xs.allSatisfy { $0 >= 0 && $0 <= c })
        let (mean, se) = meanAndStandardError(xs)
        #expect(within(mean, c / 2, se: se))
    }

    @Test func residualOfUniformHasTheEquilibriumMean() {
        let a = Double(1 * hour), b = Double(5 * hour)
        let xs = draws(.uniform(min: a, max: b), residual: true)
        let (mean, se) = meanAndStandardError(xs)
        let expected = (a * a + a * b + b * b) / 3 / (a + b)   // E[X²] / (2 E[X])
        #expect(within(mean, expected, se: se))
        #expect(xs.allSatisfy { $0 <= b })
    }

    @Test func residualOfExponentialHasTheEquilibriumMean() {
        let m = Double(3 * hour)
        let (mean, se) = meanAndStandardError(draws(.exponential(mean: m), residual: true))
        #expect(within(mean, m, se: se))   // E[X²] / (2 E[X]) = 2m² / 2m
    }

    @Test func residualOfLognormalHasTheEquilibriumMean() {
        let median = Double(1 * hour), p99 = Double(4 * hour)
        let sigma = log(p99 / median) / Distribution.z99
        let expected = median * exp(1.5 * sigma * sigma) / 2   // E[X²] / (2 E[X])
        let (mean, se) = meanAndStandardError(draws(.lognormal(median: median, p99: p99), residual: true))
        #expect(within(mean, expected, se: se))
    }
}
