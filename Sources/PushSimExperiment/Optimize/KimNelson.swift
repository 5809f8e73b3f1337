// Kim and Nelson's fully sequential ranking-and-selection procedure (KN, 2001) on common random numbers: which of k systems has the smallest mean.
import PushSimCore

/// The outcome of one KN selection.
package struct SelectionResult: Equatable, Sendable {
    /// One system screened out: at which stage (replications taken so far), and by which system.
    package struct Elimination: Equatable, Sendable {
        package var system: Int
        package var replications: Int
        package var by: Int
    }
    /// The system chosen (the one left, or the lowest sample mean when the procedure ended).
    package var best: Int
    /// The systems still in contention when it stopped: one when KN finished, more when
    /// `maxReplications` cut it short (then the guarantee does not hold).
    package var survivors: [Int]
    package var eliminations: [Elimination]
    /// Replications taken of each system.
    package var replications: [Int]
    /// Each system's sample mean over its own replications.
    package var means: [Double]
    /// Whether KN reached its own end (one survivor, or every pair past its bound).
    package var finished: Bool
    /// Whether `shouldStop` ended it before that (Ctrl-C): then the guarantee does not hold.
    package var stopped = false
}

/// Kim, S.-H., and Nelson, B. L. (2001), "A fully sequential procedure for indifference-zone
/// selection in simulation", ACM TOMACS 11(3): with normal observations (common random numbers
/// allowed: it works on the variances of differences), if the best mean is at least `delta`
/// below every other, the system it selects is the best with probability ≥ 1 − `alpha`.
/// Written for the smallest mean (a cost); the paper selects the largest.
package enum KimNelson {
    /// η of the procedure: ½ [(2α / (k − 1))^(−2/(n₀−1)) − 1].
    package static func eta(alpha: Double, systems k: Int, firstStage n0: Int) -> Double {
        guard k > 1, n0 > 1 else { return 0 }
        let base = 2 * alpha / Double(k - 1)
        return 0.5 * (PortableMath.exp(-2 / Double(n0 - 1) * PortableMath.log(base)) - 1)
    }

    /// Runs KN. `observe(i, r)` is system i's observation in replication r (0-based; the
    /// same r for every system is the same common random numbers). Every surviving system is
    /// observed at each stage, in system order, so the result is deterministic for
    /// a deterministic `observe`. Needs k ≥ 2, n₀ ≥ 2, δ > 0, 0 < α < 1.
    package static func select(systems k: Int, delta: Double, alpha: Double, firstStage n0: Int,
                               maxReplications: Int, shouldStop: () -> Bool = { false },
                               observe: (Int, Int) throws -> Double) rethrows -> SelectionResult {
        let h2 = 2 * eta(alpha: alpha, systems: k, firstStage: n0) * Double(n0 - 1)
        var data: [[Double]] = Array(repeating: [], count: k)
        for r in 0..<n0 { for i in 0..<k { data[i].append(try observe(i, r)) } }
        // S²_il: the sample variance of X_i − X_l over the first stage (fixed from then on).
        var s2 = Array(repeating: Array(repeating: 0.0, count: k), count: k)
        for i in 0..<k {
            for l in 0..<k where l != i {
                let d = (0..<n0).map { data[i][$0] - data[l][$0] }
                let mean = d.reduce(0, +) / Double(n0)
                s2[i][l] = d.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(n0 - 1)
            }
        }
        var alive = Array(0..<k)
        var eliminations: [SelectionResult.Elimination] = []
        var r = n0
        var finished = false
        var stopped = false
        while true {
            let means = data.map { $0.prefix(r).reduce(0, +) / Double(r) }
            let before = alive
            var kept: [Int] = []
            for i in before {
                // Eliminated when some l is better by more than the triangle's half-width W_il(r).
                let rival = before.first { l in
                    guard l != i else { return false }
                    let w = max(0, delta / (2 * Double(r)) * (h2 * s2[i][l] / (delta * delta) - Double(r)))
                    return means[i] > means[l] + w
                }
                if let l = rival { eliminations.append(.init(system: i, replications: r, by: l)) } else { kept.append(i) }
            }
            alive = kept
            // Every pair's triangle closes by r = ⌊h² S²/δ²⌋ + 1: then the screening above has
            // decided every pair, and the lowest mean wins.
            let pairBounds: [Double] = before.flatMap { (i: Int) -> [Double] in
                before.filter { $0 != i }.map { (l: Int) -> Double in h2 * s2[i][l] / (delta * delta) }
            }
            let bound = pairBounds.max() ?? 0
            if alive.count <= 1 || Double(r) > bound { finished = true; break }
            if r >= maxReplications { break }
            // Asked between stages, so every survivor has the same replications when it stops.
            if shouldStop() { stopped = true; break }
            for i in alive { data[i].append(try observe(i, r)) }
            r += 1
        }
        let means = data.map { $0.reduce(0, +) / Double(max($0.count, 1)) }
        let best = alive.min { means[$0] < means[$1] } ?? 0
        return SelectionResult(best: best, survivors: alive, eliminations: eliminations,
                               replications: data.map(\.count), means: means, finished: finished, stopped: stopped)
    }
}
