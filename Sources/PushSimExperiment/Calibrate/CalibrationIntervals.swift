// From the moments' sensitivities and their noise at the fitted values to standard errors, intervals and the parameters the data cannot pin down.

/// The delta-method (sandwich) covariance of simulated method of moments: with W the diagonal
/// weights the search used, G the Jacobian of the simulated moments at the fitted values and Σ
/// the covariance of observed − simulated moments,
/// V = (GᵀWG)⁻¹ GᵀWΣWG (GᵀWG)⁻¹ (Gouriéroux and Monfort 1996, §2; McFadden 1989). The sandwich
/// stays valid when W is not Σ⁻¹, which matters here: pushes of one phone are not independent
/// (a phone with display off discards all of its pushes), so Σ is estimated from replications
/// rather than read off binomial formulas (CalibrationRunner). The interval is
/// value ± t·√V_jj, t Student's quantile on the replications' degrees of freedom, cut to the box.
package enum CalibrationIntervals {
    package struct Parameter: Equatable, Sendable {
        /// √V_jj; nil for a parameter found not identified before V could be formed.
        package var standardError: Double?
        package var low: Double
        package var high: Double
        package var identified: Bool
        /// How far the moments move, in standard errors, when the parameter alone crosses its
        /// whole range (linearised): √(Σ (G_ij·range)²/Σ_ii). Below the interval's quantile the
        /// data cannot tell the two ends of the box apart.
        package var sensitivity: Double
        /// Why not identified (empty when identified).
        package var reason: String
    }

    /// Intervals for parameters at `values` in boxes `ranges`, from the Jacobian `g[i][j]`
    /// (target i, parameter j), the search's weights `weights` (1/variance per target) and the
    /// moments' covariance `sigma`; `quantile` is the interval's t (or z).
    package static func intervals(values: [Double], ranges: [ClosedRange<Double>], jacobian g: [[Double]],
                                  weights: [Double], sigma: [[Double]], quantile: Double) -> [Parameter] {
        let p = values.count, m = weights.count
        let width = ranges.map { $0.upperBound - $0.lowerBound }
        // In units of each parameter's range, so that a duration in microseconds and a share
        // meet on one scale (a pivot test would otherwise read one of them as zero).
        var scaled = [[Double]](repeating: [Double](repeating: 0, count: p), count: m)
        for i in 0..<m { for j in 0..<p { scaled[i][j] = g[i][j] * width[j] } }
        var sensitivity = [Double](repeating: 0, count: p)
        for j in 0..<p {
            var sum = 0.0
            for i in 0..<m where sigma[i][i] > 0 { sum += scaled[i][j] * scaled[i][j] / sigma[i][i] }
            sensitivity[j] = sum.squareRoot()
        }
        var out = (0..<p).map { Parameter(standardError: nil, low: ranges[$0].lowerBound, high: ranges[$0].upperBound,
                                          identified: false, sensitivity: sensitivity[$0], reason: "") }
        for j in 0..<p where sensitivity[j] == 0 {
            out[j].reason = "no observable moves when it changes (flat)"
        }
        // GᵀWG over the parameters still in play; one that makes it singular (a flat direction:
        // the moments move only as another parameter's do) leaves, the least sensitive first.
        var kept = (0..<p).filter { sensitivity[$0] > 0 }
        var bread: [[Double]]?
        var wg: [[Double]] = []
        while !kept.isEmpty {
            // WG over the kept parameters: target i's weight times its row of G.
            wg = (0..<m).map { i in kept.map { scaled[i][$0] * weights[i] } }
            let gt = transpose((0..<m).map { i in kept.map { scaled[i][$0] } })
            if let inverse = invert(product(gt, wg)) { bread = inverse; break }
            guard let weakest = kept.min(by: { (sensitivity[$0], $0) < (sensitivity[$1], $1) }) else { break }
            out[weakest].reason = "it moves the observables only as the other fitted parameters do (a flat direction)"
            kept.removeAll { $0 == weakest }
        }
        guard let bread else { return out }
        // The meat (WG)ᵀΣ(WG), then V = bread · meat · bread, in range units.
        let meat = product(product(transpose(wg), sigma), wg)
        let v = product(product(bread, meat), bread)
        for (a, j) in kept.enumerated() {
            let variance = v[a][a] * width[j] * width[j]
            guard variance.isFinite, variance > 0 else {
                out[j].reason = "its variance could not be estimated (a flat direction)"
                continue
            }
            let se = variance.squareRoot()
            let lower = values[j] - quantile * se, upper = values[j] + quantile * se
            out[j].standardError = se
            out[j].low = max(lower, ranges[j].lowerBound)
            out[j].high = min(upper, ranges[j].upperBound)
            if sensitivity[j] < quantile {
                out[j].reason = "crossing the whole range moves the observables by less than their noise"
            } else if lower <= ranges[j].lowerBound && upper >= ranges[j].upperBound {
                out[j].reason = "its interval spans the whole range searched"
            } else {
                out[j].identified = true
            }
        }
        return out
    }

    /// a · b for small matrices (rows of columns).
    static func product(_ a: [[Double]], _ b: [[Double]]) -> [[Double]] {
        let columns = b.first?.count ?? 0
        var out = [[Double]](repeating: [Double](repeating: 0, count: columns), count: a.count)
        for i in a.indices {
            for k in b.indices where a[i][k] != 0 {
                for j in 0..<columns { out[i][j] += a[i][k] * b[k][j] }
            }
        }
        return out
    }

    static func transpose(_ a: [[Double]]) -> [[Double]] {
        let columns = a.first?.count ?? 0
        return (0..<columns).map { j in a.map { $0[j] } }
    }

    /// The inverse of a small symmetric matrix (Gauss–Jordan with partial pivoting), nil when a
    /// pivot is below 1e-9 of the diagonal's scale: singular for the data's precision.
    static func invert(_ m: [[Double]]) -> [[Double]]? {
        let n = m.count
        var a = m.enumerated().map { i, row in row + (0..<n).map { $0 == i ? 1.0 : 0.0 } }
        let scale = (0..<n).map { abs(m[$0][$0]) }.max() ?? 0
        guard scale > 0, scale.isFinite else { return nil }
        for col in 0..<n {
            guard let pivot = (col..<n).max(by: { abs(a[$0][col]) < abs(a[$1][col]) }), abs(a[pivot][col]) > 1e-9 * scale else { return nil }
            a.swapAt(col, pivot)
            let p = a[col][col]
            a[col] = a[col].map { $0 / p }
            for row in 0..<n where row != col {
                let factor = a[row][col]
                if factor != 0 { a[row] = zip(a[row], a[col]).map { $0 - factor * $1 } }
            }
        }
        return a.map { Array($0[n...]) }
    }
}
