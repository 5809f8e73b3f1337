// The seeds of a sweep's replications: derived from the scenario's seed, the same at every point.
import PushSimCore

/// Replication seeds. Replication 0 runs with the scenario's own seed, so a sweep with one
/// replication reproduces `pushsim run` exactly; replication k ≥ 1 runs with
/// SplitMix64(SplitMix64(seed) ⊕ k·φ), φ = 0x9E3779B97F4A7C15, skipping any value already used,
/// so the seeds are distinct. They depend on the scenario's seed and k only — never on the
/// point — so every point of a grid sees the same worlds (common random numbers).
package enum ReplicationSeeds {
    package static func seeds(base: UInt64, count: Int) -> [UInt64] {
        guard count > 0 else { return [] }
        var seeds = [base]
        var used: Set<UInt64> = [base]
        var k: UInt64 = 1
        while seeds.count < count {
            let candidate = derive(base: base, index: k)
            k &+= 1
            if used.insert(candidate).inserted { seeds.append(candidate) }
        }
        return seeds
    }

    /// The k-th derived seed before duplicates are skipped.
    static func derive(base: UInt64, index k: UInt64) -> UInt64 {
        var state = base
        var mixed = splitMix64(&state)
        mixed ^= k &* 0x9E37_79B9_7F4A_7C15
        return splitMix64(&mixed)
    }
}
