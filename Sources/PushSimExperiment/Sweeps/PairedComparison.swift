// Paired comparisons of sweep points on common random numbers: each point minus a reference point, seed by seed.

/// Which point a sweep compares every other with, and why that one.
package enum SweepReferenceChoice: String, Equatable, Sendable {
    /// `--reference PATH=VALUE`: the user named it.
    case named
    /// The point whose resolved scenario is the file's own (every axis at the file's value).
    case file
    /// No point is the file's own: the one with the lowest mean loss rate of the queue arm (the
    /// last arm), ties to the earlier point.
    case best
}

/// Every point against one reference point, replication by replication.
package struct SweepComparison: Equatable, Sendable {
    /// The reference's index in the sweep's points.
    package var reference: Int
    package var choice: SweepReferenceChoice
    /// Per point (in the sweep's order), per arm: each metric's mean of the per-seed differences
    /// (point − reference) and the 95 % half-width of that mean (Student t, n−1 df). The
    /// reference itself has all differences 0 with half-width 0.
    package var differences: [[ArmSummary]]
}

extension ReplicationStatistics {
    /// The mean of `values[k] − reference[k]` and its 95 % half-width, t(0.975, n−1) · s_d / √n
    /// with s_d the standard deviation of the differences: the paired-t interval. Valid when the
    /// two lists were run on the same seeds in the same order (common random numbers): then the
    /// noise both share cancels seed by seed, which is why the interval is narrower than one
    /// built from the two points' own intervals. Lists of different lengths pair their common prefix.
    package static func pairedDifference(_ values: [Double], _ reference: [Double]) -> MetricSummary {
        summarize(zip(values, reference).map { $0 - $1 })
    }
}

extension SweepComparison {
    /// Compares every point with the reference. Replications are paired by seed: every point of
    /// a sweep runs the same seeds in the same order, and a replication whose seed the reference
    /// lacks is left out (it cannot happen in a sweep; it keeps a hand-made result honest). A
    /// metric one of the pair lacks in an arm (a count the other arm has) gets no difference.
    /// Nil with fewer than two replications (no interval) or fewer than two points (nothing to compare).
    package init?(points: [SweepPointResult], reference: Int, choice: SweepReferenceChoice) {
        guard points.count > 1, points.indices.contains(reference),
              points.allSatisfy({ $0.replications.count > 1 }) else { return nil }
        let base = points[reference]
        self.reference = reference
        self.choice = choice
        self.differences = points.map { point in
            point.summaries.indices.map { a in
                var metrics: [String: MetricSummary] = [:]
                guard a < base.summaries.count else { return ArmSummary(queue: point.summaries[a].queue, metrics: [:]) }
                var pairs: [(SweepReplication, SweepReplication)] = []
                for run in point.replications {
                    if let twin = base.replications.first(where: { $0.seed == run.seed }), a < run.arms.count, a < twin.arms.count {
                        pairs.append((run, twin))
                    }
                }
                for name in point.summaries[a].metrics.keys where base.summaries[a].metrics[name] != nil {
                    var values: [Double] = [], references: [Double] = []
                    for (run, twin) in pairs {
                        guard let x = run.arms[a].values[name], let y = twin.arms[a].values[name] else { continue }
                        values.append(x); references.append(y)
                    }
                    if values.count > 1 { metrics[name] = ReplicationStatistics.pairedDifference(values, references) }
                }
                return ArmSummary(queue: point.summaries[a].queue, metrics: metrics)
            }
        }
    }

    /// The point with the lowest mean loss rate of the last arm (the queue arm), ties to the
    /// earlier point; 0 for an empty sweep.
    package static func best(_ points: [SweepPointResult]) -> Int {
        var best = 0, lowest = Double.infinity
        for (index, point) in points.enumerated() {
            if let loss = point.summaries.last?.metrics["loss_rate"]?.mean, loss < lowest { lowest = loss; best = index }
        }
        return best
    }
}

extension MetricSummary {
    /// Whether the 95 % interval of this mean leaves 0 out: a paired difference that is real at
    /// that level. False without an interval.
    package var excludesZero: Bool {
        guard let ci95, ci95.isFinite else { return false }
        return abs(mean) > ci95
    }
}
