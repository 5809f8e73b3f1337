// Replications pooled: the same devices run at several seeds, every (device, seed) one independent unit.
import PushSimCore

/// A run of R replications counts as R times the devices: streams are drawn per device and
/// purpose from the seed, so a device at another seed meets another world, independent of the
/// first. Pooled, the totals are sums over every (device, seed) and the spreads are taken over
/// those units, so the same estimators serve one replication or many. The result is named for
/// the first seed; its totals are the pooled ones.
extension CheckRun {
    /// ``run(_:thresholds:jobs:)`` at each of `seeds`, pooled.
    package static func run(_ scenario: Scenario, seeds: [UInt64], thresholds: [CheckThresholds?], jobs: Int = 1)
        -> (result: RunResult, spreads: [CheckSpread]) {
        let all = seeds.isEmpty ? [scenario.seed] : seeds
        var (total, spreads) = ledgers(scenario.reseeded(all[0]), thresholds: thresholds, jobs: jobs)
        for seed in all.dropFirst() {
            let one = ledgers(scenario.reseeded(seed), thresholds: thresholds, jobs: jobs)
            total.merge(one.ledgers)
            for a in spreads.indices { spreads[a].merge(one.spreads[a]) }
        }
        return (total.result(scenario.reseeded(all[0]), arms: scenario.arms, devices: 0..<scenario.devices), spreads)
    }

    /// ``runPaired(now:then:thresholds:jobs:)`` at each of `seeds`, pooled: each device is
    /// paired with itself at the same seed.
    package static func runPaired(now: Scenario, then: Scenario, seeds: [UInt64], thresholds: [CheckThresholds?], jobs: Int = 1)
        -> (result: RunResult, spreads: [CheckSpread], baseline: RunResult, paired: [PairedSpread]) {
        let all = seeds.isEmpty ? [now.seed] : seeds
        var run = pairedLedgers(now: now.reseeded(all[0]), then: then.reseeded(all[0]), thresholds: thresholds, jobs: jobs)
        for seed in all.dropFirst() {
            let one = pairedLedgers(now: now.reseeded(seed), then: then.reseeded(seed), thresholds: thresholds, jobs: jobs)
            run.ledgers.merge(one.ledgers)
            run.baseline.merge(one.baseline)
            for a in run.spreads.indices { run.spreads[a].merge(one.spreads[a]); run.paired[a].merge(one.paired[a]) }
        }
        let seed = seeds.first ?? now.seed
        let range = 0..<now.devices
        return (run.ledgers.result(now.reseeded(seed), arms: now.arms, devices: range), run.spreads,
                run.baseline.result(then.reseeded(seed), arms: now.arms, devices: range), run.paired)
    }
}

extension Scenario {
    /// This scenario at another seed.
    package func reseeded(_ seed: UInt64) -> Scenario {
        var copy = self
        copy.seed = seed
        return copy
    }
}
