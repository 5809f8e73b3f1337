// Before a run: how much work and memory a scenario will take, estimated from its keys alone.
import Foundation
import PushSimCore

/// What a run of a scenario will cost, estimated from the scenario alone (no random draw, no
/// allocation proportional to the scenario), so that a run the machine cannot do is refused
/// before it starts, not after hours of work or swapping.
///
/// The model (all in `Double`, so no estimate can overflow or trap):
///
/// - letters per device `L = rate × duration` (plus `bursts.rate × duration × size`; a trace's
///   exact count), generated once and run through every arm; with segments, each segment's
///   figures weighted by its devices, and the busiest device of any segment for memory;
/// - kernel events per letter and arm: at most ``eventsPerLetter`` (the chain does 1–2 with the
///   queue off and 3–5 with it on: the letter, due at the device, extension processed or
///   deadline, answers and re-sent copies; a bound with room, since steps whose outcome is
///   settled take no event and the work per letter is what the budget really measures);
/// - connectivity flips per device `F = 2 × end / (E[min(online, end)] + E[min(offline, end)])`
///   for the alternating process (the renewal rate; the truncated means keep heavy tails honest)
///   plus two per offline-window interval inside `[0, end)`; one event per flip and arm, and the
///   same again to draw them;
/// - laying the windows out costs one step per repetition from the first one that can reach
///   time 0 to the end, once per chunk of devices (once per device for a window drawn per
///   device: `length` or `spread`);
/// - `events = devices × (arms × (7·L + F) + F) + window steps × chunks`;
/// - memory: a thread holds one device at a time, so `jobs × (bytesPerLetter × peak L +
///   bytesPerFlip × peak F + 16 B × window intervals)` plus ledgers (one per arm and chunk) and
///   a fixed base; the peak is the busiest device, `x + 6√x + 16` for a Poisson mean `x`; with
///   a finite XIVA capacity, each thread also holds a whole partition's worlds (`coupledBytes`).
///
/// - Complexity: O(number of windows and segments), whatever the devices, duration or rates; with
///   a trace, O(devices) to find its busiest device.
package struct ResourceEstimate: Sendable, Equatable {
    /// Upper end of the kernel events one letter causes in one arm.
    package static let eventsPerLetter = 7.0
    /// Bytes one letter of the busiest device occupies in one thread (the letter script, the
    /// per-letter state of the arm, copies, pending events, extension runs), with room for
    /// arrays doubling their capacity.
    package static let bytesPerLetter = 256.0
    /// Bytes one connectivity flip occupies (``CostModel/bytesPerFlip``).
    package static let bytesPerFlip = CostModel.bytesPerFlip
    /// The fixed part: the program, the ledgers' histograms, the event lists.
    package static let baseBytes = 32.0 * 1024 * 1024
    /// One ledger (its latency histogram dominates).
    package static let bytesPerLedger = Double(LatencyHistogram.bucketCount * 8 + 256)
    /// Bytes of one ledger's load series: a count (8 B) per quantity and bin of the whole run.
    package static func loadSeriesBytes(_ scenario: Scenario) -> Double {
        let bin = Double(max(1, scenario.loadBin.microseconds))
        return (Double(max(0, scenario.end.microseconds)) / bin).rounded(.up) * Double(LoadQuantity.allCases.count) * 8
    }
    /// The simulator indexes a device's letters, copies and flips with 32-bit integers.
    package static let perDeviceLimit = Double(Int32.max)

    /// Devices simulated.
    package var devices: Double
    /// Arms (1 or 2).
    package var arms: Int
    /// Letters of one arm over all devices.
    package var letters: Double
    /// Mean letters of one device.
    package var lettersPerDevice: Double
    /// Mean connectivity flips of one device over the run (process and windows together).
    package var flipsPerDevice: Double
    /// Offline-window intervals inside the run, and the steps needed to lay them out.
    package var windowIntervals: Double
    package var windowSteps: Double
    /// Kernel events (and comparable steps of work) for the whole run, all arms.
    package var events: Double
    /// Peak memory in bytes, with `jobs` threads each holding one device.
    package var memoryBytes: Double
    /// The busiest device's letters and flips (what must fit the 32-bit per-device indices).
    package var peakLettersPerDevice: Double
    package var peakFlipsPerDevice: Double
    /// The chunks the devices are cut into (the simulator multiplies the device count by it).
    package var chunks: Double

    /// Each mechanism's share of `events` and `memoryBytes` (letters, connectivity, per-device
    /// cost, segments' ledgers, and every chain mechanism a scenario turns on), largest first
    /// is not promised: in the order they are counted.
    package var mechanisms: [Mechanism] = []

    /// Estimates a run of `scenario` on `jobs` threads; `devices` overrides the count (a shard).
    /// Bytes one row of `run --logs` takes until it is written: the row (40 B) in arrays that
    /// double as they are gathered, and its line of text.
    package static let bytesPerLogRow = 192.0

    /// `logs`: the run keeps the extension's log (`run --logs`): a row per push the queue
    /// arm's extensions see, every device's, until the end.
    package init(_ scenario: Scenario, jobs: Int = 1, devices deviceCount: Int? = nil, logs: Bool = false) {
        devices = Double(max(0, deviceCount ?? scenario.devices))
        arms = scenario.arms.count
        // One population, or one per segment, each with its own letters, windows and
        // mechanisms: a segment's resolved scenario (docs/model.md §5).
        let total = devices
        let parts = ResourceEstimate.populations(scenario, devices: total)
        let weighted = { (value: (Population) -> Double) -> Double in
            parts.count == 1 ? value(parts[0]) : parts.reduce(0) { $0 + $1.devices * value($1) } / max(total, 1)
        }
        lettersPerDevice = ResourceEstimate.finite(weighted(\.letters))
        letters = ResourceEstimate.finite(devices * lettersPerDevice)
        windowIntervals = ResourceEstimate.finite(parts.map(\.windowIntervals).max() ?? 0)
        windowSteps = ResourceEstimate.finite(parts.reduce(0) { $0 + $1.sharedWindowSteps })
        // FCM's doze windows are offline windows for the channel (DeviceWorld.init): flips too.
        let end = Double(scenario.end.microseconds)
        flipsPerDevice = ResourceEstimate.finite(weighted { $0.flips + 2 * ResourceEstimate.dozeIntervals($0.scenario, end: end) })

        let chunks = max(1, min(devices, Double(max(1, jobs)) * 16))
        self.chunks = chunks
        let armList = scenario.arms
        let arms = Double(self.arms)
        let coupled = CouplingUnit.of(scenario).partitions != nil
        let threads = Double(max(1, min(jobs, Int(min(devices, 1e6)))))
        // Worlds held at once: one per thread, or on the coupled path every world of the
        // largest partition on each thread (docs/performance.md, The coupled path).
        let partitions = Double(max(1, scenario.xiva.partitions))
        let largestPartition = (Double(max(0, scenario.devices)) / partitions).rounded(.up)
        let heldWorlds = coupled ? Double(max(1, min(jobs, Int(min(partitions, 1e6))))) * largestPartition : threads
        // Worlds made over the run: one per chunk and part of it (a segment met by a chunk), or
        // one per device on the coupled path.
        let worldsMade = { (part: Population) -> Double in
            coupled ? part.devices : (parts.count == 1 ? chunks : min(chunks, max(1, part.devices.rounded(.up))))
        }

        var letterEvents = 0.0, flipEvents = 0.0, fixedEvents = 0.0
        for part in parts {
            letterEvents += part.devices * arms * ResourceEstimate.eventsPerLetter * part.letters
            // A flip is one event in each arm and one more to draw it; an online flip may flush
            // APNs' one-slot store (a due event): 1.5 per flip and arm.
            flipEvents += part.devices * (arms * 1.5 * part.flips + part.processFlips + part.perDeviceWindowSteps)
                + part.sharedWindowSteps * worldsMade(part)
            fixedEvents += part.devices * (ResourceEstimate.eventsPerDevice + arms * ResourceEstimate.eventsPerDeviceAndArm)
        }
        peakLettersPerDevice = parts.map(\.peakLetters).max() ?? 0
        // Doze windows are offline windows for FCM (DeviceWorld.init): their flips are indexed too.
        // The mechanisms are those of populations with devices: with segments, the top level's
        // own keys reach no world (each part runs in its segment's resolved scenario).
        let populated = parts.filter { $0.devices > 0 || parts.count == 1 }
        peakFlipsPerDevice = parts.map {
            $0.peakFlips + ($0.devices > 0 || parts.count == 1 ? 2 * ResourceEstimate.dozeIntervals($0.scenario, end: end) : 0)
        }.max() ?? 0

        var list: [Mechanism] = [
            Mechanism(key: "mail", events: ResourceEstimate.finite(letterEvents),
                      bytes: ResourceEstimate.finite(threads * ResourceEstimate.bytesPerLetter * peakLettersPerDevice),
                      fix: "lower mail.rate (or mail.bursts, or the trace's letters) or the duration"),
            Mechanism(key: "connectivity", events: ResourceEstimate.finite(flipEvents),
                      bytes: ResourceEstimate.finite(threads * (ResourceEstimate.bytesPerFlip * peakFlipsPerDevice + 16 * windowIntervals)),
                      fix: "lengthen connectivity.online/offline and the windows' every, or shorten the duration"),
            Mechanism(key: "devices", events: ResourceEstimate.finite(fixedEvents), bytes: 0,
                      fix: "run fewer devices, or split them across processes or machines with --shard"),
            Mechanism(key: "the program", events: 0, bytes: ResourceEstimate.baseBytes,
                      fix: "raise --max-memory: the program and its buffers need this much whatever the scenario"),
        ]
        // The ledgers, each with its latency histogram: two per arm and chunk for the totals;
        // with segments, one per segment, arm and chunk (each chunk keeps its own until the run's
        // end merges them), the merged set and the result's (measured: 2 000 segments on 3
        // devices peak at 4.2 sets of 2 000 × 2), and one per arm for the part a thread runs.
        let segmentCount = Double(scenario.segments.count)
        let ledgers = arms * (chunks * 2 + (segmentCount > 0 ? (chunks + 2) * segmentCount + threads : 0))
        list.append(Mechanism(key: segmentCount > 0 ? "segments" : "ledgers",
                              events: ResourceEstimate.finite(ledgers * ResourceEstimate.eventsPerLedger),
                              bytes: ResourceEstimate.finite(ledgers * ResourceEstimate.bytesPerLedger),
                              fix: segmentCount > 0 ? "use fewer segments, or fewer --jobs" : "use fewer --jobs"))
        // The load series (docs/model.md §14): every ledger a device counted into holds one, a
        // count per quantity for every bin of the run. Chunk ledgers always do; of the segment
        // ledgers only those some device reached (at most one per device), in the chunks' sets,
        // the merged set and the result's.
        let seriesBytes = ResourceEstimate.loadSeriesBytes(scenario)
        let reachedSegmentLedgers = segmentCount > 0
            ? min(devices, chunks * segmentCount) + 2 * min(devices, segmentCount) + threads : 0
        let series = arms * (chunks * 2 + reachedSegmentLedgers)
        list.append(Mechanism(key: "load series", events: 0, bytes: ResourceEstimate.finite(series * seriesBytes),
                              fix: "use a wider bin (run --load-bin 1h), fewer --jobs, or a shorter duration"))
        // Every chain mechanism, summed over the parts (events) and at its largest (memory).
        var byKey: [String: Mechanism] = [:]
        var order: [String] = []
        for part in populated {
            for load in ResourceEstimate.loads(of: part, arms: armList, scenario: part.scenario, end: end) {
                let events = part.devices * load.eventsPerDevice + worldsMade(part) * load.stepsPerWorld
                let bytes = threads * load.bytesPerDevice + heldWorlds * load.bytesPerWorld
                if var known = byKey[load.key] {
                    known.events = ResourceEstimate.finite(known.events + events)
                    known.bytes = max(known.bytes, ResourceEstimate.finite(bytes))
                    byKey[load.key] = known
                } else {
                    order.append(load.key)
                    byKey[load.key] = Mechanism(key: load.key, events: ResourceEstimate.finite(events),
                                                bytes: ResourceEstimate.finite(bytes), fix: load.fix)
                }
            }
        }
        list += order.compactMap { byKey[$0] }
        let coupledBytes = ResourceEstimate.coupledBytes(scenario, jobs: jobs, lettersPerDevice: lettersPerDevice,
                                                         flipsPerDevice: flipsPerDevice)
        if coupledBytes > 0 {
            list.append(Mechanism(key: "xiva.partitions", events: 0, bytes: coupledBytes,
                                  fix: "raise xiva.partitions (fewer devices share a server), or use fewer --jobs"))
        }
        if logs && armList.contains(.on) {
            // A push the extension sees per letter, and as many again re-sent (a bound with room).
            list.append(Mechanism(key: "--logs", events: 0, bytes: ResourceEstimate.finite(2 * letters * ResourceEstimate.bytesPerLogRow),
                                  fix: "run without --logs, or with fewer devices or a shorter duration"))
        }
        mechanisms = list
        events = ResourceEstimate.finite(list.reduce(0) { $0 + $1.events })
        memoryBytes = ResourceEstimate.finite(list.reduce(0) { $0 + $1.bytes })
    }

    /// The mechanism with the most events, and with the most memory.
    package var largestByEvents: Mechanism? { mechanisms.max { $0.events < $1.events } }
    package var largestByMemory: Mechanism? { mechanisms.max { $0.bytes < $1.bytes } }

    /// Bytes of one device's world beside its letters and flips (event heap, arrays' first
    /// blocks, the scenario's parameters).
    package static let bytesPerWorld = 4096.0

    /// With a finite XIVA capacity or the binary interface a thread holds every world of a
    /// partition at once while its coupled arm runs (docs/performance.md, The coupled path): the largest partition's devices,
    /// each with a mean device's letters and flips, on each of up to `jobs` threads; 0 otherwise.
    /// A world that settles its letters in flight holds only those since it was last at rest
    /// (``lettersHeldSettling(_:lettersPerDevice:)``), beside the scripts an earlier arm keeps for it.
    static func coupledBytes(_ scenario: Scenario, jobs: Int, lettersPerDevice: Double, flipsPerDevice: Double) -> Double {
        guard CouplingUnit.of(scenario).partitions != nil else { return 0 }
        let partitions = Double(max(1, scenario.xiva.partitions))
        let largest = (Double(max(0, scenario.devices)) / partitions).rounded(.up)
        let threads = Double(max(1, min(jobs, Int(min(partitions, 1e6)))))
        guard ChainParameters(scenario).settlesInFlight else {
            return threads * largest * (bytesPerLetter * lettersPerDevice + bytesPerFlip * flipsPerDevice + bytesPerWorld)
        }
        let held = lettersHeldSettling(scenario, lettersPerDevice: lettersPerDevice)
        let keptScripts = scenario.arms.count > 1
            ? min(Double(CoupledRun.keptScriptBytes), largest * lettersPerDevice * Double(MemoryLayout<LetterDraws>.stride)) : 0
        let perWorld = bytesPerHeldLetter * held + bytesPerKeptFlip * flipsPerDevice + bytesPerSettlingWorld
        return threads * (largest * perWorld + keptScripts)
    }

    /// A letter a world settling in flight holds: its draws (40 bytes), its state (24), its
    /// position at XIVA (4), its copies (24 each) and extension runs (32 each), in arrays grown
    /// by half again; 256 (``bytesPerLetter``) until 2026-12-05, which estimated a million-phone
    /// partition at four to six times what it took, and refused `commuters.yaml`'s by default.
    package static let bytesPerHeldLetter = 160.0
    /// A flip such a world keeps: its instant, in an array at its size (the drawing's buffers
    /// are the partition's, ``DrawScratch``), with room to spare.
    package static let bytesPerKeptFlip = 16.0
    /// Such a world beside its letters and flips: the `DeviceWorld` value (760 bytes), its
    /// heap's and arrays' first room, the allocator's share; about twice what was measured.
    package static let bytesPerSettlingWorld = 2048.0

    /// Letters a world settling in flight holds at once, on average (WorldSettlement.swift):
    /// those of its longest offline stretch (the longest window, plus ten mean offline periods
    /// for the drawn ones), twice over, and the letters between two settlements and those drawn
    /// ahead (4 and 4; 8 and 8 until 2026-12-04); never more than its letters. Measured on
    /// `thundering-herd.yaml` in one partition, 1 000 000 phones × 7 days: 1.88 GiB at the peak
    /// (estimated 4.7 GB); `commuters.yaml` with the coupled rung's XIVA, the same size: 2.72 GiB.
    static func lettersHeldSettling(_ scenario: Scenario, lettersPerDevice: Double) -> Double {
        let duration = Double(max(1, scenario.duration.microseconds))
        let longestWindow = scenario.connectivity.windows.map { window in
            Double((window.end - window.start).microseconds) + (window.length?.mean ?? 0)
        }.max() ?? 0
        let drawnOffline = 10 * (scenario.connectivity.offline?.mean ?? 0)
        let stretch = min(duration, longestWindow + drawnOffline)
        let betweenSettlements = Double(DeviceWorld.lettersBetweenSettlements + LetterCursor.lettersPerDraw)
        return min(lettersPerDevice, betweenSettlements + 2 * lettersPerDevice / duration * stretch)
    }

    /// What a run may use: events (time) and bytes.
    package struct Limits: Sendable, Equatable {
        package var maxEvents: Double
        package var maxMemoryBytes: Double
        package init(maxEvents: Double, maxMemoryBytes: Double) {
            self.maxEvents = maxEvents; self.maxMemoryBytes = maxMemoryBytes
        }

        /// The reference speed the event budget is expressed in: 10 M events per second.
        package static let eventsPerSecond = 10_000_000.0
        /// One hour at the reference speed.
        package static let defaultMaxEvents = 3600 * eventsPerSecond

        /// The defaults: one hour of work at 10 M events/s, half of this machine's memory.
        package static func machineDefaults() -> Limits {
            Limits(maxEvents: defaultMaxEvents, maxMemoryBytes: Double(ProcessInfo.processInfo.physicalMemory) / 2)
        }
    }

    /// Why a run is refused, or nil if it fits `limits`. The message gives the estimate and
    /// what to do instead.
    package func refusal(under limits: Limits, name: String) -> String? {
        var reasons: [String] = []
        if devices * chunks >= Double(Int.max) {
            reasons.append("\(ResourceEstimate.count(devices)) devices are more than one run can count "
                           + "(at most \(ResourceEstimate.count(Double(Int.max) / chunks)) with this many threads)")
        }
        if peakLettersPerDevice >= ResourceEstimate.perDeviceLimit || peakFlipsPerDevice >= ResourceEstimate.perDeviceLimit {
            // The fix of what overflows: letters come from the mail, changes from connectivity.
            let letters = peakLettersPerDevice >= peakFlipsPerDevice
            reasons.append("a single device would have about \(ResourceEstimate.count(max(peakLettersPerDevice, peakFlipsPerDevice))) "
                           + "\(letters ? "letters" : "connectivity changes"), "
                           + "more than the simulator can index per device (\(ResourceEstimate.count(ResourceEstimate.perDeviceLimit))); "
                           + (letters ? "lower mail.rate (or mail.bursts) or the duration"
                                      : "lengthen the online/offline periods, the windows' and device.doze's periods, or shorten the duration"))
        }
        if events > limits.maxEvents {
            reasons.append("it would take about \(ResourceEstimate.count(events)) events "
                           + "(\(ResourceEstimate.time(events / Limits.eventsPerSecond)) at 10 M events/s), "
                           + "over the limit of \(ResourceEstimate.count(limits.maxEvents)) (--max-events)"
                           + (largestByEvents.map { ", most of them from \($0.key) (about \(ResourceEstimate.count($0.events)) events: \($0.fix))" } ?? ""))
        }
        if memoryBytes > limits.maxMemoryBytes {
            reasons.append("it would need about \(ResourceEstimate.bytes(memoryBytes)) of memory, "
                           + "over the limit of \(ResourceEstimate.bytes(limits.maxMemoryBytes)) (--max-memory)"
                           + (largestByMemory.map { ", most of it for \($0.key) (about \(ResourceEstimate.bytes($0.bytes)): \($0.fix))" } ?? ""))
        }
        guard !reasons.isEmpty else { return nil }
        return "refusing to run '\(name)': " + reasons.joined(separator: "; and ")
            + ". Estimate: \(ResourceEstimate.count(devices)) devices × \(ResourceEstimate.count(lettersPerDevice)) letters "
            + "× \(arms) arm\(arms == 1 ? "" : "s"), \(ResourceEstimate.count(flipsPerDevice)) connectivity changes per device. "
            + "Make the run smaller (fewer devices, a shorter duration, a lower rate), split the devices "
            + "across processes or machines with --shard, or raise --max-events / --max-memory if the machine can take it."
    }

    /// A one-line summary of the estimate (for logs).
    package var summary: String {
        "about \(ResourceEstimate.count(events)) events (\(ResourceEstimate.time(events / Limits.eventsPerSecond)) at 10 M events/s), "
            + "\(ResourceEstimate.bytes(memoryBytes)) of memory"
    }

    // MARK: The pieces

    /// The cost model's laws (``CostModel``, PushSimCore), under the estimate's names.
    static func truncatedMean(_ d: Distribution, at t: Double) -> Double { CostModel.truncatedMean(d, at: t) }
    static func peak(_ x: Double) -> Double { CostModel.peak(x) }
    static func finite(_ x: Double) -> Double { CostModel.finite(x) }

    /// A count for people: `12 345`, `4.2 million`, `3.1e15`.
    package static func count(_ x: Double) -> String {
        if x < 1e6 { return String(Int(x.rounded())) }
        if x < 1e9 { return String(format: "%.1f million", x / 1e6) }
        if x < 1e12 { return String(format: "%.1f billion", x / 1e9) }
        return String(format: "%.1e", x)
    }

    static func bytes(_ x: Double) -> String {
        let units = ["B", "KB", "MB", "GB", "TB", "PB", "EB"]
        var value = x, index = 0
        while value >= 1024 && index < units.count - 1 { value /= 1024; index += 1 }
        if index == units.count - 1 && value >= 1024 { return String(format: "%.1e B", x) }
        return index == 0 ? "\(Int(value)) B" : String(format: "%.1f ", value) + units[index]
    }

    static func time(_ seconds: Double) -> String {
        if seconds < 60 { return String(format: "%.1f s", seconds) }
        if seconds < 3600 { return String(format: "%.0f min", seconds / 60) }
        if seconds < 86400 * 2 { return String(format: "%.1f h", seconds / 3600) }
        if seconds < 86400 * 365 * 2 { return String(format: "%.0f days", seconds / 86400) }
        let years = seconds / (86400 * 365.25)
        return years < 1e6 ? String(format: "%.0f years", years) : String(format: "%.1e years", years)
    }
}
