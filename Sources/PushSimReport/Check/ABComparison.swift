// `pushsim ab`: two variants of one scenario (two clients, or a client and a setting) on the same worlds, compared as `check` compares.
import PushSimCore
import PushSimExperiment

/// A and B run on the same devices at the same seeds, so each device meets the same world
/// under both and only the variants' difference sets them apart (common random numbers): every
/// metric is compared device by device, with `check`'s tolerances and words, B against A.
/// With R replications the devices of R seeds (the scenario's and R − 1 derived, as a sweep's)
/// are pooled. Where devices share a server (finite XIVA capacity, the binary interface) they
/// are not independent pairs: the two runs are then compared as independent ones.
package enum ABComparison {
    /// Compares `b` with `a`. Throws ``CheckInputError`` when they cannot be compared (another
    /// seed or arms).
    package static func compare(a: Scenario, b: Scenario, replications: Int, tolerances: [CheckTolerance],
                                jobs: Int) throws -> CheckReport {
        guard a.seed == b.seed else {
            throw CheckInputError("A and B must run at the same seed to meet the same worlds (A \(a.seed), B \(b.seed)): set `seed` for both, or for neither")
        }
        guard a.arms == b.arms else {
            throw CheckInputError("A runs the arms \(a.arms.map(\.rawValue).joined(separator: ", ")), B \(b.arms.map(\.rawValue).joined(separator: ", ")): compare the same arms (queue.mode)")
        }
        let seeds = ReplicationSeeds.seeds(base: a.seed, count: max(1, replications))
        // A alone first: its latency percentiles are the thresholds each device is counted against.
        let first = CheckRun.run(a, seeds: seeds, thresholds: [], jobs: jobs)
        let thresholds = CheckComparison.thresholds(try CheckSnapshot(json: first.result.json, source: "A"))
        let result: RunResult, spreads: [CheckSpread], paired: [PairedSpread]?, pairing: CheckPairing
        let baseline: RunResult
        if let refusal = CheckRun.pairingRefusal(b, a) {
            (result, spreads) = CheckRun.run(b, seeds: seeds, thresholds: thresholds, jobs: jobs)
            baseline = first.result
            paired = nil
            pairing = .independent(refusal)
        } else {
            let run = CheckRun.runPaired(now: b, then: a, seeds: seeds, thresholds: thresholds, jobs: jobs)
            (result, spreads, baseline, paired) = (run.result, run.spreads, run.baseline, run.paired)
            pairing = .sameWorlds(replications: seeds.count)
        }
        let snapshot = try CheckSnapshot(json: baseline.json, source: "A")
        var report = try CheckComparison.compare(baseline: snapshot, baselinePath: "A", now: result, spreads: spreads,
                                                 paired: paired, pairing: pairing, tolerances: tolerances)
        report.scenarioChanges = CheckBaselineScenario.changes(baseline: RunSummary.scenarioJSON(a), now: RunSummary.scenarioJSON(b))
        report.clientChange = ClientProvenance.change(from: ClientProvenance.json(a), to: ClientProvenance.json(b))
        report.baselineVersion = PushSimVersion.current
        report.replications = seeds.count
        report.variants = (describe(a), describe(b))
        return report
    }

    /// What a variant is, in a line: its client and how many devices.
    static func describe(_ scenario: Scenario) -> String {
        "client \(ClientProvenance.label(ClientProvenance.json(scenario))), \(scenario.devices) devices"
    }
}
