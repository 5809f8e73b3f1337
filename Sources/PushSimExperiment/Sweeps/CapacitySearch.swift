// The capacity per 1 000 phones of a partition that keeps a share answered in time: a search on common random numbers.
import PushSimCore

/// What one run at one capacity gave: the share answered in time and what kept the rest from it.
package struct CapacityObservation: Equatable, Sendable {
    /// Re-requests answered in time over all re-requests (`xiva_capacity.in_time_share`).
    package var share: Double
    /// Extension time-outs per re-request: answers after the deadline.
    package var timeoutsPerReRequest: Double
    /// XIVA errors without service per re-request: outages, queue time-outs.
    package var errorsPerReRequest: Double
    /// Re-requests answered with an error in service (`xiva.request_error`), per re-request:
    /// what the share misses besides time-outs and errors without service.
    package var requestErrorsPerReRequest: Double
    package var reRequests: Double
    package init(share: Double, timeoutsPerReRequest: Double, errorsPerReRequest: Double,
                 requestErrorsPerReRequest: Double = 0, reRequests: Double) {
        self.share = share; self.timeoutsPerReRequest = timeoutsPerReRequest
        self.errorsPerReRequest = errorsPerReRequest; self.requestErrorsPerReRequest = requestErrorsPerReRequest
        self.reRequests = reRequests
    }
}

/// The search's settings: the share to reach, the replications, where to start, how fine.
package struct CapacitySearchSettings: Equatable, Sendable {
    /// The least share answered in time to keep (0.99).
    package var target: Double
    /// Seeds, each searched on its own (common random numbers: every capacity on the same seeds).
    package var replications: Int
    /// The first capacity tried, per 1 000 phones per second.
    package var start: Double
    /// The search stops when the bracket is narrower than this share of its upper end.
    package var resolution: Double
    /// The capacity, per 1 000 phones per second, standing for "no limit" when the ceiling is measured.
    package var unlimited: Double
    package init(target: Double, replications: Int, start: Double, resolution: Double = 0.005, unlimited: Double = 1e7) {
        self.target = target; self.replications = replications; self.start = start
        self.resolution = resolution; self.unlimited = unlimited
    }
}

/// One seed's search: the capacities tried, in order, and the bracket found.
package struct CapacitySeedSearch: Equatable, Sendable {
    package var seed: UInt64
    /// (capacity per 1 000 phones per second, what the run gave), in the order run.
    package var tried: [(capacity: Double, observation: CapacityObservation)]
    /// The share with no capacity limit: the most any capacity can reach on this seed.
    package var ceiling: CapacityObservation
    /// The smallest capacity tried that reached the target, and the largest that did not; nil:
    /// the ceiling is below the target (no capacity reaches it).
    package var reached: Double?
    package var missed: Double?

    package static func == (a: CapacitySeedSearch, b: CapacitySeedSearch) -> Bool {
        a.seed == b.seed && a.ceiling == b.ceiling && a.reached == b.reached && a.missed == b.missed
            && a.tried.map(\.capacity) == b.tried.map(\.capacity) && a.tried.map(\.observation) == b.tried.map(\.observation)
    }
}

/// The answer: per seed the least capacity that reached the target; their mean and 95 % interval.
package struct CapacityAnswer: Equatable, Sendable {
    package var settings: CapacitySearchSettings
    package var seeds: [CapacitySeedSearch]
    /// Over the seeds that reach the target: the mean capacity per 1 000 phones per second and
    /// its 95 % half-width (Student t); nil when a seed's ceiling is below the target.
    package var perThousand: MetricSummary?
    /// The ceiling's share, time-outs and errors per re-request over the seeds.
    package var ceilingShare: MetricSummary
    package var ceilingTimeouts: MetricSummary
    package var ceilingErrors: MetricSummary
    package var ceilingRequestErrors: MetricSummary

    /// What caps the share: the largest part of what the ceiling misses.
    package var cap: (cause: String, perReRequest: Double) {
        let parts = [("error answers (xiva.request_error)", ceilingRequestErrors.mean),
                     ("XIVA errors without service (outages, queue time-outs)", ceilingErrors.mean),
                     ("extension time-outs (answers after extension.deadline)", ceilingTimeouts.mean)]
        guard let largest = parts.max(by: { $0.1 < $1.1 }), largest.1 > 0 else {
            return ("nothing: with no capacity limit every re-request is answered in time", 0)
        }
        return largest
    }
}

