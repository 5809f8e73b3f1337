// A derivative-free minimiser in the unit box: Nelder and Mead's simplex, with every point clamped into the box.
/// Nelder and Mead (1965), with the usual coefficients (reflection 1, expansion 2, contraction
/// ½ outside or inside, shrink ½), on [0, 1]^p: a point the simplex proposes outside the box is
/// clamped onto its face. No derivatives: the
/// simulated J is a step function of the parameters at a fixed seed (counts move by whole
/// items), so gradients say nothing. Deterministic: the same function gives the same path.
package enum NelderMead {
    package struct Outcome: Equatable, Sendable {
        package var point: [Double]
        package var value: Double
        package var evaluations: Int
        /// Whether it stopped because the simplex collapsed (rather than at the budget).
        package var converged: Bool
    }

    /// Minimises `f` over [0, 1]^p from `start`, with a first simplex of steps `initialStep`
    /// along each axis (taken inward where a step would leave the box). Stops after
    /// `maxEvaluations` calls of `f`, when the simplex is smaller than `tolerance` along every
    /// axis, or when `f` throws (the error goes on). `f` may return +∞ for a point it cannot
    /// evaluate.
    package static func minimize(start: [Double], initialStep: Double = 0.25, tolerance: Double = 1e-3,
                                 maxEvaluations: Int, _ f: ([Double]) throws -> Double) rethrows -> Outcome {
        let p = start.count
        var evaluations = 0
        func clamp(_ x: [Double]) -> [Double] { x.map { min(max($0, 0), 1) } }
        func value(_ x: [Double]) throws -> Double { evaluations += 1; return try f(x) }
        var simplex: [(x: [Double], f: Double)] = []
        let origin = clamp(start)
        simplex.append((origin, try value(origin)))
        for i in 0..<p {
            var x = origin
            x[i] = x[i] + initialStep <= 1 ? x[i] + initialStep : x[i] - initialStep
            simplex.append((clamp(x), try value(clamp(x))))
        }
        var converged = false
        while evaluations < maxEvaluations {
            // Stable order: ties keep their earlier place, so the path never depends on a sort's whims.
            simplex = simplex.enumerated().sorted { (a, b) -> Bool in (a.element.f, a.offset) < (b.element.f, b.offset) }
                .map(\.element)
            let spread = (0..<p).map { i in (simplex.map { $0.x[i] }.max() ?? 0) - (simplex.map { $0.x[i] }.min() ?? 0) }
            if (spread.max() ?? 0) < tolerance { converged = true; break }
            guard let worst = simplex.last else { break }
            let secondWorst = simplex[max(0, simplex.count - 2)].f
            let best = simplex[0].f
            var centroid = [Double](repeating: 0, count: p)
            for vertex in simplex.dropLast() { for i in 0..<p { centroid[i] += vertex.x[i] / Double(p) } }
            func along(_ t: Double) -> [Double] { clamp((0..<p).map { centroid[$0] + t * (centroid[$0] - worst.x[$0]) }) }
            let reflected = along(1)
            let fr = try value(reflected)
            if fr < best {
                let expanded = along(2)
                let fe = evaluations < maxEvaluations ? try value(expanded) : .infinity
                simplex[p] = fe < fr ? (expanded, fe) : (reflected, fr)
                continue
            }
            if fr < secondWorst { simplex[p] = (reflected, fr); continue }
            // Contract: outside when the reflection helped a little, inside otherwise.
            let outside = fr < worst.f
            let contracted = along(outside ? 0.5 : -0.5)
            guard evaluations < maxEvaluations else { break }
            let fc = try value(contracted)
            if fc < (outside ? fr : worst.f) { simplex[p] = (contracted, fc); continue }
            // Shrink every vertex halfway toward the best.
            for k in 1...p where evaluations < maxEvaluations {
                let bestPoint = simplex[0].x, vertex = simplex[k].x
                let x = clamp((0..<p).map { (i: Int) -> Double in bestPoint[i] + 0.5 * (vertex[i] - bestPoint[i]) })
                simplex[k] = (x, try value(x))
            }
        }
        let best = simplex.enumerated().min { ($0.element.f, $0.offset) < ($1.element.f, $1.offset) }?.element ?? (origin, .infinity)
        return Outcome(point: best.x, value: best.f, evaluations: evaluations, converged: converged)
    }
}
