// Runs `pushsim optimize`: the points of a sweep plan as KN's systems, replications on common random numbers, then the paired comparisons with the chosen one.
import Foundation
import PushSimCore
import PushSimScenarioFile

/// What the selection minimises and how sure it must be.
package struct OptimizeSettings: Equatable, Sendable {
    /// The metric of the queue arm (the run's last arm) minimised: `loss_rate`, `expected_cost`,
    /// `segments.commuters.loss_rate`, …
    package var metric: String
    /// The indifference zone δ, in the metric's units: differences below it are not worth telling apart.
    package var delta: Double
    /// 1 − α is the promised probability of correct selection.
    package var alpha: Double
    /// n₀, the replications every system gets before any is screened out.
    package var firstStage: Int
    /// The most replications any system gets: past it the procedure stops without its guarantee.
    package var maxReplications: Int

    package init(metric: String, delta: Double, alpha: Double, firstStage: Int, maxReplications: Int) {
        self.metric = metric; self.delta = delta; self.alpha = alpha
        self.firstStage = firstStage; self.maxReplications = maxReplications
    }
}

/// One other system against the chosen one, seed by seed, over the replications both have.
package struct OptimizeDifference: Equatable, Sendable {
    package var system: Int
    /// Mean of (this system − the chosen one) over the shared replications.
    package var mean: Double
    /// Half-width of the simultaneous interval (paired t at level 1 − α/(k−1), Bonferroni);
    /// nil with fewer than two shared replications.
    package var halfWidth: Double?
    package var replications: Int
}

package struct OptimizeResult: Equatable, Sendable {
    package var scenario: String
    package var axes: [SweepAxis]
    package var points: [SweepPoint]
    package var settings: OptimizeSettings
    /// The seeds of replications 0, 1, … (the same at every point), as many as the most any system got.
    package var seeds: [UInt64]
    package var selection: SelectionResult
    /// Per system, the metric in each of its replications, in replication order.
    package var observations: [[Double]]
    /// Every system but the chosen one, in system order.
    package var differences: [OptimizeDifference]
    /// Every system's interval for how much worse it is than the best of the others (MCB).
    package var comparisonsWithTheBest: [ComparisonWithTheBest] = []
    /// The replications per candidate a fixed-sample procedure of the same guarantee would take
    /// (Clark and Yang's Bonferroni two-stage procedure, from the same first stage).
    package var fixedSampleReplications: Int?
    /// `--objective` as given (a metric, or the weights of a stated cost), and `--segment`.
    package var objective = ""
    package var segment: String?
    /// The base scenario resolved, as `validate --print` prints it.
    package var resolvedScenario: [ScenarioPrinter.Entry] = []
    /// The command line's `--set` overrides (and `--seed`).
    package var overrides: [String] = []
    /// Per system, the harm and cost set of its queue arm (``DesignMetrics``) over its replications.
    package var designSummaries: [ArmSummary] = []
}

/// Ctrl-C before the first stage was complete: there is no selection to report.
package struct OptimizeStoppedEarly: Error, Sendable {
    package var runs: Int
}