package enum CapacitySearch {
    /// Searches each seed's least capacity per 1 000 phones that keeps `settings.target` of
    /// re-requests answered in time. `observe(capacity per 1 000 per second, replication)` runs
    /// the scenario at that capacity on replication r's seed. Per seed: the ceiling first (a
    /// capacity with no practical limit); then a bracket, by halving or doubling from the start
    /// (the first seed's answer for the seeds after it); then bisection until the bracket is
    /// narrower than `resolution` of its upper end. The share rises with capacity on one seed
    /// (the same arrivals served faster), so each seed has one crossing; the seeds' crossings
    /// are independent draws, and their mean ± t·s/√n is the answer's interval.
    package static func run(_ settings: CapacitySearchSettings, seeds: [UInt64],
                            observe: (Double, Int) throws -> CapacityObservation) throws -> CapacityAnswer {
        var searches: [CapacitySeedSearch] = []
        var guess = settings.start
        for (r, seed) in seeds.enumerated() {
            var tried: [(capacity: Double, observation: CapacityObservation)] = []
            func meets(_ capacity: Double) throws -> Bool {
                let observation = try observe(capacity, r)
                tried.append((capacity, observation))
                return observation.share >= settings.target
            }
            let ceiling = try observe(settings.unlimited, r)
            var search = CapacitySeedSearch(seed: seed, tried: [], ceiling: ceiling, reached: nil, missed: nil)
            if ceiling.share >= settings.target {
                var reached: Double?, missed: Double?
                var c = guess
                // The bracket: at most 60 halvings or doublings (a factor of 10^18 either way).
                for _ in 0..<60 where reached == nil || missed == nil {
                    if try meets(c) { reached = c; c /= 2 } else { missed = c; c *= 2 }
                    if c >= settings.unlimited { break }
                }
                if var hi = reached, var lo = missed {
                    while hi - lo > settings.resolution * hi {
                        let mid = (lo + hi) / 2
                        if try meets(mid) { hi = mid } else { lo = mid }
                    }
                    reached = hi; missed = lo
                    if r == 0 { guess = hi }
                } else {
                    reached = nil
                }
                search.reached = reached
                search.missed = missed
            }
            search.tried = tried
            searches.append(search)
        }
        let thresholds = searches.compactMap(\.reached)
        return CapacityAnswer(
            settings: settings, seeds: searches,
            perThousand: thresholds.count == searches.count && !thresholds.isEmpty ? ReplicationStatistics.summarize(thresholds) : nil,
            ceilingShare: ReplicationStatistics.summarize(searches.map(\.ceiling.share)),
            ceilingTimeouts: ReplicationStatistics.summarize(searches.map(\.ceiling.timeoutsPerReRequest)),
            ceilingErrors: ReplicationStatistics.summarize(searches.map(\.ceiling.errorsPerReRequest)),
            ceilingRequestErrors: ReplicationStatistics.summarize(searches.map(\.ceiling.requestErrorsPerReRequest)))
    }
}

extension CapacityObservation {
    /// The queue arm's figures (the run's last arm); a run with no re-request had nothing to
    /// answer late: share 1.
    package init(_ result: RunResult) {
        let l = result.arms.last?.ledger ?? Ledger()
        let n = Double(l.xivaCapacity.reRequests)
        let share = l.xivaCapacity.inTimeShare ?? 1
        // The parts of what the share misses (1 − share), each at most what is left of it: an
        // extension that timed out for another reason (a slow download, a long processing) is
        // not a re-request answered late.
        let missed = max(0, 1 - share)
        let errors = min(missed, n > 0 ? Double(l.xivaErrors) / n : 0)
        let timeouts = min(missed - errors, n > 0 ? Double(l.extensionTimeouts) / n : 0)
        // An error answer in service is neither a time-out nor an error without service: the rest.
        self.init(share: share, timeoutsPerReRequest: timeouts, errorsPerReRequest: errors,
                  requestErrorsPerReRequest: max(0, missed - timeouts - errors), reRequests: n)
    }
}

extension CapacitySearch {
    /// The phones one partition of `scenario` holds (devices over partitions).
    package static func partitionSize(_ scenario: Scenario) -> Double {
        Double(scenario.devices) / Double(max(scenario.xiva.partitions, 1))
    }

    /// `scenario` with a capacity of `perThousand` re-requests a second per 1 000 phones of a partition.
    package static func at(_ scenario: Scenario, perThousand: Double) -> Scenario {
        var scenario = scenario
        scenario.xiva.capacityPerMicrosecond = perThousand * partitionSize(scenario) / 1000 / Double(SimTime.second)
        return scenario
    }
}
