// Runs a scenario: every device through every arm, on one or more threads, into one result.
import Dispatch
import Foundation
import PushSimCore

/// One arm's result: which arm, and everything it counted.
package struct ArmResult: Equatable, Sendable {
    package var arm: Arm
    package var ledger: Ledger
    /// The design this arm recovered with (the off arm: none), when the run knows it; nil for a
    /// result read back from parts, where the ledger says which (``DesignMetrics/design(of:)``).
    package var recovery: RecoveryDesign?
    package init(_ arm: Arm, ledger: Ledger, recovery: RecoveryDesign? = nil) {
        self.arm = arm; self.ledger = ledger; self.recovery = recovery
    }

    /// Two arms are equal when they counted the same: the design is a label of the counts.
    package static func == (a: ArmResult, b: ArmResult) -> Bool { a.arm == b.arm && a.ledger == b.ledger }
}

/// One segment's share of a run (docs/model.md §5, Segments): its name, how many devices it holds in the whole
/// run, and its arms counting only its own devices.
package struct SegmentResult: Equatable, Sendable {
    package var name: String
    package var devices: Int
    package var arms: [ArmResult]
    package init(name: String, devices: Int, arms: [ArmResult]) {
        self.name = name; self.devices = devices; self.arms = arms
    }
}

/// The result of a run (or of a shard of one): the scenario's name, the seed, and the arms
/// in the contract's order.
package struct RunResult: Equatable, Sendable {
    package var scenario: String
    package var seed: UInt64
    package var arms: [ArmResult]
    /// The devices this result covers: all of them for a run, a part for a shard.
    package var devices: Range<Int>
    package var totalDevices: Int
    /// Per segment, in file order; empty without segments.
    package var segments: [SegmentResult] = []
    /// How the ledgers' load series are read: bin width, measured window, end (docs/model.md §14).
    package var loadFrame: LoadFrame

    package init(scenario: String, seed: UInt64, arms: [ArmResult], devices: Range<Int>, totalDevices: Int,
                 segments: [SegmentResult] = [], loadFrame: LoadFrame = LoadFrame()) {
        self.scenario = scenario; self.seed = seed; self.arms = arms
        self.devices = devices; self.totalDevices = totalDevices; self.segments = segments
        self.loadFrame = loadFrame
    }

    /// Adds the result of another, disjoint and adjacent, set of devices of the same scenario.
    package mutating func merge(_ other: RunResult) {
        for i in arms.indices { arms[i].ledger.merge(other.arms[i].ledger) }
        for s in segments.indices where s < other.segments.count {
            for i in segments[s].arms.indices { segments[s].arms[i].ledger.merge(other.segments[s].arms[i].ledger) }
        }
        devices = min(devices.lowerBound, other.devices.lowerBound)..<max(devices.upperBound, other.devices.upperBound)
    }
}

/// The ledgers of a set of devices, per arm: in total and per segment (empty without segments).
package struct SegmentedLedgers: Sendable {
    package var totals: [Ledger]
    package var segments: [[Ledger]]

    init(arms: Int, segments: Int) {
        totals = (0..<arms).map { _ in Ledger() }
        self.segments = (0..<segments).map { _ in (0..<arms).map { _ in Ledger() } }
    }

    /// Kernel events counted, in the totals and the segments: in a sink's ledgers, before
    /// `finished()` adds the segments to the totals, each event is in one of them.
    var events: Int {
        totals.reduce(0) { $0 + $1.events } + segments.reduce(0) { $0 + $1.reduce(0) { $0 + $1.events } }
    }

    mutating func merge(_ other: SegmentedLedgers) {
        for a in totals.indices { totals[a].merge(other.totals[a]) }
        for s in segments.indices { for a in segments[s].indices { segments[s][a].merge(other.segments[s][a]) } }
    }

    /// Adds one part's ledgers: to its segment's (if any) and to the totals.
    mutating func add(_ ledgers: [Ledger], segment: Int?) {
        if let segment { for a in ledgers.indices { segments[segment][a].merge(ledgers[a]) } }
        for a in ledgers.indices { totals[a].merge(ledgers[a]) }
    }

    /// The run's result from these ledgers.
    func result(_ scenario: Scenario, arms: [Arm], devices: Range<Int>) -> RunResult {
        func armResults(_ ledgers: [Ledger]) -> [ArmResult] {
            zip(arms, ledgers).map { ArmResult($0, ledger: $1, recovery: $0 == .on ? scenario.recovery : RecoveryDesign.none) }
        }
        return RunResult(scenario: scenario.name, seed: scenario.seed, arms: armResults(totals),
                         devices: devices, totalDevices: scenario.devices,
                         segments: zip(scenario.segments, segments).map {
                             SegmentResult(name: $0.name, devices: $0.devices.count, arms: armResults($1))
                         }, loadFrame: LoadFrame(scenario))
    }
}

