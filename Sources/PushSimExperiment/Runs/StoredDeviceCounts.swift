// A baseline's counts per device, kept beside it, so that `check` pairs a run of another client or build device by device.
import PushSimCore

/// Every device's counts in every arm of one run (``DeviceCounts``: `CheckSpread.countKeys`,
/// then the letters delivered below each of the run's own latency percentiles). Streams are
/// per device and purpose, so a device meets the same world whatever the client decides: a
/// run of a changed client or build, paired with these device by device, measures its noise
/// on per-device differences (common random numbers) even though it cannot replay the
/// baseline. Written beside a baseline by `check --update` (docs/ci.md).
package struct StoredDeviceCounts: Equatable, Sendable {
    /// The arms, in the run's order (`off`, `on`).
    package var arms: [String]
    package var devices: Int
    /// Per arm, per device: the counts, then the below-threshold counts.
    package var counts: [[[Int]]]
    /// This version's keys the file did not hold (an earlier version's file): read as 0 on
    /// every device, so a baseline that counted one of them cannot pair with it.
    package var missingKeys: [String] = []

    package static let fileName = "device-counts.csv"
    /// The most devices a baseline keeps counts for (the file grows by about 40 bytes a device and arm).
    package static let largestKept = 50_000
    /// The largest count a row may hold: 2^53, exact as a double, far above any device's run.
    package static let largestCount = 1 << 53
    /// The most bytes the file can hold as `check --update` writes it: every row of the largest
    /// baseline, each value of 16 digits; a larger file is not one it wrote.
    package static var maxBytes: Int {
        let values = CheckSpread.countKeys.count + CheckSpread.latencySlots.count
        return 2 * largestKept * (values + 2) * 17 + (1 << 16)
    }

    /// Records `scenario`'s run device by device, with `thresholds` (one per arm: the run's own
    /// latency percentiles) for the below-threshold counts.
    package static func record(_ scenario: Scenario, thresholds: [CheckThresholds?], jobs: Int = 1) -> StoredDeviceCounts {
        let arms = scenario.arms
        let chunks = Simulator.inChunks(of: 0..<scenario.devices, jobs: jobs, unit: .oneDevice) { devices in
            var recorder = DeviceCountRecorder(run: SegmentedLedgerSink(ledgers: SegmentedLedgers(arms: arms.count, segments: scenario.segments.count)),
                                               first: devices.lowerBound, count: devices.count, arms: arms.count, thresholds: thresholds)
            Simulator.simulate(scenario, devices: devices, arms: arms, into: &recorder)
            return (devices, recorder.devices)
        }
        var counts = arms.map { _ in [[Int]](repeating: [], count: scenario.devices) }
        for (devices, recorded) in chunks {
            for device in devices {
                for a in arms.indices {
                    let slot = (device - devices.lowerBound) * arms.count + a
                    if slot < recorded.count, let c = recorded[slot] { counts[a][device] = c.counts + c.below }
                }
            }
        }
        return StoredDeviceCounts(arms: arms.map(\.rawValue), devices: scenario.devices, counts: counts)
    }

    /// ``record(_:thresholds:jobs:)`` at each of `seeds`, pooled: the devices of the k-th seed
    /// are kept as devices k·N … k·N + N − 1 (N the scenario's devices).
    package static func record(_ scenario: Scenario, seeds: [UInt64], thresholds: [CheckThresholds?], jobs: Int = 1) -> StoredDeviceCounts {
        var pooled = StoredDeviceCounts(arms: scenario.arms.map(\.rawValue), devices: 0, counts: scenario.arms.map { _ in [] })
        for seed in seeds {
            let one = record(scenario.reseeded(seed), thresholds: thresholds, jobs: jobs)
            pooled.devices += one.devices
            for a in pooled.counts.indices { pooled.counts[a] += one.counts[a] }
        }
        return pooled
    }

    /// The counts of the k-th seed's devices of a pooled record of `devices` devices a seed.
    package func replication(_ k: Int, devices: Int) -> StoredDeviceCounts {
        let range = min(k * devices, self.devices)..<min((k + 1) * devices, self.devices)
        return StoredDeviceCounts(arms: arms, devices: range.count, counts: counts.map { Array($0[range]) })
    }

    /// The counts of one device and arm as the pairing reads them.
    func deviceCounts(arm: Int, device: Int) -> DeviceCounts? {
        guard arm < counts.count, device < counts[arm].count else { return nil }
        let values = counts[arm][device]
        let n = CheckSpread.countKeys.count
        let padded = values + Array(repeating: 0, count: max(0, n + CheckSpread.latencySlots.count - values.count))
        return DeviceCounts(counts: Array(padded.prefix(n)), below: Array(padded.dropFirst(n)))
    }

    /// The keys of a row's values, in the order this version writes them.
    static var keys: [String] { CheckSpread.countKeys + CheckSpread.latencySlots.map { "below." + $0.key } }

    /// The `keys` line this version writes.
    static var keysLine: String { "keys," + keys.joined(separator: ",") }

    /// Whether this version can read `text`'s counts: its `keys` line (if it has one) names only
    /// keys this version counts, each once. An earlier version's file, which lacks keys added
    /// since (such as the main app's `app.re_requests`), is read with those counts 0
    /// (``missingKeys`` says which); one naming a key this version does not count (a later
    /// version's, or a counter since removed) is not.
    package static func holdsThisVersionsKeys(_ text: String) -> Bool {
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("keys,") }) else { return true }
        let named = line.split(separator: ",", omittingEmptySubsequences: false).dropFirst().map(String.init)
        let known = Set(keys)
        return named.allSatisfy(known.contains) && Set(named).count == named.count
    }

    /// The file's text: a comment, the keys, then one row per device and arm that counted
    /// anything (`arm,device,values…`; trailing zeros left out).
    package var csv: String {
        var text = "# pushsim check: this baseline's counts per device and arm (docs/ci.md, \"Pairing a changed client\")\n"
        text += Self.keysLine + "\n"
        text += "devices,\(devices)\n"
        for (a, arm) in arms.enumerated() {
            for device in 0..<devices {
                var values = counts[a][device]
                while values.last == 0 { values.removeLast() }
                guard !values.isEmpty else { continue }
                text += "\(arm),\(device)," + values.map(String.init).joined(separator: ",") + "\n"
            }
        }
        return text
    }

    /// Reads `text` (the file `path`); a malformed file is an error naming `path:line:column`.
    package init(csv text: String, path: String, arms: [String]) throws(StoredDeviceCountsError) {
        self.arms = arms
        var missingKeys: [String] = []
        var devices: Int?
        var counts: [[[Int]]] = []
        let keys = Self.keys.count
        // Where each of the file's columns goes in this version's row (an earlier version's
        // file names fewer keys, perhaps in another order); nil: this version's order.
        var columns: [Int]? = nil
        // Where each device's row and the `devices` line were, so a second one is named with the first.
        var devicesLine: Int?
        var rowLines: [[Int32]] = []
        // A line break written as CR LF reads as LF (in a String, CR LF is one character).
        let lines = text.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false)
        for (n, line) in lines.enumerated() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            func error(_ column: Int, _ message: String) -> StoredDeviceCountsError {
                StoredDeviceCountsError(description: "\(path):\(n + 1):\(column): \(message)")
            }
            // `check --update` ends every line, the last one too: a file that stops inside a line was cut short.
            if n == lines.count - 1 && !line.isEmpty {
                throw error(line.count + 1, "the file ends inside this line (it was cut short); rewrite it with `check --update`")
            }
            guard let first = fields.first, !first.isEmpty, !first.hasPrefix("#") else { continue }
            switch first {
            case "keys":
                let named = Array(fields.dropFirst())
                var seen = Set<String>()
                var place: [Int] = []
                var column = 6
                for key in named {
                    guard let k = Self.keys.firstIndex(of: key), seen.insert(key).inserted else {
                        throw error(column, "`\(key.prefix(60))` is not a count this version keeps (or is named twice): the file was written by another version; rewrite it with `check --update`")
                    }
                    place.append(k)
                    column += key.count + 1
                }
                columns = place
                missingKeys = Self.keys.filter { !seen.contains($0) }
            case "devices":
                if let earlier = devicesLine { throw error(1, "a second `devices` line (the first is line \(earlier))") }
                guard fields.count == 2, let d = Int(fields[1]), d > 0, d <= Self.largestKept else {
                    throw error(9, "expected `devices,N` with 0 < N ≤ \(Self.largestKept) (the most devices a baseline keeps counts for)")
                }
                devices = d
                devicesLine = n + 1
                counts = arms.map { _ in [[Int]](repeating: [], count: d) }
                rowLines = arms.map { _ in [Int32](repeating: 0, count: d) }
            default:
                guard let d = devices else { throw error(1, "a device's row before the `devices` line") }
                guard let a = arms.firstIndex(of: first) else { throw error(1, "unknown arm `\(first)` (this baseline's arms: \(arms.joined(separator: ", ")))") }
                guard fields.count >= 2, let device = Int(fields[1]), device >= 0, device < d else {
                    throw error(first.count + 2, "expected a device from 0 to \(d - 1)")
                }
                if rowLines[a][device] != 0 {
                    throw error(first.count + 2, "a second row for device \(device) in arm `\(first)` (the first is line \(rowLines[a][device]))")
                }
                let width = columns?.count ?? keys
                guard fields.count - 2 <= width else { throw error(1, "more than \(width) values (the keys named)") }
                var values: [Int] = []
                var column = first.count + fields[1].count + 3
                for field in fields.dropFirst(2) {
                    guard let v = Int(field), v >= 0, v <= Self.largestCount else {
                        throw error(column, "expected a count (a whole number from 0 to 2^53), found `\(field.prefix(40))`")
                    }
                    values.append(v)
                    column += field.count + 1
                }
                if let columns {
                    var row = [Int](repeating: 0, count: keys)
                    for (c, v) in values.enumerated() { row[columns[c]] = v }
                    while row.last == 0 { row.removeLast() }
                    values = row
                }
                counts[a][device] = values
                rowLines[a][device] = Int32(truncatingIfNeeded: n + 1)
            }
        }
        guard let devices else { throw StoredDeviceCountsError(description: "\(path): no `devices` line") }
        self.devices = devices
        self.counts = counts
        self.missingKeys = missingKeys
    }

    package init(arms: [String], devices: Int, counts: [[[Int]]]) {
        self.arms = arms; self.devices = devices; self.counts = counts
    }
}

