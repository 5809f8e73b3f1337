// Runs a sweep: every point of the grid, every replication, both arms; then the summaries.
import Dispatch
import Foundation
import PushSimCore
import PushSimScenarioFile

/// A checked sweep, ready to run: every point's scenario was decoded before anything runs, so a
/// bad value is an input error (exit 2) and never a half-finished sweep.
package struct SweepPlan: Sendable {
    package var scenarioName: String
    package var axes: [SweepAxis]
    package var points: [SweepPoint]
    /// The scenario of each point, in `points` order, with the seed of the file (or `--seed`).
    package var scenarios: [Scenario]
    package var seeds: [UInt64]
    /// The scenario as written plus the command line's overrides, before any point's settings:
    /// what the sweep's files record as how they were made.
    package var base: Scenario
    /// The point every other is compared with (``SweepComparison``), when it is known before
    /// the run: named by `reference`, or the file's own; nil: the best, found after the run.
    package var reference: (index: Int, choice: SweepReferenceChoice)?

    /// Builds the plan. `load` turns extra overrides (the point's settings) into a scenario; it
    /// throws on a bad value, and so does this. `reference` (`--reference PATH=VALUE`, one per
    /// axis at most) names the point the others are compared with.
    package init(axes: [SweepAxis], replications: Int, reference: [SweepSetting] = [],
                 load: ([String]) throws -> Scenario) throws {
        guard replications >= 1 else { throw SweepError("--replications must be at least 1") }
        var seen: Set<String> = []
        for axis in axes where !seen.insert(axis.path).inserted {
            throw SweepError("the sweep varies `\(axis.path)` twice; give each key path once")
        }
        if seen.contains("seed") {
            throw SweepError("a sweep cannot vary `seed`: replications already run with derived seeds (use --replications N)")
        }
        let base = try load([])
        self.base = base
        if let refusal = SweepGrid.sizeRefusal(axes, replications: replications, name: base.name) { throw SweepError(refusal) }
        self.scenarioName = base.name
        self.axes = axes
        self.points = SweepGrid.points(axes)
        self.scenarios = []
        for point in points {
            do {
                scenarios.append(try load(point.overrides))
            } catch let error as ScenarioError {
                // An error inside a point's own setting points into a `--set` that the user never
                // typed; the point's label says where it is instead.
                let detail = error.location?.file == ScenarioError.overrideFile ? error.message : error.description
                throw SweepError("sweep point \(point.label): \(detail)")
            }
        }
        self.seeds = ReplicationSeeds.seeds(base: base.seed, count: replications)
        if reference.isEmpty {
            // The file's own point resolves to exactly the base scenario (the seed included).
            let own = ScenarioPrinter.entries(base)
            self.reference = scenarios.firstIndex { ScenarioPrinter.entries($0) == own }
                .map { (index: $0, choice: SweepReferenceChoice.file) }
        } else {
            self.reference = (try SweepPlan.namedReference(reference, axes: axes, points: points), .named)
        }
    }

    /// The one point the `--reference` settings name, or why there is none.
    static func namedReference(_ settings: [SweepSetting], axes: [SweepAxis], points: [SweepPoint]) throws -> Int {
        var named: Set<String> = []
        for setting in settings {
            guard let axis = axes.first(where: { $0.path == setting.path }) else {
                throw SweepError("--reference `\(setting.override)`: `\(setting.path)` is not an axis of this sweep"
                    + (axes.isEmpty ? " (it has none)" : "; its axes: " + axes.map { "`\($0.path)`" }.joined(separator: ", ")))
            }
            guard axis.values.contains(setting.value) else {
                throw SweepError("--reference `\(setting.override)`: `\(setting.value)` is not one of the values of `\(axis.path)` "
                    + "(\(axis.values.joined(separator: ", "))); write it as the axis does")
            }
            guard named.insert(setting.path).inserted else {
                throw SweepError("--reference names `\(setting.path)` twice; give each axis once")
            }
        }
        let matching = points.indices.filter { i in settings.allSatisfy { points[i].settings.contains($0) } }
        guard matching.count == 1, let only = matching.first else {
            let missing = axes.map(\.path).filter { !named.contains($0) }
            throw SweepError("--reference names \(matching.count) points of the grid; give a value for every axis "
                + "(also \(missing.map { "`\($0)`" }.joined(separator: ", ")))")
        }
        return only
    }

    package var runCount: Int { points.count * seeds.count }
}

/// One replication of one point: its seed and the metrics of each arm (off, on).
package struct SweepReplication: Equatable, Sendable {
    package var replication: Int
    package var seed: UInt64
    package var arms: [ArmMetrics]
}

