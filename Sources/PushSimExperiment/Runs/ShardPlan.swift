// Device shards: which contiguous devices the K-th of N shards simulates, and the scenario's fingerprint.
import PushSimCore

/// One shard of a run: the `index`-th (counted from 0) of `count` contiguous device ranges.
///
/// Shards are numbered from 0 so that a Kubernetes Indexed Job's `JOB_COMPLETION_INDEX` and a
/// Slurm array `--array=0-(N-1)` map onto them unchanged.
package struct ShardSpec: Hashable, Sendable, CustomStringConvertible {
    package var index: Int
    package var count: Int

    /// A checked shard; nil unless `0 <= index < count`.
    package init?(index: Int, count: Int) {
        guard count >= 1, index >= 0, index < count else { return nil }
        self.index = index
        self.count = count
    }

    /// Parses `K/N` (K counted from 0). The error says what was wrong, for a usage message.
    package static func parse(_ text: String) -> Result<ShardSpec, ShardSpecError> {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]) else {
            return .failure(ShardSpecError(message: "--shard needs K/N with whole numbers, e.g. 0/4, got '\(text)'"))
        }
        guard n >= 1 else {
            return .failure(ShardSpecError(message: "--shard K/N needs N ≥ 1 shards, got \(n)"))
        }
        guard k >= 0, k < n else {
            let hint = k == n ? " (shards are counted from 0: the last of \(n) is \(n - 1)/\(n))" : ""
            return .failure(ShardSpecError(message: "--shard K/N needs 0 ≤ K < N, got \(k)/\(n)\(hint)"))
        }
        guard let spec = ShardSpec(index: k, count: n) else {
            return .failure(ShardSpecError(message: "--shard: invalid \(text)"))
        }
        return .success(spec)
    }

    /// The devices of this shard among `total`: `total·K/N ..< total·(K+1)/N`, so shards differ
    /// in size by at most one device and together cover every device exactly once. Cut in whole
    /// coupling units: with units of u devices, the same formula over the units, times u.
    package func devices(of total: Int, unit: CouplingUnit = .oneDevice) -> Range<Int> {
        let run = 0..<max(0, total)
        let units = unit.units(in: run).count
        return unit.firstDevice(ofUnit: ShardSpec.cut(units, at: index, of: count), in: run)
            ..< unit.firstDevice(ofUnit: ShardSpec.cut(units, at: index + 1, of: count), in: run)
    }

    /// ⌊total·k/n⌋ without overflow for any Int sizes.
    static func cut(_ total: Int, at k: Int, of n: Int) -> Int {
        let t = max(0, total), kk = max(0, min(k, n))
        guard n >= 1 else { return 0 }
        // k ≤ n, so the quotient is at most total and fits.
        return n.dividingFullWidth(t.multipliedFullWidth(by: kk)).quotient
    }

    package var description: String { "\(index)/\(count)" }
}

/// Why a `--shard` value was refused.
package struct ShardSpecError: Error, CustomStringConvertible, Sendable {
    package var message: String
    package var description: String { message }
}

extension Scenario {
    /// A fingerprint of everything in the scenario (every key, the seed, the device count):
    /// partial results of shards carry it, and shards with different fingerprints refuse to merge.
    ///
    /// It hashes the scenario's full reflected description (FNV-1a, 64 bits), so a key added to
    /// the model later is covered without anyone remembering to list it here. Equal scenarios give
    /// equal fingerprints in every process: the description holds no addresses and no
    /// dictionary-ordered data.
    package var fingerprint: String { FNV1a.hex(String(reflecting: self).utf8) }
}

extension Simulator {
    /// Simulates one shard of the scenario's devices on `jobs` threads.
    package static func run(_ scenario: Scenario, shard: ShardSpec, jobs: Int = 1) -> RunResult {
        run(scenario, devices: shard.devices(of: scenario.devices, unit: .of(scenario)), jobs: jobs)
    }
}
