// A world running ahead of its partition over the binary interface: its first sends written on a forecast and checked later against the connection, and the record that lets it run again from its arm's start when a forecast was wrong.
//
// Over the binary interface every push joins the partition's connection, and the connection
// can decide a write only once it knows every earlier write of the partition. Waiting there
// for the other worlds made each push resume a world that the partition's thousands of others
// had pushed out of the caches (docs/performance.md, The binary interface on the coupled path).
// So a world writes a first send on a forecast instead — the connection as the partition left
// it when the world was resumed, plus the world's own writes since — and runs on; the stepper
// (SpeculativeStepper.swift) checks every forecast in the global order with the connection.
// Almost every forecast holds: the connection is idle most of the time, and a write's
// malformed draw and error delay are the writer's own. When one does not, the world runs again
// from its arm's start, every decision made so far replayed from this record, and that write
// is decided by the connection. Re-sends and buffer checks wait for the connection, as every
// push did before: re-sends come in bursts after a mass reconnect, where forecasts fail.

/// A forecast write whose outcome is not the plain one (accepted when its write ends): the
/// draws and the forecast the connection's decision is checked against.
struct UnusualForecast {
    var sequence: Int
    var malformed: Bool
    /// The error's round trip, when the forecast drew it (a rejected write); else 0.
    var errorDelay: Int64
    var forecast: BinaryWriteOutcome
}

/// A write whose decided outcome was not the plain one: what a replay cannot work out alone.
struct UnusualWrite {
    var sequence: Int
    var outcome: BinaryWriteOutcome
}

/// One world's side of running ahead, for one arm: its unusual forecasts, and every decision
/// made for it so far (a plain accept is what a replay assumes, so only the others are kept).
private struct SpeculationRecord {
    var generation: Int32 = 0
    var unusualForecasts: [UnusualForecast] = []
    var firstUnusualForecast: Int = 0
    var unusualWrites: [UnusualWrite] = []
    var checkAnswers: [Bool] = []
    var writesTaken: Int = 0
    var checksTaken: Int = 0
    var replayBefore: Int = 0
    var catchingUp: Bool = false
    var unusualReplayed: Int = 0
    var ranTo: Int64 = Int64.min
    var waiting: Bool = false
    var finished: Bool = false
}

/// The records of every world of a partition, for one arm, side by side in one slab: the
/// stepper's first pass reads them in the worlds' order, one after the other in memory, and
/// making them is one allocation, not two per world. One thread steps a partition and nothing
/// holds two accesses at once, so each is read and written in place with no run-time
/// exclusivity check.
struct SpeculationRecords {
    fileprivate let slab: Slab<SpeculationRecord>

    init(worlds: Int) { slab = Slab(count: worlds) { _ in SpeculationRecord() } }

    /// World i's record.
    @inline(__always) subscript(i: Int) -> BinarySpeculation { BinarySpeculation(slab: slab, world: i) }
}

/// World `world`'s record among its partition's ``SpeculationRecords``: what the stepper and
/// the deciders read and write of it. It holds the slab itself, so that each access is one
/// reference away from the record.
struct BinarySpeculation {
    fileprivate let slab: Slab<SpeculationRecord>
    let world: Int

