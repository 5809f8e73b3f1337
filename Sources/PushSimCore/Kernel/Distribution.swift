// Distributions of durations, as the scenario contract defines them, sampled from our own streams.


/// A distribution of durations. Parameters are in microseconds.
package enum Distribution: Hashable, Sendable, CustomStringConvertible {
    case constant(SimTime)
    case exponential(mean: Double)
    case uniform(min: Double, max: Double)
    /// `lognormal(MEDIAN, P99)`: mu = ln(median), sigma = ln(p99 / median) / z(0.99).
    case lognormal(median: Double, p99: Double)

    /// z such that Φ(z) = 0.99, as the contract fixes it.
    package static let z99 = 2.3263478740408408

    package var mean: Double {
        switch self {
        case .constant(let t): return Double(t.microseconds)
        case .exponential(let m): return m
        case .uniform(let a, let b): return (a + b) / 2
        case .lognormal(let median, let p99):
            let sigma = PortableMath.log(p99 / median) / Distribution.z99
            return median * PortableMath.exp(sigma * sigma / 2)
        }
    }

    /// Draws one duration, rounded to the nearest microsecond.
    package func sample(_ rng: inout RandomStream) -> SimTime {
        switch self {
        case .constant(let t): return t
        case .exponential(let m): return SimTime.rounding(m * rng.nextExponential())
        case .uniform(let a, let b): return SimTime.rounding(a + (b - a) * rng.nextUnit())
        case .lognormal(let median, let p99):
            let sigma = PortableMath.log(p99 / median) / Distribution.z99
            return SimTime.rounding(median * PortableMath.tableExp(sigma * rng.nextGaussian()))
        }
    }

    /// The distribution with its derived parameters worked out once, for loops that draw from
    /// it many times (a lognormal's sigma costs a logarithm per draw otherwise). Draws are
    /// bit-for-bit those of ``sample(_:)``.
    package var sampler: DistributionSampler { DistributionSampler(self) }

    /// Draws the remaining length of a period that is already under way at a random instant
    /// (the equilibrium, or residual-life, distribution): a length-biased draw times a uniform.
    package func sampleResidual(_ rng: inout RandomStream) -> SimTime {
        switch self {
        case .constant(let t): return SimTime.rounding(Double(t.microseconds) * rng.nextUnit())
        case .exponential: return sample(&rng)  // memoryless: the residual is the same law
        case .uniform(let a, let b):
            // Length-biased uniform has density 2x / (b² − a²) on [a, b].
            let biased = (a * a + rng.nextUnit() * (b * b - a * a)).squareRoot()
            return SimTime.rounding(biased * rng.nextUnit())
        case .lognormal(let median, let p99):
            // Length-biasing a lognormal shifts mu by sigma².
            let sigma = PortableMath.log(p99 / median) / Distribution.z99
            let biased = median * PortableMath.tableExp(sigma * sigma + sigma * rng.nextGaussian())
            return SimTime.rounding(biased * rng.nextUnit())
        }
    }

    /// The distribution in the file syntax.
    package var description: String {
        // Past 9.2e18 µs `rounding` saturates to `forever`, which a distribution does not take:
        // the whole count is written instead, so the text reads back to the same parameter.
        func d(_ us: Double) -> String {
            guard us >= 9.2e18, us.isFinite else { return SimTime.rounding(us).description }
            return SimTime(microseconds: us >= 0x1p63 ? Int64.max : Int64(us)).unitsText
        }
        switch self {
        case .constant(let t): return t.description
        case .exponential(let m): return "exponential(\(d(m)))"
        case .uniform(let a, let b): return "uniform(\(d(a)), \(d(b)))"
        case .lognormal(let m, let p): return "lognormal(\(d(m)), \(d(p)))"
        }
    }
}

/// A ``Distribution`` ready for repeated draws: the lognormal's sigma is computed once.
package struct DistributionSampler: Sendable {
    package let distribution: Distribution
    let sigma: Double
    /// The law and its scale as plain fields: switching over these is cheaper in the hot path
    /// than unpacking the enum's associated values on every draw.
    let kind: Kind
    let scale: Double
    enum Kind: UInt8 { case lognormal, exponential, other }
    // The lazily built tables, fetched once here rather than on every draw.
    let normalTable = ZigguratTable.normal
    let exponentialTable = ZigguratTable.exponential
    let powersOfTwo = PortableMath.PowersOfTwo.sixtyFourths

    package init(_ distribution: Distribution) {
        self.distribution = distribution
        switch distribution {
        case .lognormal(let median, let p99):
            sigma = PortableMath.log(p99 / median) / Distribution.z99
            kind = .lognormal
            scale = median
        case .exponential(let mean):
            sigma = 0
            kind = .exponential
            scale = mean
        default:
            sigma = 0
            kind = .other
            scale = 0
        }
    }

    /// Draws one duration in microseconds, exactly as `distribution.sample(&rng)` would.
    @inline(__always) package func sample(_ rng: inout RandomStream) -> Int64 {
        switch kind {
        case .lognormal:
            return SimTime.rounding(scale * PortableMath.tableExp(sigma * rng.nextGaussian(normalTable), powersOfTwo)).microseconds
        case .exponential:
            return SimTime.rounding(scale * rng.nextExponential(exponentialTable)).microseconds
        case .other:
            return distribution.sample(&rng).microseconds
        }
    }
}
