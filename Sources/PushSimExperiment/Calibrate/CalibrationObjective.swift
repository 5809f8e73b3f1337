// The distance between observed and simulated moments, each weighted by its standard error: J and its degrees of freedom.
import PushSimCore

/// Simulated method of moments' criterion (docs/research.md, "pushsim calibrate"):
/// J(θ) = Σ (observed − simulated(θ))² / variance, where each variance adds the observation's
/// sampling variance and the simulation's own (the simulated moment is an estimate too):
///
/// - a cell of a multinomial group (console shares, gap sizes): q·(1/n + 1/m), Neyman's form,
///   so that a group's terms add up to its chi-square with K − 1 degrees of freedom;
/// - a proportion (gaps per push): q(1 − q)(1/n + 1/m);
/// - a rate (re-requests per minute): q(1/n + 1/m), n and m the minutes observed and simulated;
///
/// q is the observed value, kept at least half an item from 0 (and 1), so a category observed
/// zero times still has a variance. With fixed weights J is a smooth quadratic in the simulated
/// moments; at the true parameters it is close to chi-square distributed.
package enum CalibrationObjective {
    /// The observed value as the variance reads it.
    static func floored(_ t: CalibrationTarget) -> Double {
        let half = 0.5 / max(t.sampleSize, 1)
        switch t.kind {
        case .proportion: return min(max(t.observed, half), 1 - half)
        case .cell, .rate: return max(t.observed, half)
        }
    }

    /// 1/n + 1/m: the observation's and the simulation's share of the variance.
    static func sizes(_ t: CalibrationTarget, simulated m: Double) -> Double {
        1 / max(t.sampleSize, 1) + 1 / max(m, 1)
    }

    /// The variance J divides the target's squared residual by.
    package static func weightVariance(_ t: CalibrationTarget, simulated m: Double) -> Double {
        let q = floored(t)
        switch t.kind {
        case .cell, .rate: return q * sizes(t, simulated: m)
        case .proportion: return q * (1 - q) * sizes(t, simulated: m)
        }
    }

    /// The target's own standard error (a cell's as a binomial share, not Neyman's form), as
    /// the report shows it beside observed − fitted.
    package static func standardError(_ t: CalibrationTarget, simulated m: Double) -> Double {
        let q = floored(t)
        switch t.kind {
        case .cell, .proportion: return (q * (1 - min(q, 1)) * sizes(t, simulated: m)).squareRoot()
        case .rate: return (q * sizes(t, simulated: m)).squareRoot()
        }
    }

    /// J at `simulated`.
    package static func j(_ targets: [CalibrationTarget], _ simulated: SimulatedMoments) -> Double {
        var sum = 0.0
        for (i, t) in targets.enumerated() {
            let d = t.observed - simulated.values[i]
            sum += d * d / weightVariance(t, simulated: simulated.sizes[i])
        }
        return sum
    }

    /// The moments' independent pieces: K − 1 per multinomial group of K cells, one per other target.
    package static func moments(_ targets: [CalibrationTarget]) -> Int {
        var groups: Set<Int> = []
        var count = 0
        for t in targets {
            if case .cell(let g) = t.kind { if !groups.insert(g).inserted { count += 1 } } else { count += 1 }
        }
        return count
    }

    /// P(χ²(ν) ≥ j): the chance of a J at least this large if the model with the fitted values
    /// were true. nil without degrees of freedom (as many parameters as moments: J is 0 or
    /// says nothing about the fit).
    package static func pValue(_ j: Double, degreesOfFreedom nu: Int) -> Double? {
        guard nu >= 1, j.isFinite else { return nil }
        return upperRegularizedGamma(Double(nu) / 2, j / 2, logGammaA: ReplicationStatistics.logGammaOfHalfInteger(nu))
    }

    /// Q(a, x) = Γ(a, x)/Γ(a), by its series below a + 1 and its continued fraction above
    /// (modified Lentz), with PortableMath's log and exp so it is the same on every platform.
    static func upperRegularizedGamma(_ a: Double, _ x: Double, logGammaA: Double) -> Double {
        if x <= 0 { return 1 }
        let logFront = a * PortableMath.log(x) - x - logGammaA
        if x < a + 1 {
            var term = 1 / a, sum = term, n = a
            for _ in 0..<1_000 {
                n += 1; term *= x / n; sum += term
                if abs(term) < abs(sum) * 1e-15 { break }
            }
            return max(0, 1 - sum * PortableMath.exp(logFront))
        }
        let tiny = 1e-300
        var b = x + 1 - a, c = 1 / tiny, d = 1 / b, h = d
        for i in 1...1_000 {
            let an = -Double(i) * (Double(i) - a)
            b += 2
            d = an * d + b; if abs(d) < tiny { d = tiny }
            c = b + an / c; if abs(c) < tiny { c = tiny }
            d = 1 / d
            let delta = d * c
            h *= delta
            if abs(delta - 1) < 1e-15 { break }
        }
        return min(1, PortableMath.exp(logFront) * h)
    }
}