    /// Each run again from the arm's start makes the world's earlier sweep entries stale.
    var generation: Int32 {
        @inline(__always) _read { yield slab[world].generation }
        @inline(__always) nonmutating _modify { yield &slab[world].generation }
    }
    /// Forecast writes with an unusual outcome, in the world's order, not yet checked;
    /// `firstUnusualForecast` is the first still waiting.
    var unusualForecasts: [UnusualForecast] {
        @inline(__always) _read { yield slab[world].unusualForecasts }
        @inline(__always) nonmutating _modify { yield &slab[world].unusualForecasts }
    }
    var firstUnusualForecast: Int {
        @inline(__always) _read { yield slab[world].firstUnusualForecast }
        @inline(__always) nonmutating _modify { yield &slab[world].firstUnusualForecast }
    }
    /// Decisions made for the world this arm, for a replay: unusual writes by sequence, and
    /// every buffer check's answer in order.
    var unusualWrites: [UnusualWrite] {
        @inline(__always) _read { yield slab[world].unusualWrites }
        @inline(__always) nonmutating _modify { yield &slab[world].unusualWrites }
    }
    var checkAnswers: [Bool] {
        @inline(__always) _read { yield slab[world].checkAnswers }
        @inline(__always) nonmutating _modify { yield &slab[world].checkAnswers }
    }
    /// Writes and checks the world has taken this arm (in a replay, so far).
    var writesTaken: Int {
        @inline(__always) _read { yield slab[world].writesTaken }
        @inline(__always) nonmutating _modify { yield &slab[world].writesTaken }
    }
    var checksTaken: Int {
        @inline(__always) _read { yield slab[world].checksTaken }
        @inline(__always) nonmutating _modify { yield &slab[world].checksTaken }
    }
    /// After a wrong forecast: writes before this sequence are replayed, and the instant that
    /// holds it is decided by the connection.
    var replayBefore: Int {
        @inline(__always) _read { yield slab[world].replayBefore }
        @inline(__always) nonmutating _modify { yield &slab[world].replayBefore }
    }
    var catchingUp: Bool {
        @inline(__always) _read { yield slab[world].catchingUp }
        @inline(__always) nonmutating _modify { yield &slab[world].catchingUp }
    }
    var unusualReplayed: Int {
        @inline(__always) _read { yield slab[world].unusualReplayed }
        @inline(__always) nonmutating _modify { yield &slab[world].unusualReplayed }
    }
    /// The last instant the world has taken every step of; `Int64.max` once it has run out.
    var ranTo: Int64 {
        @inline(__always) _read { yield slab[world].ranTo }
        @inline(__always) nonmutating _modify { yield &slab[world].ranTo }
    }
    /// Whether it waits at `ranTo` for what only the connection decides (a sweep entry says when).
    var waiting: Bool {
        @inline(__always) _read { yield slab[world].waiting }
        @inline(__always) nonmutating _modify { yield &slab[world].waiting }
    }
    /// Whether the stepper has handed it to `finished`.
    var finished: Bool {
        @inline(__always) _read { yield slab[world].finished }
        @inline(__always) nonmutating _modify { yield &slab[world].finished }
    }

    /// Whether the world's next instant of writes and checks was decided before, in part or
    /// whole: it is replayed from the record, and what is new decided by the connection.
    var replaying: Bool { catchingUp || checksTaken < checkAnswers.count }

    /// Write `sequence`, decided: kept when a replay could not assume it (`plain`).
    func record(_ outcome: BinaryWriteOutcome, sequence: Int, plain: BinaryWriteOutcome) {
        if outcome != plain {
            unusualWrites.append(UnusualWrite(sequence: sequence, outcome: outcome))
        }
    }

    /// The next unusual forecast, checked: it leaves the waiting ones.
    func takeUnusualForecast() -> UnusualForecast {
        let forecast = unusualForecasts[firstUnusualForecast]
        firstUnusualForecast += 1
        if firstUnusualForecast == unusualForecasts.count { unusualForecasts.removeAll(keepingCapacity: true); firstUnusualForecast = 0 }
        return forecast
    }

    /// A forecast was wrong: the world runs again from its arm's start, replaying every
    /// decision before write `sequence`, which the connection decides.
    func startReplay(before sequence: Int) {
        generation &+= 1
        unusualForecasts.removeAll(keepingCapacity: true)
        firstUnusualForecast = 0
        writesTaken = 0
        checksTaken = 0
        unusualReplayed = 0
        replayBefore = sequence
        catchingUp = true
        ranTo = Int64.min
        waiting = false
    }
}

/// A connection held by reference, written in place: the partition's while its worlds run
/// ahead, or a world's forecaster. Deciders hold the cell, so nothing copies the connection
/// per write.
final class ConnectionCell {
    /// The connection, in a slab of one: read and written in place at every write, with no
    /// run-time exclusivity check (one thread steps a partition).
    private let slot: Slab<BinaryConnection>

