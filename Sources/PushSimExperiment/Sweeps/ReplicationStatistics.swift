// Means and 95 % confidence intervals over replications (Student t), with the t quantile computed.
import PushSimCore

/// A metric over the replications of one point and arm.
package struct MetricSummary: Equatable, Sendable {
    package var mean: Double
    /// Half-width of the 95 % confidence interval of the mean: t(0.975, n−1) · s / √n.
    /// nil with a single replication: one sample says nothing about its own spread.
    package var ci95: Double?
    package var count: Int

    package init(mean: Double, ci95: Double?, count: Int) {
        self.mean = mean; self.ci95 = ci95; self.count = count
    }
}

package enum ReplicationStatistics {
    /// The mean and 95 % half-width of `values` (independent replications). The interval is the
    /// textbook one for the mean of normal samples; means of thousands of letters are close to
    /// normal, so it is honest here. Empty input: mean 0, no interval.
    package static func summarize(_ values: [Double]) -> MetricSummary {
        summarize(values, quantile: 0.975)
    }

    /// The same with the t quantile given (`ci95` then holds that interval's half-width): for
    /// intervals at another level, such as `optimize`'s Bonferroni-corrected ones.
    package static func summarize(_ values: [Double], quantile: Double) -> MetricSummary {
        let n = values.count
        guard let first = values.first else { return MetricSummary(mean: 0, ci95: nil, count: 0) }
        guard n > 1 else { return MetricSummary(mean: first, ci95: nil, count: 1) }
        // The same value in every replication has that mean and no spread; summing and dividing
        // would round 0.402432 × 3 / 3 to 0.40243199999999996, and the spread to 1.7e-16, which
        // sweep.md would print as `± 0.000000000000`.
        if values.allSatisfy({ $0 == first }) { return MetricSummary(mean: first, ci95: 0, count: n) }
        let mean = values.reduce(0, +) / Double(n)
        let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(n - 1)
        let half = studentTQuantile(quantile, degreesOfFreedom: n - 1) * variance.squareRoot() / Double(n).squareRoot()
        return MetricSummary(mean: mean, ci95: half, count: n)
    }

    /// The p-quantile (0.5 ≤ p < 1) of Student's t distribution with ν degrees of freedom,
    /// found by bisection on the exact distribution function (via the regularized incomplete
    /// beta function), so it is accurate to about 1e-12 for any ν — no table, no approximation.
    package static func studentTQuantile(_ p: Double, degreesOfFreedom nu: Int) -> Double {
        guard nu >= 1, p > 0.5, p < 1 else { return 0 }
        let v = Double(nu)
        // ln Γ(a+b) − ln Γ(a) − ln Γ(b) for a = ν/2, b = ½: the same at every step below.
        let logGammas = logGammaOfHalfInteger(nu + 1) - logGammaOfHalfInteger(nu) - logGammaOfHalfInteger(1)
        func cdf(_ t: Double) -> Double {
            1 - 0.5 * regularizedBeta(v / (v + t * t), a: v / 2, b: 0.5, logGammas: logGammas)
        }
        var low = 0.0, high = 1.0
        while cdf(high) < p && high < 1e12 { low = high; high *= 2 }
        for _ in 0..<200 {
            let mid = (low + high) / 2
            if mid == low || mid == high { break }
            if cdf(mid) < p { low = mid } else { high = mid }
        }
        return (low + high) / 2
    }

    /// ln Γ(k/2) for a whole k ≥ 1, from its product form: Γ(n) = (n−1)! and
    /// Γ(n + ½) = √π · ½ · 3⁄2 ⋯ (n − ½). Only PortableMath's log is used, so the interval
    /// half-widths come out the same on every platform (the C library's lgamma need not).
    static func logGammaOfHalfInteger(_ k: Int) -> Double {
        var sum = k % 2 == 0 ? 0.0 : 0.5 * PortableMath.log(Double.pi)
        var factor = k % 2 == 0 ? 1.0 : 0.5
        while factor < Double(k) / 2 {
            sum += PortableMath.log(factor)
            factor += 1
        }
        return sum
    }

    /// I_x(a, b), the regularized incomplete beta function (continued fraction, modified Lentz);
    /// `logGammas` is ln Γ(a+b) − ln Γ(a) − ln Γ(b), symmetric in a and b.
    static func regularizedBeta(_ x: Double, a: Double, b: Double, logGammas: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        let logPowers: Double = a * PortableMath.log(x) + b * PortableMath.log(1 - x)
        let logFront = logGammas + logPowers
        // The fraction converges fast for x < (a+1)/(a+b+2); use the symmetry otherwise.
        if x > (a + 1) / (a + b + 2) { return 1 - regularizedBeta(1 - x, a: b, b: a, logGammas: logGammas) }
        let tiny = 1e-300
        var c = 1.0
        var d = 1 - (a + b) * x / (a + 1)
        if abs(d) < tiny { d = tiny }
        d = 1 / d
        var result = d
        for m in 1...500 {
            let m = Double(m)
            let evenDenominator: Double = (a + 2 * m - 1) * (a + 2 * m)
            let even: Double = m * (b - m) * x / evenDenominator
            d = 1 + even * d; if abs(d) < tiny { d = tiny }
            c = 1 + even / c; if abs(c) < tiny { c = tiny }
            d = 1 / d
            result *= d * c
            let oddDenominator: Double = (a + 2 * m) * (a + 2 * m + 1)
            let odd: Double = -(a + m) * (a + b + m) * x / oddDenominator
            d = 1 + odd * d; if abs(d) < tiny { d = tiny }
            c = 1 + odd / c; if abs(c) < tiny { c = tiny }
            d = 1 / d
            let delta = d * c
            result *= delta
            if abs(delta - 1) < 1e-15 { break }
        }
        return PortableMath.exp(logFront) * result / a
    }
}
