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
    package static func run(_ plan: SweepPlan, jobs: Int = 1, cost: SweepCost? = nil,
                            progress: ((Int, Int) -> Void)? = nil) -> SweepResult {
        var result = run(plan, jobs: jobs, measure: { run in
            var arms = SweepMetricNames.measure(run)
            cost?.apply(to: &arms, segments: run.segments.map(\.name))
            return arms
        }, progress: progress)
        result.segments = plan.base.segments.count <= SweepMetricNames.maxSegments ? plan.base.segments.map(\.name) : []
        return result
    }
}

package enum SweepMetricNames {
    /// The most segments whose metrics a sweep keeps one by one: each adds every metric again
    /// (in the CSV's columns too), so a file with thousands of segments keeps its totals only.
    package static let maxSegments = 32

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
