// From the moments' sensitivities at the fitted values to standard errors, intervals and the parameters the data cannot pin down.

/// The delta-method (sandwich) covariance of simulated method of moments with the efficient
/// weights: V = (GᵀWG)⁻¹, G the Jacobian of the simulated moments in the parameters at the
/// fitted values, W = diag(1/variance) the weights of J (CalibrationObjective), whose variances
/// already hold the simulation's own noise (Gouriéroux and Monfort 1996; McFadden 1989). The
/// interval is value ± z·√V_jj, z the normal quantile, cut to the searched box.
package enum CalibrationIntervals {
    package struct Parameter: Equatable, Sendable {
        /// √V_jj; nil for a parameter found not identified before V could be formed.
        package var standardError: Double?
        package var low: Double
        package var high: Double
        package var identified: Bool
        /// How far J moves (in its own units, linearised) when the parameter alone crosses its
        /// whole range: √(Σ (G_ij·range)²/variance_i). Below z the data cannot tell any two
        /// values of the box apart at the interval's level.
        package var sensitivity: Double
        /// Why not identified (empty when identified).
        package var reason: String
    }

    /// Intervals for parameters at `values` in boxes `ranges`, from the Jacobian `g[i][j]`
    /// (target i, parameter j) and the targets' `variances`.
    package static func intervals(values: [Double], ranges: [ClosedRange<Double>], jacobian g: [[Double]],
                                  variances: [Double], z: Double) -> [Parameter] {
        let p = values.count
        let width = ranges.map { $0.upperBound - $0.lowerBound }
        let sensitivity = (0..<p).map { j in
            zip(g, variances).reduce(0) { $0 + ($1.0[j] * width[j]) * ($1.0[j] * width[j]) / $1.1 }.squareRoot()
        }
        var out = (0..<p).map { Parameter(standardError: nil, low: ranges[$0].lowerBound, high: ranges[$0].upperBound,
                                          identified: false, sensitivity: sensitivity[$0], reason: "") }
        // The information matrix GᵀWG over the parameters still in play; one that makes it
        // singular (a flat direction: the moments do not move, or move only as another
        // parameter's do) leaves, the least sensitive first.
        var kept = (0..<p).filter { sensitivity[$0] > 0 }
        for j in 0..<p where sensitivity[j] == 0 {
            out[j].reason = "no observable moves when it changes (flat)"
        }
        var inverse: [[Double]]?
        while !kept.isEmpty {
            // In units of each parameter's range, so that a duration in microseconds and a share
            // meet on one scale (the pivot test would otherwise read one of them as zero).
            let information = kept.map { a in kept.map { b in
                zip(g, variances).reduce(0) { $0 + ($1.0[a] * width[a]) * ($1.0[b] * width[b]) / $1.1 }
            } }
            if let inv = invert(information) { inverse = inv; break }
            guard let weakest = kept.min(by: { (sensitivity[$0], $0) < (sensitivity[$1], $1) }) else { break }
            out[weakest].reason = "it moves the observables only as the other fitted parameters do (a flat direction)"
            kept.removeAll { $0 == weakest }
        }
        guard let inverse else { return out }
        for (a, j) in kept.enumerated() {
            let variance = inverse[a][a] * width[j] * width[j]
            guard variance.isFinite, variance > 0 else {
                out[j].reason = "its variance could not be estimated (a flat direction)"
                continue
            }
            let se = variance.squareRoot()
            let lower = values[j] - z * se, upper = values[j] + z * se
            out[j].standardError = se
            out[j].low = max(lower, ranges[j].lowerBound)
            out[j].high = min(upper, ranges[j].upperBound)
            if lower <= ranges[j].lowerBound && upper >= ranges[j].upperBound {
                out[j].reason = "its interval spans the whole range searched"
            } else {
                out[j].identified = true
            }
        }
        return out
    }

    /// The inverse of a small symmetric matrix (Gauss–Jordan with partial pivoting), nil when a
    /// pivot is below 1e-12 of the diagonal's scale: singular for the data's precision.
    static func invert(_ m: [[Double]]) -> [[Double]]? {
        let n = m.count
        var a = m.enumerated().map { i, row in row + (0..<n).map { $0 == i ? 1.0 : 0.0 } }
        let scale = (0..<n).map { abs(m[$0][$0]) }.max() ?? 0
        guard scale > 0, scale.isFinite else { return nil }
        for col in 0..<n {
            guard let pivot = (col..<n).max(by: { abs(a[$0][col]) < abs(a[$1][col]) }), abs(a[pivot][col]) > 1e-12 * scale else { return nil }
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