package enum Simulator {
    /// Simulates the devices of `scenario` (all, or the given range) through its arms.
    /// `progress` hears, from any thread, each finished chunk's devices and kernel events.
    ///
    /// Devices are independent, so they are cut into chunks that run on `jobs` threads; chunk
    /// ledgers are integer counts and histograms, so their sum does not depend on the order
    /// they finish in, and `jobs` never changes a result.
    package static func run(_ scenario: Scenario, devices: Range<Int>? = nil, jobs: Int = 1,
                           progress: (@Sendable (_ devices: Int, _ events: Int) -> Void)? = nil) -> RunResult {
        run(scenario, devices: devices, jobs: jobs, logs: false, progress: progress).result
    }

    /// ``run(_:devices:jobs:progress:)`` that also keeps, with `logs`, the rows the extension's
    /// log would hold (`run --logs`, docs/model.md §2): by device, then in the order the
    /// extension saw the pushes, whatever `jobs` (chunks are contiguous and taken in order).
    package static func run(_ scenario: Scenario, devices: Range<Int>? = nil, jobs: Int = 1, logs: Bool,
                           progress: (@Sendable (_ devices: Int, _ events: Int) -> Void)? = nil)
        -> (result: RunResult, logs: [LoggedPush]) {
        let range = devices ?? 0..<scenario.devices
        let arms = scenario.arms
        // One sink per thread, which every chunk the thread takes adds into: a fresh one per
        // chunk cost each chunk its own ledgers (a load series of 400 KB a week per arm, fresh
        // memory the kernel hands out page by page), which at 1 000 phones was a quarter of the run.
        let (sinks, rows) = inChunks(of: range, jobs: jobs, unit: .of(scenario), accumulator: {
            SegmentedLedgerSink(ledgers: SegmentedLedgers(arms: arms.count, segments: scenario.segments.count))
        }) { ledgers, devices in
            var sink = LogCollectingSink(SegmentedLedgerSink(ledgers: SegmentedLedgers(arms: 0, segments: 0)))
            swap(&sink.inner, &ledgers)
            let before = sink.inner.ledgers.events
            simulate(scenario, devices: devices, arms: arms, logging: logs, into: &sink)
            progress?(devices.count, sink.inner.ledgers.events - before)
            swap(&sink.inner, &ledgers)
            return sink.rows
        }
        var total = sinks[0].finished()
        for sink in sinks.dropFirst() { total.merge(sink.finished()) }
        return (total.result(scenario, arms: arms, devices: range), rows.flatMap { $0 })
    }

    /// The parts of `devices` that live in one scenario each: one per segment they meet (with
    /// the segment's index and resolved scenario), or the whole range in `scenario` itself.
    /// Device ids, and so every random stream, stay global.
    package static func parts(of scenario: Scenario, devices: Range<Int>)
        -> [(segment: Int?, scenario: Scenario, devices: Range<Int>)] {
        guard !scenario.segments.isEmpty else { return [(nil, scenario, devices)] }
        return scenario.segments.indices.compactMap { i in
            let own = scenario.segments[i].devices.clamped(to: devices)
            return own.isEmpty ? nil : (i, scenario.scenario(forSegment: i), own)
        }
    }

    /// Calls `body` for contiguous chunks of `range` (about 16 per thread, so threads finish
    /// together) on `jobs` threads, and returns what it gave, in chunk order. Chunks hold whole
    /// coupling units (fixed-size ones counted from the range's start).
    static func inChunks<Part>(of range: Range<Int>, jobs: Int, unit: CouplingUnit = .oneDevice,
                               _ body: @escaping @Sendable (Range<Int>) -> Part) -> [Part] {
        inChunks(of: range, jobs: jobs, unit: unit, accumulator: {}) { _, devices in body(devices) }.parts
    }

    /// ``inChunks(of:jobs:unit:_:)`` where each thread also keeps one `accumulator` that every
    /// chunk it takes is given: what the chunks add up is made once per thread, not per chunk.
    /// Threads take the chunks in turn, so which thread adds up which chunk varies: what they
    /// add must not depend on it (integer sums, maxima). The accumulators come back one per
    /// thread that ran (at least one), the parts in chunk order.
    static func inChunks<Accumulator, Part>(of range: Range<Int>, jobs: Int, unit: CouplingUnit = .oneDevice,
                                            accumulator: @escaping @Sendable () -> Accumulator,
                                            _ body: @escaping @Sendable (inout Accumulator, Range<Int>) -> Part)
        -> (accumulators: [Accumulator], parts: [Part]) {
        let units = unit.units(in: range)
        let chunkCount = max(1, min(units.count, max(1, jobs) * 16))
        @Sendable func devices(ofChunk chunk: Int) -> Range<Int> {
            let inUnits = chunkRange(units, chunk, of: chunkCount)
            // The first chunk starts at the range's start, the last ends at its end.
            let lower = chunk == 0 ? range.lowerBound : unit.firstDevice(ofUnit: inUnits.lowerBound, in: range)
            let upper = chunk == chunkCount - 1 ? range.upperBound : unit.firstDevice(ofUnit: inUnits.upperBound, in: range)
            return lower..<upper
        }
        if jobs <= 1 {
            var sum = accumulator()
            let parts = (0..<chunkCount).map { body(&sum, devices(ofChunk: $0)) }
            return ([sum], parts)
        }
        let workers = min(jobs, chunkCount)
        let slots = ResultSlots<Part>(count: chunkCount)
        let sums = ResultSlots<Accumulator>(count: workers)
        let next = ChunkCounter()
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            var sum = accumulator()
            while let chunk = next.take(below: chunkCount) { slots[chunk] = body(&sum, devices(ofChunk: chunk)) }
            sums[worker] = sum
        }
        return ((0..<workers).compactMap { sums[$0] }, (0..<chunkCount).compactMap { slots[$0] })
    }

    /// The chunk-th of `count` near-equal contiguous parts of `range`, computed without any
    /// product that could overflow, whatever the number of devices.
    static func chunkRange(_ range: Range<Int>, _ chunk: Int, of count: Int) -> Range<Int> {
        let (size, extra) = range.count.quotientAndRemainder(dividingBy: count)
        let lower = range.lowerBound + size * chunk + min(chunk, extra)
        return lower..<(lower + size + (chunk < extra ? 1 : 0))
    }

    /// Simulates a contiguous range of devices on the calling thread; the totals per arm.
    package static func simulate(_ scenario: Scenario, devices: Range<Int>, arms: [Arm]) -> [Ledger] {
        simulateSegments(scenario, devices: devices, arms: arms).totals
    }

    /// Simulates a contiguous range of devices on the calling thread, each in its segment's
    /// scenario: the ledgers per arm, in total and per segment.
    package static func simulateSegments(_ scenario: Scenario, devices: Range<Int>, arms: [Arm],
                                        shortcuts: ShortcutPolicy = .taken) -> SegmentedLedgers {
        var sink = SegmentedLedgerSink(ledgers: SegmentedLedgers(arms: arms.count, segments: scenario.segments.count))
        simulate(scenario, devices: devices, arms: arms, shortcuts: shortcuts, into: &sink)
        return sink.finished()
    }

    /// The one way a range of devices is simulated, for every command (`run`, `check`, `find`,
    /// `trace`, sweeps, shards): each device in its segment's scenario (device ids, and so every
    /// stream, stay global), the warm-up's letters uncounted, devices that share a server (a
    /// finite XIVA capacity, the binary interface) with their whole partition. What a command
    /// keeps is its sink's business; how the worlds are set up and run is decided here alone,
    /// so no command can drift from `run`. With `tracing`, that device's world reports every
    /// step to the tracer; with `logging`, every world records its extension's log rows.
    static func simulate<Sink: DeviceLedgerSink>(_ scenario: Scenario, devices: Range<Int>, arms: [Arm],
                                                 shortcuts: ShortcutPolicy = .taken,
                                                 tracing: (device: Int, tracer: (TraceEntry) -> Void)? = nil,
                                                 logging: Bool = false, into sink: inout Sink) {
        if CouplingUnit.of(scenario).partitions != nil {
            CoupledRun.simulate(scenario, devices: devices, arms: arms, shortcuts: shortcuts, tracing: tracing,
                                logging: logging, into: &sink)
            return
        }
        for part in parts(of: scenario, devices: devices) {
            var world = DeviceWorld(scenario: part.scenario, shortcuts: shortcuts)
            if logging { world.extensionLog = ExtensionLogRecorder() }
            for device in part.devices {
                if let tracing { world.tracer = tracing.device == device ? tracing.tracer : nil }
                world.prepare(device: device)
                for (a, arm) in arms.enumerated() {
                    SpeedGateSpin.spin(device: device)
                    sink.account(device: device, segment: part.segment, arm: a) { world.run(arm, into: &$0) }
                    sink.finished(device: device, arm: a, world: world)
                }
            }
        }
    }

    /// The timeline of one device in one arm, event by event (`pushsim trace`), simulated as
    /// `run` simulates it: a device that shares a server runs inside its whole partition.
    package static func trace(_ scenario: Scenario, device: Int, arm: Arm,
                             shortcuts: ShortcutPolicy = .taken) -> (entries: [TraceEntry], ledger: Ledger) {
        let log = TraceLog()
        var sink = OneDeviceSink(device: device)
        simulate(scenario, devices: tracedPartition(scenario, device: device) ?? device..<(device + 1), arms: [arm],
                 shortcuts: shortcuts, tracing: (device, { log.entries.append($0) }), into: &sink)
        return (log.entries, sink.ledger)
    }

    /// The devices of the partition holding `device` when devices share a server; nil otherwise.
    package static func tracedPartition(_ scenario: Scenario, device: Int) -> Range<Int>? {
        guard let (count, total) = CouplingUnit.of(scenario).partitions else { return nil }
        return (0..<count).lazy.map { xivaPartitionDevices($0, of: count, devices: total) }.first { $0.contains(device) }
    }

    /// Whether the device is online at time 0 (a trace's entries only tell the flips).
    package static func onlineAtStart(_ scenario: Scenario, device: Int) -> Bool {
        var world = DeviceWorld(scenario: scenario.scenario(forDevice: device))
        world.prepare(device: device)
        return world.draws.timeline.onlineAtStart
    }
}

