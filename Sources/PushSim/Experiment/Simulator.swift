// Runs a scenario: every device through every arm, on one or more threads, into one result.
import Dispatch
import Foundation

/// One arm's result: whether the queue was on, and everything it counted.
public struct ArmResult: Equatable, Sendable {
    public var queueOn: Bool
    public var ledger: Ledger
    public init(queueOn: Bool, ledger: Ledger) { self.queueOn = queueOn; self.ledger = ledger }
}

/// The result of a run (or of a shard of one): the scenario's name, the seed, and the arms
/// in the contract's order.
public struct RunResult: Equatable, Sendable {
    public var scenario: String
    public var seed: UInt64
    public var arms: [ArmResult]
    /// The devices this result covers: all of them for a run, a part for a shard.
    public var devices: Range<Int>
    public var totalDevices: Int

    /// Adds the result of another, disjoint and adjacent, set of devices of the same scenario.
    public mutating func merge(_ other: RunResult) {
        for i in arms.indices { arms[i].ledger.merge(other.arms[i].ledger) }
        devices = min(devices.lowerBound, other.devices.lowerBound)..<max(devices.upperBound, other.devices.upperBound)
    }
}

public enum Simulator {
    /// Simulates the devices of `scenario` (all, or the given range) through its arms.
    /// `progress` hears, from any thread, each finished chunk's devices and kernel events.
    ///
    /// Devices are independent, so they are cut into chunks that run on `jobs` threads; chunk
    /// ledgers are integer counts and histograms, so their sum does not depend on the order
    /// they finish in, and `jobs` never changes a result.
    public static func run(_ scenario: Scenario, devices: Range<Int>? = nil, jobs: Int = 1,
                           progress: (@Sendable (_ devices: Int, _ events: Int) -> Void)? = nil) -> RunResult {
        let range = devices ?? 0..<scenario.devices
        let arms = scenario.arms
        let chunks = inChunks(of: range, jobs: jobs) { devices in
            let ledgers = simulate(scenario, devices: devices, arms: arms)
            progress?(devices.count, ledgers.reduce(0) { $0 + $1.events })
            return ledgers
        }
        var total = arms.map { _ in Ledger() }
        for ledgers in chunks {
            for a in total.indices { total[a].merge(ledgers[a]) }
        }
        return RunResult(scenario: scenario.name, seed: scenario.seed,
                         arms: zip(arms, total).map { ArmResult(queueOn: $0, ledger: $1) },
                         devices: range, totalDevices: scenario.devices)
    }

    /// Calls `body` for contiguous chunks of `range` (about 16 per thread, so threads finish
    /// together) on `jobs` threads, and returns what it gave, in chunk order.
    static func inChunks<Part>(of range: Range<Int>, jobs: Int,
                               _ body: @escaping @Sendable (Range<Int>) -> Part) -> [Part] {
        let chunkCount = max(1, min(range.count, max(1, jobs) * 16))
        let slots = ResultSlots<Part>(count: chunkCount)
        let work: @Sendable (Int) -> Void = { chunk in
            slots[chunk] = body(chunkRange(range, chunk, of: chunkCount))
        }
        if jobs <= 1 {
            for chunk in 0..<chunkCount { work(chunk) }
        } else {
            DispatchQueue.concurrentPerform(iterations: chunkCount, execute: work)
        }
        return (0..<chunkCount).compactMap { slots[$0] }
    }

    /// The chunk-th of `count` near-equal contiguous parts of `range`, computed without any
    /// product that could overflow, whatever the number of devices.
    static func chunkRange(_ range: Range<Int>, _ chunk: Int, of count: Int) -> Range<Int> {
        let (size, extra) = range.count.quotientAndRemainder(dividingBy: count)
        let lower = range.lowerBound + size * chunk + min(chunk, extra)
        return lower..<(lower + size + (chunk < extra ? 1 : 0))
    }

    /// Simulates a contiguous range of devices on the calling thread.
    public static func simulate(_ scenario: Scenario, devices: Range<Int>, arms: [Bool]) -> [Ledger] {
        var world = DeviceWorld(scenario: scenario)
        var ledgers = arms.map { _ in Ledger() }
        for device in devices {
            world.prepare(device: device)
            for (a, queueOn) in arms.enumerated() {
                swap(&world.ledger, &ledgers[a])
                world.run(queueOn: queueOn)
                swap(&world.ledger, &ledgers[a])
            }
        }
        return ledgers
    }

    /// The timeline of one device in one arm, event by event (`pushsim trace`).
    public static func trace(_ scenario: Scenario, device: Int, queueOn: Bool) -> (entries: [TraceEntry], ledger: Ledger) {
        var world = DeviceWorld(scenario: scenario)
        let log = TraceLog()
        world.tracer = { log.entries.append($0) }
        world.prepare(device: device)
        world.run(queueOn: queueOn)
        return (log.entries, world.ledger)
    }
}

/// Collects trace entries from the world's tracer closure.
final class TraceLog { var entries: [TraceEntry] = [] }

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
