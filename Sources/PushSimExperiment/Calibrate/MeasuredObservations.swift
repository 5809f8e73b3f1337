// Observations measured on a simulated run, as a team would measure them on its fleet: to test calibrate on known parameters.
import PushSimCore

extension CalibrationObservations {
    /// Everything `calibrate` can fit, measured on the queue arm of `result` and its log `logs`
    /// (a run of `scenario` with `logs: true`): every console share over the pushes APNs
    /// accepted, every gap-size share, gaps per push (over the whole log, or by hour of day
    /// with `byHour`), and re-requests per minute for the simulated fleet. Recovery tests and
    /// the coverage study calibrate such observations, made at known parameters on another
    /// seed, back to those parameters.
    package static func measured(_ result: RunResult, logs: [LoggedPush], scenario: Scenario, byHour: Bool = false) -> CalibrationObservations {
        var observations = CalibrationObservations()
        let all = CalibrationTarget.of(CalibrationObservations(
            console: ObservedShares(shares: consoleCategories.map { .init(category: $0, value: 0) }, sampleSize: 1),
            gapSizes: ObservedShares(shares: gapSizeCategories.map { .init(category: $0, value: 0) }, sampleSize: 1),
            gapsPerPush: byHour ? (0..<24).map { ObservedGapsPerPush(hour: $0, value: 0, pushes: 1) } : [ObservedGapsPerPush(hour: nil, value: 0, pushes: 1)],
            reRequestsPerMinute: ObservedRate(perMinute: 0, minutes: 1, devices: Double(scenario.devices))))
        let moments = SimulatedMoments.measure(all, result: result, logs: logs, scenario: scenario)
        func shares(_ prefix: String, _ categories: [String]) -> ObservedShares? {
            let indices = all.indices.filter { all[$0].name.hasPrefix(prefix + ".") }
            guard let first = indices.first, moments.sizes[first] > 0 else { return nil }
            return ObservedShares(shares: zip(categories, indices).map { .init(category: $0, value: moments.values[$1]) },
                                  sampleSize: moments.sizes[first])
        }
        observations.console = shares("apns_console", consoleCategories)
        observations.gapSizes = shares("gap_sizes", gapSizeCategories)
        for (i, target) in all.enumerated() {
            switch target.source {
            case .gapsPerPush(let hour) where moments.sizes[i] > 0:
                observations.gapsPerPush.append(ObservedGapsPerPush(hour: hour, value: moments.values[i], pushes: moments.sizes[i]))
            case .reRequestsPerMinute(let devices) where moments.sizes[i] > 0:
                observations.reRequestsPerMinute = ObservedRate(perMinute: moments.values[i], minutes: moments.sizes[i], devices: devices)
            default: break
            }
        }
        return observations
    }
}

extension CalibrationObservations {
    /// What an extension log's summary gives `calibrate` (an observation file's `extension_log`,
    /// docs/research.md): the shares of the gaps found by size, over every gap, and gaps per push
    /// for each hour of the day with a row, over that hour's pushes; the same figures
    /// ``SimulatedMoments/measure(_:result:logs:scenario:)`` reads on a simulated run's log.
    /// Re-requests per minute are not read from it: the log does not say how many minutes and
    /// phones it covers (XIVA's log does: `re_requests_per_minute`).
    package static func fromLog(_ summary: ExtensionLogSummary) -> CalibrationObservations {
        var observations = CalibrationObservations()
        let total = summary.total
        if total.gaps > 0 {
            observations.gapSizes = ObservedShares(
                shares: zip(gapSizeCategories, total.gapSizes).map { .init(category: $0, value: Double($1) / Double(total.gaps)) },
                sampleSize: Double(total.gaps))
        }
        for (hour, h) in summary.byHourOfDay.enumerated() where h.pushes > 0 {
            observations.gapsPerPush.append(ObservedGapsPerPush(hour: hour, value: Double(h.gaps) / Double(h.pushes), pushes: Double(h.pushes)))
        }
        return observations
    }
}