package struct StoredDeviceCountsError: Error, CustomStringConvertible {
    package var description: String
}

extension CheckRun {
    /// Runs `scenario` and pairs each device's counts with `stored` (a baseline's, made by
    /// another client or build at the same seed over the same devices and arms): the result,
    /// its spreads and the paired spreads. Call only when the scenario's devices are
    /// independent (one device a unit) and match the stored ones.
    package static func runPaired(_ scenario: Scenario, stored: StoredDeviceCounts, thresholds: [CheckThresholds?], jobs: Int = 1)
        -> (result: RunResult, spreads: [CheckSpread], paired: [PairedSpread]) {
        let run = pairedLedgers(scenario, stored: stored, thresholds: thresholds, jobs: jobs)
        return (run.ledgers.result(scenario, arms: scenario.arms, devices: 0..<scenario.devices), run.spreads, run.paired)
    }

    /// ``runPaired(_:stored:thresholds:jobs:)`` at each of `seeds`, paired with a pooled record
    /// (``StoredDeviceCounts/record(_:seeds:thresholds:jobs:)``) seed by seed and pooled.
    package static func runPaired(_ scenario: Scenario, seeds: [UInt64], stored: StoredDeviceCounts, thresholds: [CheckThresholds?], jobs: Int = 1)
        -> (result: RunResult, spreads: [CheckSpread], paired: [PairedSpread]) {
        let all = seeds.isEmpty ? [scenario.seed] : seeds
        var run = pairedLedgers(scenario.reseeded(all[0]), stored: stored.replication(0, devices: scenario.devices), thresholds: thresholds, jobs: jobs)
        for (k, seed) in all.enumerated().dropFirst() {
            let one = pairedLedgers(scenario.reseeded(seed), stored: stored.replication(k, devices: scenario.devices), thresholds: thresholds, jobs: jobs)
            run.ledgers.merge(one.ledgers)
            for a in run.spreads.indices { run.spreads[a].merge(one.spreads[a]); run.paired[a].merge(one.paired[a]) }
        }
        return (run.ledgers.result(scenario.reseeded(all[0]), arms: scenario.arms, devices: 0..<scenario.devices), run.spreads, run.paired)
    }