    init(_ connection: BinaryConnection) { slot = Slab(count: 1) { _ in connection } }

    var connection: BinaryConnection {
        @inline(__always) _read { yield slot[0] }
        @inline(__always) _modify { yield &slot[0] }
    }
}

/// Decides a world's writes on its forecast, and hands each one to the sweep to be checked.
struct ForecastDecider: BinaryDecider {
    let speculation: BinarySpeculation
    let forecaster: ConnectionCell
    let sweep: SpeculationSweep
    let world: Int32

    mutating func write(joiningAt join: Int64, malformed: Bool, errorDelay: () -> Int64) -> BinaryWriteOutcome {
        var drawn: Int64 = 0
        let forecast = forecaster.connection.write(joiningAt: join, malformed: malformed) {
            drawn = errorDelay()
            return drawn
        }
        let s = speculation
        let plain = forecast == forecaster.connection.plainOutcome(joiningAt: join)
        if !plain {
            s.unusualForecasts.append(UnusualForecast(sequence: s.writesTaken, malformed: malformed, errorDelay: drawn, forecast: forecast))
        }
        sweep.add(SweepEntry(time: join, world: world, sequence: Int32(truncatingIfNeeded: s.writesTaken),
                             generation: s.generation, kind: plain ? .plainForecast : .unusualForecast))
        s.writesTaken += 1
        return forecast
    }

    /// Never asked: an instant with a buffer check waits for the connection.
    mutating func isStillBuffered(_ write: BinaryWrite) -> Bool {
        InternalChecks.require(false, "a buffer check decided on a forecast")
        return false
    }
}

/// Decides a world's writes and checks: what was decided before a wrong forecast as it was,
/// the rest on the partition's connection, recorded for a later replay.
struct RecordedDecider: BinaryDecider {
    let partition: ConnectionCell
    let speculation: BinarySpeculation

    mutating func write(joiningAt join: Int64, malformed: Bool, errorDelay: () -> Int64) -> BinaryWriteOutcome {
        let s = speculation
        let sequence = s.writesTaken
        s.writesTaken += 1
        guard sequence >= s.replayBefore || !s.catchingUp else {
            guard s.unusualReplayed < s.unusualWrites.count, s.unusualWrites[s.unusualReplayed].sequence == sequence else {
                return partition.connection.plainOutcome(joiningAt: join)
            }
            let outcome = s.unusualWrites[s.unusualReplayed].outcome
            s.unusualReplayed += 1
            // The decision drew the error's round trip from the world's stream: so does the replay.
            if case .rejected = outcome { _ = errorDelay() }
            return outcome
        }
        let outcome = partition.connection.write(joiningAt: join, malformed: malformed, errorDelay: errorDelay)
        s.record(outcome, sequence: sequence, plain: partition.connection.plainOutcome(joiningAt: join))
        return outcome
    }

    mutating func isStillBuffered(_ write: BinaryWrite) -> Bool {
        let s = speculation
        if s.checksTaken < s.checkAnswers.count {
            s.checksTaken += 1
            return s.checkAnswers[s.checksTaken - 1]
        }
        let answer = partition.connection.isStillBuffered(write)
        s.checkAnswers.append(answer)
        s.checksTaken += 1
        return answer
    }
}

extension DeviceWorld {
    /// Whether the instant's outbox holds only first sends' writes: what a world may write on
    /// a forecast. A re-send, a rewrite or a buffer check waits for the connection. Mutating
    /// only so that the world is read in place: for a borrowing call on a world in its slab the
    /// compiler copies the whole world to the stack first.
    mutating func binaryOutboxHoldsOnlyFirstSends() -> Bool {
        for k in mechanisms.binaryLink.outbox.indices {
            guard case .write(let c) = mechanisms.binaryLink.outbox[k], !copies[c].isResend else { return false }
        }
        return true
    }

    /// Runs the arm again from its start, its counts so far dropped: a world whose forecast
    /// was wrong replays what was decided up to that write.
    mutating func restartArm(_ arm: Arm) {
        ledger = DeviceWorld.placeholderLedger
        begin(arm)
    }
}
