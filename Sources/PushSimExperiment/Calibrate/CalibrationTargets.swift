// The observed moments as a list of targets, and the same moments measured on a simulated run.
import PushSimCore

/// One observed moment `calibrate` fits.
package struct CalibrationTarget: Equatable, Sendable {
    /// How its sampling variance is modelled (docs/research.md, "pushsim calibrate").
    package enum Kind: Equatable, Sendable {
        /// A cell of a multinomial group (`group` numbers the group): the cells of a group
        /// always cover every item, with a cell `other` for the categories the file leaves out.
        case cell(group: Int)
        /// A proportion on its own (gaps per push): binomial.
        case proportion
        /// Events per unit of exposure (re-requests per minute): Poisson.
        case rate
    }

    /// Where the simulated value comes from.
    package enum Source: Equatable, Sendable {
        /// Console category `i` of ``CalibrationObservations/consoleCategories``; nil: the
        /// categories the file did not list (`listed`), together.
        case console(Int?, listed: [Int])
        /// Gap-size bucket `i`; nil: the buckets not listed.
        case gapSize(Int?, listed: [Int])
        /// Gaps per push in an hour of day (nil: all hours).
        case gapsPerPush(hour: Int?)
        /// Re-requests per minute, scaled to a fleet of `devices`.
        case reRequestsPerMinute(devices: Double)
    }

    /// `apns_console.delivered`, `gap_sizes.gaps_3_4`, `gaps_per_push.hour_07`, `re_requests_per_minute`.
    package var name: String
    package var kind: Kind
    package var source: Source
    package var observed: Double
    /// Items observed (pushes, gaps), or minutes for a rate.
    package var sampleSize: Double

    /// The targets of `observations`, in a fixed order: console, gap sizes, gaps per push, re-requests.
    package static func of(_ observations: CalibrationObservations) -> [CalibrationTarget] {
        var targets: [CalibrationTarget] = []
        var group = 0
        func addGroup(_ shares: ObservedShares?, prefix: String, categories: [String],
                      source: (Int?, [Int]) -> Source) {
            guard let shares else { return }
            let listed = shares.shares.compactMap { categories.firstIndex(of: $0.category) }
            for share in shares.shares {
                let index = categories.firstIndex(of: share.category)
                targets.append(CalibrationTarget(name: "\(prefix).\(share.category)", kind: .cell(group: group),
                                                 source: source(index, listed), observed: share.value, sampleSize: shares.sampleSize))
            }
            // The rest of the items, so that the group's cells add up to all of them (the
            // multinomial's weights need every cell); left out when every category is listed.
            if listed.count < categories.count {
                let rest = max(0, 1 - shares.shares.reduce(0) { $0 + $1.value })
                targets.append(CalibrationTarget(name: "\(prefix).other", kind: .cell(group: group),
                                                 source: source(nil, listed), observed: rest, sampleSize: shares.sampleSize))
            }
            group += 1
        }
        addGroup(observations.console, prefix: "apns_console", categories: CalibrationObservations.consoleCategories) {
            .console($0, listed: $1)
        }
        addGroup(observations.gapSizes, prefix: "gap_sizes", categories: CalibrationObservations.gapSizeCategories) {
            .gapSize($0, listed: $1)
        }
        for g in observations.gapsPerPush {
            let name = g.hour.map { "gaps_per_push.hour_" + ($0 < 10 ? "0\($0)" : "\($0)") } ?? "gaps_per_push"
            targets.append(CalibrationTarget(name: name, kind: .proportion, source: .gapsPerPush(hour: g.hour),
                                             observed: g.value, sampleSize: g.pushes))
        }
        if let r = observations.reRequestsPerMinute {
            targets.append(CalibrationTarget(name: "re_requests_per_minute", kind: .rate, source: .reRequestsPerMinute(devices: r.devices),
                                             observed: r.perMinute, sampleSize: r.minutes))
        }
        return targets
    }
}

/// The targets' values on one simulated run, and the sample size each was measured over.
package struct SimulatedMoments: Equatable, Sendable {
    package var values: [Double]
    /// Items simulated (pushes, gaps), or for a rate the minutes of an observed fleet's size
    /// that the simulated devices stand for.
    package var sizes: [Double]

    package init(values: [Double], sizes: [Double]) {
        self.values = values; self.sizes = sizes
    }

    /// Measures `targets` on the queue arm (the run's last arm) of `result` and its extension
    /// log `logs`: the console from the arm's APNs categories, the rest from the log's summary,
    /// so a simulated moment is computed exactly as a team computes it from its own log.
    package static func measure(_ targets: [CalibrationTarget], result: RunResult, logs: [LoggedPush],
                                scenario: Scenario) -> SimulatedMoments {
        let console = result.arms.last.map { CalibrationObservations.consoleCounts($0.ledger.apns) }
            ?? Array(repeating: 0, count: CalibrationObservations.consoleCategories.count)
        let summary = ExtensionLogSummary(logs)
        let total = summary.total
        let byHour = summary.byHourOfDay
        let minutes = Double(scenario.duration.microseconds - scenario.warmup.microseconds) / Double(SimTime.minute)
        func share(_ counts: [Int], _ index: Int?, listed: [Int]) -> (Double, Double) {
            let all = counts.reduce(0, +)
            guard all > 0 else { return (0, 0) }
            let part = index.map { counts[$0] } ?? (all - listed.reduce(0) { $0 + counts[$1] })
            return (Double(part) / Double(all), Double(all))
        }
        var values: [Double] = [], sizes: [Double] = []
        for target in targets {
            let (value, size): (Double, Double)
            switch target.source {
            case .console(let i, let listed): (value, size) = share(console, i, listed: listed)
            case .gapSize(let i, let listed): (value, size) = share(total.gapSizes, i, listed: listed)
            case .gapsPerPush(let hour):
                var pushes = total.pushes, gaps = total.gaps
                if let hour { (pushes, gaps) = (byHour[hour].pushes, byHour[hour].gaps) }
                (value, size) = (pushes > 0 ? Double(gaps) / Double(pushes) : 0, Double(pushes))
            case .reRequestsPerMinute(let devices):
                // The simulated fleet is smaller than the observed one: scale the rate by their
                // ratio; its Poisson exposure is the minutes times the fraction simulated.
                let fraction = Double(scenario.devices) / max(devices, 1)
                (value, size) = (minutes > 0 ? Double(total.reRequests) / minutes / fraction : 0, minutes * fraction)
            }
            values.append(value); sizes.append(size)
        }
        return SimulatedMoments(values: values, sizes: sizes)
    }
}
