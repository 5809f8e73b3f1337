// Runs `pushsim calibrate`: the search for the parameters whose simulated moments match the observed ones, then their intervals.
import PushSimCore
import PushSimScenarioFile

/// How hard the search works.
package struct CalibrationSettings: Equatable, Sendable {
    /// The most candidates the search simulates (the Jacobian's 2 per parameter come on top).
    package var maxEvaluations: Int
    /// The Jacobian's step on each side of the fitted value, as a share of the parameter's range.
    package var jacobianStep: Double
    /// Runs of the fitted scenario on as many seeds (the first is the scenario's own) that
    /// measure the moments' noise (MomentCovariance); at least 2.
    package var replications: Int

    package init(maxEvaluations: Int = 40, jacobianStep: Double = 0.05, replications: Int = 10) {
        self.maxEvaluations = maxEvaluations; self.jacobianStep = jacobianStep; self.replications = replications
    }

    /// The intervals' quantile: Student's t at 0.975 on replications − 1 degrees of freedom
    /// (the covariance is estimated from them), for 95 % intervals.
    package var quantile: Double {
        ReplicationStatistics.studentTQuantile(0.975, degreesOfFreedom: max(1, replications - 1))
    }
}

package struct FittedParameter: Equatable, Sendable {
    package var parameter: FitParameter
    package var value: Double
    package var interval: CalibrationIntervals.Parameter
}

package struct FittedTarget: Equatable, Sendable {
    package var target: CalibrationTarget
    package var fitted: Double
    /// Items (or minutes) the fitted run simulated for it.
    package var simulatedSize: Double
    /// The standard error of observed − fitted: observation and simulation together.
    package var standardError: Double
    /// (observed − fitted) / standardError.
    package var standardized: Double
}

package struct CalibrationResult: Equatable, Sendable {
    package var scenario: String
    package var seed: UInt64
    package var devices: Int
    package var settings: CalibrationSettings
    package var parameters: [FittedParameter]
    package var targets: [FittedTarget]
    /// J at the fitted values, and its chi-square degrees of freedom (moments − parameters).
    package var j: Double
    package var degreesOfFreedom: Int
    package var pValue: Double?
    /// Candidates the search simulated, and every simulation including the Jacobian's.
    package var evaluations: Int
    package var simulations: Int
    package var converged: Bool
    /// The search's path: each candidate simulated, in order, with its J (+∞: not a valid scenario).
    package var history: [(values: [Double], j: Double)]
    /// The `--set` overrides that give the fitted scenario.
    package var overrides: [String]

    package static func == (a: CalibrationResult, b: CalibrationResult) -> Bool {
        a.scenario == b.scenario && a.seed == b.seed && a.parameters == b.parameters && a.targets == b.targets
            && a.j == b.j && a.history.map(\.values) == b.history.map(\.values) && a.history.map(\.j) == b.history.map(\.j)
            && a.overrides == b.overrides && a.evaluations == b.evaluations && a.simulations == b.simulations
    }
}

/// Nothing could be fitted: no candidate in the box made a valid scenario.
package struct CalibrationError: Error, CustomStringConvertible, Sendable {
    package var description: String
}

/// Simulated moments kept from an earlier, stopped calibration (`calibrate --resume`): a
/// candidate it holds is not simulated again.
package protocol CalibrationMemory: AnyObject {
    /// The moments of `targets` the run of `scenario` (its seed set) gave, when kept.
    func moments(of scenario: Scenario, targets: [CalibrationTarget]) -> SimulatedMoments?
    /// Keeps the moments of a run just simulated.
    func keep(_ moments: SimulatedMoments, of scenario: Scenario, targets: [CalibrationTarget])
}

