// The covariance of observed − simulated moments, estimated from replications of the fitted scenario on other seeds.

/// Why replications: a moment counts pushes or gaps, but phones are what is drawn. A phone with
/// display off discards every push it gets, a phone offline for long loses many: items of one
/// phone move together, and a share over 25 000 pushes of 300 phones varies like one over far
/// fewer items. The binomial formulas of CalibrationObjective miss that (a first version's
/// intervals covered 5 times in 20); R runs of the fitted scenario on R seeds measure it.
package enum MomentCovariance {
    /// The sample covariance (R − 1 in the denominator) of the moments of `runs` (one row per
    /// replication, one column per target).
    package static func sample(_ runs: [[Double]]) -> [[Double]] {
        let r = runs.count
        guard let width = runs.first?.count, r > 1 else {
            return Array(repeating: Array(repeating: 0, count: runs.first?.count ?? 0), count: runs.first?.count ?? 0)
        }
        let means = (0..<width).map { i in runs.reduce(0) { $0 + $1[i] } / Double(r) }
        return (0..<width).map { (i: Int) -> [Double] in (0..<width).map { (j: Int) -> Double in
            let sum: Double = runs.reduce(0) { (total: Double, row: [Double]) -> Double in
                total + (row[i] - means[i]) * (row[j] - means[j])
            }
            return sum / Double(r - 1)
        } }
    }

    /// The covariance of observed − simulated: the simulation's own, plus the observation's,
    /// taken as the same per item and scaled to its sample sizes (Σ_obs,ij = Σ_sim,ij ·
    /// √(m_i/n_i · m_j/n_j), m simulated and n observed items: the team's fleet is assumed to
    /// cluster its items as the simulated one does). A target the replications never moved
    /// (a share that is always 0) keeps its formula's variance `fallback[i]`.
    package static func total(_ simulation: [[Double]], simulatedSizes m: [Double], observedSizes n: [Double],
                              fallback: [Double]) -> [[Double]] {
        let ratio = zip(m, n).map { ($0 / max($1, 1)).squareRoot() }
        var sigma = simulation.indices.map { i in simulation.indices.map { j in simulation[i][j] * (1 + ratio[i] * ratio[j]) } }
        for i in sigma.indices where !(sigma[i][i] > 0) {
            for j in sigma.indices { sigma[i][j] = 0; sigma[j][i] = 0 }
            sigma[i][i] = fallback[i]
        }
        return sigma
    }
}
