// The sweep's metrics of an arm: every numeric field of its `run --json`, plus per-letter ratios.
import PushSimCore
import PushSimExperiment

extension ArmMetrics {
    /// Takes every number of the arm's contract JSON, so the sweep follows `run --json` by
    /// construction (a field added there is averaged here too), and adds the ratios the
    /// repeat_max_count study needs, per letter generated (queue arm only, like their counts):
    /// `summaries_per_letter`, `resent_per_letter` (XIVA's re-send load), `re_requests_per_letter`,
    /// `fetches_per_letter` (a catch-up's load on the mail server, when it fetched), and
    /// `summarized_rate` (the share of letters a person only learns of from a summary); both
    /// arms, with the binary interface: `rewrites_per_letter` (the resend buffer's re-send load,
    /// docs/model.md §11); with app reinstalls (docs/model.md §8): `reinstall_drops_per_letter`
    /// (both arms) and `false_gaps_per_letter` (queue arm).
    /// `offArm`: the run's queue-off arm, for the queue arm's telemetry (`telemetry.difference`).
    package init(_ arm: ArmResult, offArm: ArmResult? = nil) {
        self.init(queue: arm.name, values: [:])
        SweepMetricNames.flatten(arm.json(offArm: offArm), prefix: "", into: &values)
        let l = arm.ledger
        let letters = Double(max(l.letters, 1))
        values["summarized_rate"] = Double(l.summarized) / letters
        // Each mechanism's per-letter ratios (declared with its counters), where the JSON has its group.
        for group in Ledger.groups where (arm.arm == .on || group.arms == .both) && group.shown(l) {
            for counter in group.counters where group.reports(counter, onQueueArm: arm.arm == .on) {
                if let metric = counter.perLetter { values[metric] = Double(l[keyPath: counter.path]) / letters }
            }
        }
        // A finite XIVA capacity's figures per re-request (docs/model.md §6), where the run has them.
        if arm.arm == .on, XivaCapacityCounters.group.shown(l) {
            let reRequests = Double(max(l.reRequests, 1))
            values[SweepMarkdown.timeoutsPerReRequest] = Double(l.extensionTimeouts) / reRequests
            values[SweepMarkdown.errorsPerReRequest] = Double(l.xivaErrors) / reRequests
        }
        // The harm and cost set every design is compared on, or why a design has none of one.
        let design = DesignMetrics.measure(arm)
        for (name, value) in design.values { values[DesignMetrics.prefix + name] = value }
        for (name, reason) in design.notApplicable { notApplicable[DesignMetrics.prefix + name] = reason }
        if arm.arm == .on {
            values["summaries_per_letter"] = Double(l.summaries) / letters
            values["resent_per_letter"] = Double(l.resent) / letters
            values["re_requests_per_letter"] = Double(l.reRequests) / letters
        }
    }
}

extension SweepRunner {
    /// Runs the sweep measuring each arm by its contract JSON (`ArmMetrics.init(_:offArm:)`).
    /// `cost` (`--cost`) adds `expected_cost` to every arm and segment.
    package static func run(_ plan: SweepPlan, jobs: Int = 1, cost: SweepCost? = nil, load: SweepLoad? = nil,
                            progress: ((Int, Int) -> Void)? = nil) -> SweepResult {
        named(run(plan, measure: SweepMetricNames.measuring(cost, load: load), simulate: { Simulator.run($0, jobs: jobs) }, progress: progress), plan)
    }

    /// As above, each run taken from `store` (the finished runs kept for `--resume`) when it
    /// holds it, else simulated and kept there.
    package static func run(_ plan: SweepPlan, jobs: Int = 1, cost: SweepCost? = nil, load: SweepLoad? = nil, store: RunStore,
                            progress: ((Int, Int) -> Void)? = nil) throws -> SweepResult {
        named(try run(plan, measure: SweepMetricNames.measuring(cost, load: load), simulate: { try store.run($0, jobs: jobs) }, progress: progress), plan)
    }

    private static func named(_ result: SweepResult, _ plan: SweepPlan) -> SweepResult {
        var result = result
        result.segments = plan.base.segments.count <= SweepMetricNames.maxSegments ? plan.base.segments.map(\.name) : []
        return result
    }
}