package enum CalibrationRunner {
    /// Fits `parameters` to `observations`. Every candidate runs the scenario `prepared` holds
    /// with the candidate's overrides on the scenario's own seed (common random numbers: two
    /// candidates differ by their parameters only, so J is a deterministic function of them),
    /// the queue arm alone when the scenario runs both. The search is Nelder–Mead in the box
    /// scaled to [0, 1]^p from the scenario's own values; then 2 runs per parameter give the
    /// Jacobian at the fitted values, and CalibrationIntervals the intervals. A candidate that
    /// is not a valid scenario (a lognormal's median above its p99) counts as J = +∞.
    /// `progress(simulations done, best J so far)` is called after each simulation. `admit`
    /// is asked before each candidate runs (its scenario and its `--set` overrides): a reason
    /// not to run it stops the search there, and the calibration fails with that reason.
    package static func run(_ prepared: ScenarioLoader.Prepared, base: Scenario, parameters: [FitParameter],
                            observations: CalibrationObservations, settings: CalibrationSettings, jobs: Int = 1,
                            memory: CalibrationMemory? = nil,
                            admit: ((Scenario, [String]) -> String?)? = nil,
                            progress: ((Int, Double) -> Void)? = nil) throws -> CalibrationResult {
        let targets = CalibrationTarget.of(observations)
        // The queue arm alone: the log's moments come from it, and the console's too.
        let armOverride = base.queue.mode == .both ? ["queue.mode=on"] : []
        var cache: [String: (SimulatedMoments, Double)?] = [:]
        var history: [(values: [Double], j: Double)] = []
        var simulations = 0
        var bestJ = Double.infinity
        var refused: String?
        func settled(_ values: [Double]) -> [Double] { zip(parameters, values).map { $0.settled($1) } }
        func simulate(_ values: [Double], seed: UInt64? = nil) -> (SimulatedMoments, Double)? {
            let overrides = FitParameter.overrides(parameters, values) + (seed.map { ["seed=\($0)"] } ?? [])
            let key = overrides.joined(separator: "\n")
            if let known = cache[key] { return known }
            guard refused == nil else { return nil }
            var outcome: (SimulatedMoments, Double)?
            if let scenario = try? ScenarioLoader.load(prepared, overrides: overrides + armOverride) {
                let moments: SimulatedMoments
                if let known = memory?.moments(of: scenario, targets: targets) {
                    moments = known
                } else {
                    if let why = admit?(scenario, overrides) { refused = why; return nil }
                    let (result, logs) = Simulator.run(scenario, jobs: jobs, logs: true)
                    moments = SimulatedMoments.measure(targets, result: result, logs: logs, scenario: scenario)
                    memory?.keep(moments, of: scenario, targets: targets)
                }
                outcome = (moments, CalibrationObjective.j(targets, moments))
                simulations += 1
                bestJ = min(bestJ, outcome?.1 ?? .infinity)
                progress?(simulations, bestJ)
            }
            cache[key] = outcome
            return outcome
        }
        let ranges = parameters.map { $0.low...$0.high }
        func real(_ u: [Double]) -> [Double] {
            settled(zip(ranges, u).map { $0.lowerBound + $1 * ($0.upperBound - $0.lowerBound) })
        }
        let start = zip(ranges, parameters).map { ($1.start - $0.lowerBound) / ($0.upperBound - $0.lowerBound) }
        let search = NelderMead.minimize(start: start, maxEvaluations: settings.maxEvaluations) { u in
            let values = real(u)
            let j = simulate(values)?.1 ?? .infinity
            history.append((values, j))
            return j
        }
        let fitted = real(search.point)
        if let refused { throw CalibrationError(description: refused) }
        guard let (moments, searchJ) = simulate(fitted), searchJ.isFinite else {
            throw CalibrationError(description: "no candidate within the --fit ranges made a valid scenario; widen or move the ranges")
        }
        // The Jacobian by central differences over ±step of each range (one-sided at a bound),
        // wide enough that the step-function noise of a fixed seed averages out.
        var jacobian = [[Double]](repeating: [Double](repeating: 0, count: parameters.count), count: targets.count)
        for (k, parameter) in parameters.enumerated() {
            let h = settings.jacobianStep * (parameter.high - parameter.low)
            var below = fitted, above = fitted
            below[k] = parameter.settled(max(parameter.low, fitted[k] - h))
            above[k] = parameter.settled(min(parameter.high, fitted[k] + h))
            if below[k] == above[k] { above[k] = min(parameter.high, below[k] + 1) }
            guard above[k] > below[k], let (m1, _) = simulate(below), let (m2, _) = simulate(above) else { continue }
            for i in targets.indices { jacobian[i][k] = (m2.values[i] - m1.values[i]) / (above[k] - below[k]) }
        }
        // The moments' noise at the fitted values, from replications on other seeds (the first
        // is the scenario's own, already run).
        let seeds = ReplicationSeeds.seeds(base: base.seed, count: max(2, settings.replications))
        let runs = seeds.enumerated().compactMap { r, seed in r == 0 ? moments.values : simulate(fitted, seed: seed)?.0.values }
        if let refused { throw CalibrationError(description: refused) }
        let formula = targets.indices.map { i -> Double in
            let se = CalibrationObjective.standardError(targets[i], simulated: moments.sizes[i])
            return se * se
        }
        let sigma = MomentCovariance.total(MomentCovariance.sample(runs), simulatedSizes: moments.sizes,
                                           observedSizes: targets.map(\.sampleSize), fallback: formula)
        let weights = targets.indices.map { 1 / CalibrationObjective.weightVariance(targets[$0], simulated: moments.sizes[$0]) }
        let intervals = CalibrationIntervals.intervals(values: fitted, ranges: ranges, jacobian: jacobian,
                                                       weights: weights, sigma: sigma, quantile: settings.quantile)
        let fittedTargets = targets.indices.map { i in
            let se = sigma[i][i].squareRoot()
            return FittedTarget(target: targets[i], fitted: moments.values[i], simulatedSize: moments.sizes[i], standardError: se,
                                standardized: se > 0 ? (targets[i].observed - moments.values[i]) / se : 0)
        }
        // J as reported: each term's weight scaled by its design effect (the measured variance
        // over the formula's), so phones' clustering does not read as misfit.
        let reportedJ = targets.indices.reduce(0.0) { sum, i in
            let d = targets[i].observed - moments.values[i]
            let designEffect = formula[i] > 0 && sigma[i][i] > 0 ? sigma[i][i] / formula[i] : 1
            return sum + d * d * weights[i] / designEffect
        }
        let df = CalibrationObjective.moments(targets) - parameters.count
        let j = reportedJ
        return CalibrationResult(
            scenario: base.name, seed: base.seed, devices: base.devices, settings: settings,
            parameters: parameters.indices.map { FittedParameter(parameter: parameters[$0], value: fitted[$0], interval: intervals[$0]) },
            targets: fittedTargets, j: j, degreesOfFreedom: df, pValue: CalibrationObjective.pValue(j, degreesOfFreedom: df),
            evaluations: search.evaluations, simulations: simulations, converged: search.converged, history: history,
            overrides: FitParameter.overrides(parameters, fitted))
    }
}
