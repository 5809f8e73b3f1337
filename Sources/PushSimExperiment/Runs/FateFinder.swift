// Finding letters by fate and cause across every device of a run (`pushsim find`), without tracing.
import PushSimCore

/// Which letters to look for: every fate, one state, or lost letters of one cause.
package enum FateQuery: Equatable, Sendable, CustomStringConvertible {
    case delivered, summarized, undeliverable
    /// Lost letters; nil: whatever the cause.
    case lost(LossCause?)

    /// `delivered`, `summarized`, `lost` or `lost:CAUSE` (a cause's JSON name).
    package static func parse(_ text: String) -> FateQuery? {
        switch text {
        case "delivered": return .delivered
        case "summarized": return .summarized
        case "undeliverable": return .undeliverable
        case "lost": return .lost(nil)
        default:
            guard text.hasPrefix("lost:") else { return nil }
            let key = String(text.dropFirst(5))
            return LossCause.allCases.first { $0.key == key }.map { .lost($0) }
        }
    }

    /// Every value `parse` takes, for messages.
    package static var every: [String] { ["delivered", "summarized", "undeliverable", "lost"] + LossCause.allCases.map { "lost:" + $0.key } }

    package var description: String {
        switch self {
        case .delivered: return "delivered"
        case .summarized: return "summarized"
        case .undeliverable: return "undeliverable"
        case .lost(let cause): return cause.map { "lost:" + $0.key } ?? "lost"
        }
    }

    func matches(_ fate: LetterFate) -> Bool {
        switch (self, fate) {
        case (.delivered, .delivered), (.summarized, .summarized), (.undeliverable, .undeliverable), (.lost(nil), .lost): return true
        case (.lost(let wanted?), .lost(let cause)): return wanted == cause
        default: return false
        }
    }
}

/// One letter that matched: its device, its index on that device (the trace's `#n` is n − 1),
/// when it was created, and how it ended.
package struct FoundLetter: Equatable, Sendable {
    package var device: Int
    package var letter: Int
    package var time: SimTime
    package var fate: LetterFate
}

/// What a search found: the first `limit` matching letters in device order, and how many
/// letters and devices matched in all.
package struct FateFinding: Equatable, Sendable {
    package var letters: [FoundLetter] = []
    package var lettersMatching = 0
    package var devicesMatching = 0
    package var devicesSearched = 0
    /// Every counted letter searched, by fate, recorded as the run's ledger records it (the
    /// fates, causes and latencies only): the search's counts can be put beside the run's.
    package var tally = Ledger()

    /// The counted letters of a device whose arm is finished (the run's ledger records the same
    /// ones, with the same fates): every match counted, listed while fewer than `limit` are.
    mutating func add(_ world: borrowing DeviceWorld, device: Int, query: FateQuery, listingAtMost limit: Int) {
        devicesSearched += 1
        var any = false
        for i in world.countedLetters {
            let fate = world.fate(of: i)
            tally.record(fate)
            guard query.matches(fate) else { continue }
            any = true
            lettersMatching += 1
            if letters.count < limit {
                letters.append(FoundLetter(device: device, letter: i, time: SimTime(microseconds: world.draws.letters[i].time), fate: fate))
            }
        }
        if any { devicesMatching += 1 }
    }

    mutating func add(_ other: FateFinding, limit: Int) {
        letters += other.letters.prefix(max(0, limit - letters.count))
        lettersMatching += other.lettersMatching
        devicesMatching += other.devicesMatching
        devicesSearched += other.devicesSearched
        tally.merge(other.tally)
    }
}

package enum FateFinder {
    /// Runs one arm of `scenario` for every device and reads each letter's fate from the
    /// device's world: the same simulation as `run` (the same streams, so the same fates), with
    /// no trace text built, on `jobs` threads. The letters listed are the first `limit` in
    /// device order, whatever `jobs` is.
    package static func find(_ scenario: Scenario, arm: Arm, query: FateQuery, limit: Int, jobs: Int = 1,
                            progress: (@Sendable (_ devices: Int) -> Void)? = nil) -> FateFinding {
        let parts = Simulator.inChunks(of: 0..<scenario.devices, jobs: jobs, unit: .of(scenario)) { devices in
            let part = search(scenario, devices: devices, arm: arm, query: query, limit: limit)
            progress?(devices.count)
            return part
        }
        var total = FateFinding()
        for part in parts { total.add(part, limit: limit) }
        return total
    }

    /// One contiguous range of devices on the calling thread, through the run's own path
    /// (segments, warm-up, partitions: `Simulator.simulate`).
    static func search(_ scenario: Scenario, devices: Range<Int>, arm: Arm, query: FateQuery, limit: Int) -> FateFinding {
        var sink = FateSink(query: query, limit: limit)
        Simulator.simulate(scenario, devices: devices, arms: [arm], into: &sink)
        return sink.finding()
    }
}

/// What a search keeps: the matching letters, of which only the first `limit` in (device,
/// letter) order are listed. Worlds of a partition finish in no fixed device order, so the
/// matches are trimmed to those first `limit` whenever they pile up.
private struct FateSink: DeviceLedgerSink {
    let query: FateQuery
    let limit: Int
    private var found = FateFinding()
    /// Counts the search does not report, kept so no ledger is allocated per device.
    private var scratch = Ledger()

    init(query: FateQuery, limit: Int) { self.query = query; self.limit = limit }

    mutating func account(device: Int, segment: Int?, arm: Int, _ body: (inout Ledger) -> Void) { body(&scratch) }

    mutating func partitionQueue(arm: Int, maxQueue: Int, maxQueueBySegment: [Int], series: XivaQueueSeries) {}

    mutating func finished(device: Int, arm: Int, world: borrowing DeviceWorld) {
        found.add(world, device: device, query: query, listingAtMost: Int.max)
        if found.letters.count > 2 * max(1, limit) { trim() }
    }

    private mutating func trim() {
        found.letters.sort { ($0.device, $0.letter) < ($1.device, $1.letter) }
        found.letters.removeLast(max(0, found.letters.count - limit))
    }

    mutating func finding() -> FateFinding {
        trim()
        return found
    }
}