package enum SweepMetricNames {
    /// The most segments whose metrics a sweep keeps one by one: each adds every metric again
    /// (in the CSV's columns too), so a file with thousands of segments keeps its totals only.
    package static let maxSegments = 32

    /// How `sweep` and `optimize` measure a run: ``measure(_:)``, plus `expected_cost` with `cost` (`--cost`).
    /// With `load` (`--fleet`, `--load-bin`), each arm's load too (``SweepLoad``).
    static func measuring(_ cost: SweepCost?, load: SweepLoad? = nil) -> (RunResult) -> [ArmMetrics] {
        { run in
            var arms = measure(run)
            if let load {
                for (a, arm) in run.arms.enumerated() { load.add(to: &arms[a], arm: arm, frame: run.loadFrame, devices: run.totalDevices) }
            }
            cost?.apply(to: &arms, segments: run.segments.map(\.name))
            return arms
        }
    }

    /// Each arm's metrics and, with segments (at most ``maxSegments``), every metric of each
    /// segment under `segments.NAME.` (`segments.commuters.loss_rate`), measured like the
    /// totals on the segment's own devices (its telemetry against its own queue-off arm).
    static func measure(_ result: RunResult) -> [ArmMetrics] {
        result.arms.map { arm in
            var metrics = ArmMetrics(arm, offArm: result.offArm)
            guard result.segments.count <= maxSegments else { return metrics }
            for segment in result.segments {
                guard let own = segment.arms.first(where: { $0.arm == arm.arm }) else { continue }
                let segmentOffArm = segment.arms.first { $0.arm == .off }
                let measured = ArmMetrics(own, offArm: segmentOffArm)
                for (name, value) in measured.values { metrics.values["segments.\(segment.name).\(name)"] = value }
                for (name, reason) in measured.notApplicable { metrics.notApplicable["segments.\(segment.name).\(name)"] = reason }
            }
            return metrics
        }
    }

    /// Collects the numbers of a JSON object under dotted names; strings are labels, not metrics.
    static func flatten(_ value: JSONValue, prefix: String, into out: inout [String: Double]) {
        switch value {
        case .object(let members):
            for (key, member) in members { flatten(member, prefix: prefix.isEmpty ? key : prefix + "." + key, into: &out) }
        case .int(let i): out[prefix] = Double(i)
        case .uint(let u): out[prefix] = Double(u)
        case .double(let d): out[prefix] = d
        case .array, .string, .bool, .null: break
        }
    }
}

/// The load an arm puts on XIVA and APNs, as `sweep` and `optimize` carry it with `--fleet` or
/// `--load-bin` (docs/research.md, Load in a sweep): for re-requests at XIVA and pushes sent to
/// APNs, the mean a second over the measured window and the peak a second over the whole run at
/// two resolutions, the busiest second (`_1s`) and the busiest minute (`_1m`, a minute's count
/// over 60), per 1 000 phones and (with `--fleet N`) for N phones, assuming load adds over
/// independent devices (``LoadReport/assumption``). The busiest second needs runs binned by the
/// second (`--load-bin 1s`), the busiest minute runs binned by the second or the minute; a
/// resolution the bins cannot give is "n/a" with the reason, and so are the re-requests of an
/// arm whose design sends none (the off arm, a catch-up, a background sync: ``DesignMetrics``).
package struct SweepLoad: Equatable, Sendable {
    package var fleet: Int?
    package init(fleet: Int?) { self.fleet = fleet }

    package static let quantities: [LoadQuantity] = [.reRequests, .pushesSent]

    /// The metric's name: `load.re_requests.per_1000.peak_per_s_1m`, `load.pushes_sent.fleet.mean_per_s`.
    package static func name(_ q: LoadQuantity, scale: String, _ figure: String) -> String { "load.\(q.key).\(scale).\(figure)" }

    func add(to metrics: inout ArmMetrics, arm: ArmResult, frame: LoadFrame, devices: Int) {
        guard devices > 0 else { return }
        var scales = [("per_1000", 1000 / Double(devices))]
        if let fleet { scales.append(("fleet", Double(fleet) / Double(devices))) }
        // Re-requests where the design sends none are n/a with its reason, never 0.
        let noReRequests = DesignMetrics.counts(arm).notApplicable["xiva_requests_per_letter"]
        for q in SweepLoad.quantities {
            var (figures, missing) = DesignLoad.rates(arm.ledger.load, q, frame: frame)
            if q == .reRequests, let reason = noReRequests {
                for figure in DesignLoad.figures { missing[figure.name] = reason }
                figures = [:]
            }
            for (scale, factor) in scales {
                for (figure, value) in figures { metrics.values[SweepLoad.name(q, scale: scale, figure)] = value * factor }
                for (figure, reason) in missing { metrics.notApplicable[SweepLoad.name(q, scale: scale, figure)] = reason }
            }
        }
    }
}
