// The resource guard every command that runs scenarios shares: --max-events and --max-memory, checked before any work.
import PushSimCore
import PushSimExperiment

/// Refuses, from the scenario alone and in milliseconds, work the machine cannot do
/// (see ``ResourceEstimate``, the one estimate): `run`, `check` (every scenario of `--all`
/// before the first runs), `check --update`, `trace`, `find`, `sweep` and `bench` all pass
/// through here. `merge` and `validate` simulate nothing.
enum ResourceGuard {
    static let options = [
        CommandOption("max-events", .value("N"), default: .described("3.6e10, about an hour at 10 M events/s"),
                      help: "refuse work estimated to take more kernel events"),
        CommandOption("max-memory", .value("SIZE"), default: .described("half of RAM"),
                      help: "refuse work estimated to need more memory, such as 512M or 4G"),
    ]

    /// Bytes one line of a trace holds in memory (the entry and its text) until it is printed.
    static let bytesPerTraceEntry = 256.0

    /// The limits of `--max-events` and `--max-memory`, or the machine's defaults.
    static func limits(_ arguments: Arguments) throws -> ResourceEstimate.Limits {
        do { return try .parse(maxEvents: arguments.value("max-events"), maxMemory: arguments.value("max-memory")) }
        catch { throw InputError.usage(error.description) }
    }

    /// `find`'s guard: the run of one arm on `--jobs` threads (the arm and the jobs are read
    /// again by the command; here a bad value is left for it to report).
    static func refuseFind(_ scenario: Scenario, arguments: Arguments) throws {
        let arm = (try? ScenarioInput.arm(arguments, scenario: scenario)) ?? .on
        let jobs = (try? ShardOption.jobs(arguments, scenario: scenario, shard: nil)) ?? ScenarioInput.defaultJobs
        let estimate = findEstimate(scenario, arm: arm, jobs: jobs)
        if let refusal = estimate.refusal(under: try limits(arguments), name: scenario.name) {
            throw InputError.refused(refusal)
        }
        ClientBudget.current?.expect(estimate, name: scenario.name)
    }

    /// The estimate of `find`: the scenario's run with `arm` alone.
    static func findEstimate(_ scenario: Scenario, arm: Arm, jobs: Int) -> ResourceEstimate {
        var oneArm = scenario
        oneArm.queue.mode = arm == .on ? .on : .off
        return ResourceEstimate(oneArm, jobs: jobs)
    }

    /// The estimate of a trace: one device, every one of its events kept as a line; a device
    /// that shares a server runs with its whole partition (`Simulator.tracedPartition`), any
    /// other in its own segment's scenario (so a segment's mechanisms are its own, not diluted
    /// by the other segments' devices).
    static func traceEstimate(_ scenario: Scenario, device: Int) -> ResourceEstimate {
        let partition = max(1, Simulator.tracedPartition(scenario, device: device)?.count ?? 1)
        let own = Simulator.tracedPartition(scenario, device: device) == nil && (0..<scenario.devices).contains(device)
            ? scenario.scenario(forDevice: device) : scenario
        var estimate = ResourceEstimate(own, jobs: 1, devices: partition)
        estimate.memoryBytes += estimate.events / Double(max(1, partition)) * bytesPerTraceEntry
        return estimate
    }

    /// Why several runs (check --all) are refused together: each must fit, and so must their sum.
    static func refusal(_ runs: [(name: String, estimate: ResourceEstimate)], limits: ResourceEstimate.Limits,
                        what: String) -> String? {
        var total = 0.0
        for run in runs {
            if let refusal = run.estimate.refusal(under: limits, name: run.name) { return refusal }
            total += run.estimate.events
        }
        guard total > limits.maxEvents else { return nil }
        return "refusing to \(what): its \(runs.count) runs would take about \(ResourceEstimate.count(total)) events "
            + "together, over the limit of \(ResourceEstimate.count(limits.maxEvents)) (--max-events). "
            + "Check fewer scenarios at a time, or raise --max-events."
    }
}