package enum OptimizeRunner {
    /// Checks the settings against the plan, or says why they do not fit (an input error).
    package static func refusal(_ settings: OptimizeSettings, systems k: Int) -> String? {
        if k < 2 { return "optimize needs at least two candidate values to choose from, found \(k) (give --over PATH=V1,V2,… or a `sweep:` axis)" }
        if !(settings.delta > 0) || !settings.delta.isFinite { return "--indifference must be a number > 0 (in the objective's units), got \(settings.delta)" }
        if !(settings.alpha > 0 && settings.alpha <= 0.5) {
            return "--confidence must be at least 50 % and below 100 %, got \(String(format: "%g", (1 - settings.alpha) * 100)) %"
        }
        if settings.firstStage < 2 { return "--first-stage must be at least 2 (KN needs a variance), got \(settings.firstStage)" }
        if settings.maxReplications < settings.firstStage {
            return "--max-replications (\(settings.maxReplications)) must be at least --first-stage (\(settings.firstStage))"
        }
        return nil
    }

    /// Runs KN over the plan's points. Each observation is one run of one point on replication
    /// r's seed (the same seed at every point: common random numbers), measured by `measure`;
    /// the objective is `settings.metric` of its last arm (the queue arm). Runs happen one after
    /// another, each on `jobs` threads, in the order KN asks for them, so the result never
    /// depends on `jobs`. Replication 0 of every point runs first, so a metric the runs do not
    /// have is reported (thrown as a ``SweepError``) before anything else is spent.
    /// `progress(runs done, replication, systems left)` is called after each run.
    /// `shouldStop` (Ctrl-C) is asked before every run: after the first stage the selection
    /// ends there with what it has (``SelectionResult/stopped``); during it nothing can be
    /// reported yet (KN needs the first stage's variances), and ``OptimizeStoppedEarly`` is thrown.
    package static func run(_ plan: SweepPlan, settings: OptimizeSettings, jobs: Int = 1,
                            measure: (RunResult) -> [ArmMetrics],
                            simulate: ((Scenario) throws -> RunResult)? = nil,
                            shouldStop: @escaping () -> Bool = { false },
                            progress: ((Int, Int, Int) -> Void)? = nil) throws -> OptimizeResult {
        let k = plan.points.count
        if let refusal = refusal(settings, systems: k) { throw SweepError(refusal) }
        guard let base = plan.seeds.first else { throw SweepError("optimize: the plan has no seed") }
        let seeds = ReplicationSeeds.seeds(base: base, count: settings.maxReplications)
        var observations: [[Double]] = Array(repeating: [], count: k)
        // The queue arm's harm and cost set (and load), replication by replication, per system.
        var designRuns: [[SweepReplication]] = Array(repeating: [], count: k)
        var done = 0
        func observe(_ i: Int, _ r: Int) throws -> Double? {
            var seeded = plan.scenarios[i]
            seeded.seed = seeds[r]
            let arm = measure(try simulate?(seeded) ?? Simulator.run(seeded, jobs: jobs)).last
            let value = arm?.values[settings.metric]
            if var arm {
                // The harm and cost set, and the load on the servers (`load.…`, SweepLoad) when the runs measure it.
                func kept(_ key: String) -> Bool { key.hasPrefix(DesignMetrics.prefix) || key.hasPrefix("load.") }
                arm.values = arm.values.filter { kept($0.key) }
                arm.notApplicable = arm.notApplicable.filter { kept($0.key) }
                designRuns[i].append(SweepReplication(replication: r, seed: seeds[r], arms: [arm]))
            }
            done += 1
            return value
        }
        for i in 0..<k {
            if shouldStop() { throw OptimizeStoppedEarly(runs: done) }
            guard let value = try observe(i, 0) else {
                throw SweepError("--objective `\(settings.metric)`: the queue arm at \(plan.points[i].label) has no such metric "
                    + "(names as in `pushsim sweep`'s sweep.csv, such as `loss_rate`, `latency_s.p90`, `segments.NAME.loss_rate`)")
            }
            observations[i].append(value)
            progress?(done, 0, k)
        }
        var stoppedInFirstStage = false
        let selection = try KimNelson.select(systems: k, delta: settings.delta, alpha: settings.alpha,
                                         firstStage: settings.firstStage, maxReplications: settings.maxReplications,
                                         shouldStop: shouldStop) { i, r in
            if r < observations[i].count { return observations[i][r] }
            // A stop asked for in the first stage: the rest of it is not run, and nothing is reported.
            if r < settings.firstStage && (stoppedInFirstStage || shouldStop()) { stoppedInFirstStage = true; return 0 }
            // A metric the first replication had is in every run of the point: it comes from
            // the same scenario's JSON; 0 keeps a missing count honest (the arm never did it).
            let value = try observe(i, r) ?? 0
            observations[i].append(value)
            progress?(done, r, k)
            return value
        }
        if stoppedInFirstStage { throw OptimizeStoppedEarly(runs: done) }
        let best = selection.best
        let differences = (0..<k).filter { $0 != best }.map { i in
            difference(observations[i], observations[best], system: i, alpha: settings.alpha, systems: k)
        }
        let used = observations.map(\.count).max() ?? 0
        var result = OptimizeResult(scenario: plan.scenarioName, axes: plan.axes, points: plan.points, settings: settings,
                                    seeds: Array(seeds.prefix(used)), selection: selection, observations: observations,
                                    differences: differences, resolvedScenario: ScenarioPrinter.entries(plan.base))
        result.designSummaries = designRuns.map { SweepRunner.summarize($0).first ?? ArmSummary(queue: "on", metrics: [:]) }
        result.comparisonsWithTheBest = ComparisonsWithTheBest.intervals(observations, alpha: settings.alpha)
        result.fixedSampleReplications = ComparisonsWithTheBest.fixedSampleSize(
            observations, firstStage: settings.firstStage, delta: settings.delta, alpha: settings.alpha)
        return result
    }

    /// The paired difference of `values` − `chosen` over their common replications, with a
    /// Bonferroni-corrected paired-t half-width: each of the k − 1 intervals at level
    /// 1 − α/(k − 1), so all of them hold together with probability ≥ 1 − α.
    package static func difference(_ values: [Double], _ chosen: [Double], system: Int, alpha: Double, systems k: Int) -> OptimizeDifference {
        let level = 1 - alpha / Double(max(k - 1, 1))
        let summary = ReplicationStatistics.summarize(zip(values, chosen).map { $0 - $1 }, quantile: 1 - (1 - level) / 2)
        return OptimizeDifference(system: system, mean: summary.mean, halfWidth: summary.ci95, replications: summary.count)
    }
}