    static func pairedLedgers(_ scenario: Scenario, stored: StoredDeviceCounts, thresholds: [CheckThresholds?], jobs: Int)
        -> (ledgers: SegmentedLedgers, spreads: [CheckSpread], paired: [PairedSpread]) {
        let range = 0..<scenario.devices
        let arms = scenario.arms
        let chunks = Simulator.inChunks(of: range, jobs: jobs, unit: .oneDevice) { devices in
            var recorder = DeviceCountRecorder(run: SegmentedLedgerSink(ledgers: SegmentedLedgers(arms: 0, segments: 0)),
                                               first: devices.lowerBound, count: devices.count, arms: arms.count, thresholds: thresholds)
            for device in devices {
                for a in arms.indices { recorder.devices[(device - devices.lowerBound) * arms.count + a] = stored.deviceCounts(arm: a, device: device) }
            }
            var pairer = PairingSink(check: CheckSink(run: SegmentedLedgerSink(ledgers: SegmentedLedgers(arms: arms.count, segments: scenario.segments.count)),
                                                      spreads: arms.map { _ in CheckSpread() }, thresholds: thresholds),
                                     recorded: recorder, paired: arms.map { _ in PairedSpread() })
            Simulator.simulate(scenario, devices: devices, arms: arms, into: &pairer)
            return (pairer.check.run.finished(), pairer.check.spreads, pairer.paired)
        }
        var total = SegmentedLedgers(arms: arms.count, segments: scenario.segments.count)
        var spreads = arms.map { _ in CheckSpread() }
        var paired = arms.map { _ in PairedSpread() }
        for (ledgers, chunkSpreads, chunkPaired) in chunks {
            total.merge(ledgers)
            for a in spreads.indices { spreads[a].merge(chunkSpreads[a]); paired[a].merge(chunkPaired[a]) }
        }
        return (total, spreads, paired)
    }
}