/// A traced partition's sink: the traced device's counts, the others' dropped.
private struct OneDeviceSink: DeviceLedgerSink {
    let device: Int
    var ledger = Ledger()
    private var others = Ledger()

    init(device: Int) { self.device = device }

    mutating func account(device: Int, segment: Int?, arm: Int, _ body: (inout Ledger) -> Void) {
        if device == self.device { body(&ledger) } else { body(&others) }
    }

    mutating func partitionQueue(arm: Int, maxQueue: Int, maxQueueBySegment: [Int], series: XivaQueueSeries) {}
}

/// Collects trace entries from the world's tracer closure.
final class TraceLog { var entries: [TraceEntry] = [] }

/// The next chunk for whichever thread asks, each once.
final class ChunkCounter: @unchecked Sendable {
    private var next = 0
    private let lock = NSLock()
    func take(below count: Int) -> Int? {
        lock.lock(); defer { lock.unlock() }
        guard next < count else { return nil }
        next += 1
        return next - 1
    }
}

/// Fixed slots that concurrent workers fill, one slot each, under a lock.
final class ResultSlots<Value>: @unchecked Sendable {
    private var values: [Value?]
    private let lock = NSLock()
    init(count: Int) { values = Array(repeating: nil, count: count) }
    subscript(index: Int) -> Value? {
        get { lock.lock(); defer { lock.unlock() }; return values[index] }
        set { lock.lock(); values[index] = newValue; lock.unlock() }
    }
}