/// Mean and half-width of every metric of one arm at one point.
package struct ArmSummary: Equatable, Sendable {
    package var queue: String
    package var metrics: [String: MetricSummary]
    /// Metrics the arm's design cannot have, with the reason (the same in every replication).
    package var notApplicable: [String: String] = [:]
    package init(queue: String, metrics: [String: MetricSummary], notApplicable: [String: String] = [:]) {
        self.queue = queue; self.metrics = metrics; self.notApplicable = notApplicable
    }
}

package struct SweepPointResult: Equatable, Sendable {
    package var point: SweepPoint
    package var replications: [SweepReplication]
    /// One per arm, in the contract's order (off, on).
    package var summaries: [ArmSummary]
    package init(point: SweepPoint, replications: [SweepReplication], summaries: [ArmSummary]) {
        self.point = point; self.replications = replications; self.summaries = summaries
    }
}

package struct SweepResult: Equatable, Sendable {
    package var scenario: String
    package var axes: [SweepAxis]
    package var seeds: [UInt64]
    package var points: [SweepPointResult]
    /// The base scenario resolved (every key; `pushsim validate --print` prints the same).
    package var resolvedScenario: [ScenarioPrinter.Entry] = []
    /// The command line's `--set` overrides (and `--seed`), for chart subtitles; the resolved
    /// scenario already holds their effect.
    package var overrides: [String] = []
    /// Every point against the reference, seed by seed; nil with one point or one replication.
    package var comparison: SweepComparison?
    /// The segments whose metrics the points carry (`segments.NAME.METRIC`), in file order.
    package var segments: [String] = []
    /// Whether every chart is drawn for each segment too (`sweep --segment-charts`).
    package var chartsPerSegment = false

    package init(scenario: String, axes: [SweepAxis], seeds: [UInt64], points: [SweepPointResult],
                 resolvedScenario: [ScenarioPrinter.Entry] = [], comparison: SweepComparison? = nil) {
        self.scenario = scenario; self.axes = axes; self.seeds = seeds; self.points = points
        self.resolvedScenario = resolvedScenario; self.comparison = comparison
    }
}

package enum SweepRunner {
    /// Runs every point × replication. Runs happen one after another, each using `jobs`
    /// threads over its devices, so the result never depends on `jobs`. `measure` turns a run
    /// into the metrics of its arms (the report stage reads them off the contract's JSON, so
    /// this stage does not depend on it). `progress` is called after each run with (runs done,
    /// runs in all).
    package static func run(_ plan: SweepPlan, jobs: Int = 1, measure: (RunResult) -> [ArmMetrics],
                            progress: ((Int, Int) -> Void)? = nil) -> SweepResult {
        run(plan, measure: measure, simulate: { Simulator.run($0, jobs: jobs) }, progress: progress)
    }

    /// As above, each run made by `simulate` (the scenario with its replication's seed set):
    /// a store of finished runs answers those it holds (`--resume`).
    package static func run(_ plan: SweepPlan, measure: (RunResult) -> [ArmMetrics],
                            simulate: (Scenario) throws -> RunResult,
                            progress: ((Int, Int) -> Void)? = nil) rethrows -> SweepResult {
        var done = 0
        var points: [SweepPointResult] = []
        for (point, scenario) in zip(plan.points, plan.scenarios) {
            var replications: [SweepReplication] = []
            for (k, seed) in plan.seeds.enumerated() {
                var seeded = scenario
                seeded.seed = seed
                let result = try simulate(seeded)
                replications.append(SweepReplication(replication: k, seed: seed, arms: measure(result)))
                done += 1
                progress?(done, plan.runCount)
            }
            points.append(SweepPointResult(point: point, replications: replications,
                                           summaries: summarize(replications)))
        }
        let reference = plan.reference ?? (SweepComparison.best(points), .best)
        return SweepResult(scenario: plan.scenarioName, axes: plan.axes, seeds: plan.seeds, points: points,
                           resolvedScenario: ScenarioPrinter.entries(plan.base),
                           comparison: SweepComparison(points: points, reference: reference.index, choice: reference.choice))
    }

    /// Per arm, each metric's mean and 95 % interval over the replications.
    static func summarize(_ replications: [SweepReplication]) -> [ArmSummary] {
        guard let first = replications.first else { return [] }
        return first.arms.indices.map { a in
            var names: Set<String> = []
            for r in replications { names.formUnion(r.arms[a].values.keys) }
            var metrics: [String: MetricSummary] = [:]
            for name in names {
                metrics[name] = ReplicationStatistics.summarize(replications.compactMap { $0.arms[a].values[name] })
            }
            return ArmSummary(queue: first.arms[a].queue, metrics: metrics, notApplicable: first.arms[a].notApplicable)
        }
    }
}
