// A partition's binary connection decided before its worlds run, for an arm whose writes are its letters' first sends alone; then each world runs its arm whole, the decisions handed to it in its own order.
//
// In an arm that re-requests nothing (the queue off, or a design without re-sends) and where
// no mechanism moves XIVA's sends (docs/model.md §11; each mechanism declares it,
// `permitsDecidingTheConnectionAhead`), every write on the connection is known from the scripts
// alone: a letter the script does not drop joins at its time plus its drawn XIVA latency, if
// that is before the device's last instant (after an uninstall XIVA writes on until it reads
// the feedback list, docs/model.md §11 rule 4). What the connection decides of a write depends
// only on the earlier writes of the partition and on the writer's own draws (`binaryErrors`, in
// the device's write order), and what it does with a discarded write (the buffer check, the
// rewrite) adds writes only at instants the connection itself sets. So the connection can take
// the partition's writes in the global (instant, device, write) order before any world runs,
// drawing from a copy of each device's stream as the world will, and record every decision
// that is not the plain one. Each world then runs its arm start to end alone, its memory hot in
// the caches, its writes decided from that record (`RecordedDecider`, as a replay after a wrong
// forecast is). The same decisions, draws and counts as stopping every world at every push; a
// test compares them world for world.

/// What deciding the connection ahead did in one arm: the writes and buffer checks decided, and
/// the worlds whose run took other writes or checks than were decided for them (none, unless
/// the scripts did not fix the arm's writes after all; with the internal checks compiled in,
/// such a world stops the run).
package struct DecidedAheadCounts: Equatable, Sendable {
    package var writes = 0
    package var checks = 0
    package var worldsThatDiffered = 0
}

/// One world's side of the connection decided ahead.
private struct WorldAhead {
    /// The world's scenario and parameters (its part's).
    let parameters: ChainParameters
    /// Its stream `binaryErrors` as its arm starts, drawn as the world will draw it.
    var errors: RandomStream
    /// Its last instant: the end of the run, or after an uninstall when XIVA reads the
    /// feedback list. Nothing of it joins, nor is checked, at or after it.
    let horizon: Int64
    /// The next letter of its script whose first send is not yet among the sweep's entries.
    var nextLetter = 0
    /// Its writes decided so far.
    var writes = 0
}

/// A discarded write's buffer check, at the instant XIVA hears of the error.
private struct PendingCheck {
    var at: Int64
    var world: Int32
    /// When the world scheduled the check: at the end of the instant its write was decided.
    var scheduledAt: Int64
    /// The order the checks were made in: a world's checks of one instant keep it.
    var order: Int
    var letter: Int32
    var payloadTooLarge: Bool
    var write: BinaryWrite

    /// Whether the check comes before `other` in the global order.
    func precedes(_ other: PendingCheck) -> Bool {
        if at != other.at { return at < other.at }
        if world != other.world { return world < other.world }
        return order < other.order
    }
}

/// The buffer checks waiting, the first in the global order on top: a few per error, so a
/// plain binary heap.
private struct PendingChecks {
    private var heap: [PendingCheck] = []

    var first: PendingCheck? { heap.first }

    mutating func insert(_ check: PendingCheck) {
        heap.append(check)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    mutating func removeFirst() {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            let right = left + 1
            let child = right < heap.count && heap[right].precedes(heap[left]) ? right : left
            guard heap[child].precedes(heap[parent]) else { return }
            heap.swapAt(child, parent)
            parent = child
        }
    }
}

extension DeviceWorld {
    /// Whether every write of this arm (begun) on the connection is a first send that its
    /// script fixes: no re-request, no mechanism that moves XIVA's sends, and the whole script
    /// drawn. Mutating only so that the world is read in place.
    mutating func armWritesFollowTheScript() -> Bool {
        parameters.binary && parameters.firstSendsFollowTheScript && !armState.checksGaps && !draws.letters.isDrawing
    }

    /// The stream its writes draw from, as its arm starts.
    mutating func binaryErrorsStream() -> RandomStream {
        armState.streams.mechanismStreams.binaryErrors
    }

    /// The first sends of its letters from `next` on whose time is before `end`, as sweep
    /// entries of world `world` in letter order (each names its letter, and whether its payload
    /// is over the limit); `next` moves past them. A send that would join at or after the end
    /// of the world's run (after an uninstall, the feedback list read) never joins.
    mutating func addFirstSends(from next: inout Int, before end: Int64, world: Int32, to sweep: SpeculationSweep) {
        while next < draws.letters.count {
            let letter = draws.letters[next]
            guard letter.time < end else { return }
            let join = later(letter.time, letter.xivaLatency)
            if !letter.dropped && join < clock.horizon {
                sweep.add(SweepEntry(time: join, world: world, sequence: Int32(truncatingIfNeeded: next),
                                     generation: letter.payloadTooLarge ? 1 : 0, kind: .plainForecast))
            }
            next += 1
        }
    }

    /// When letter i reached XIVA, which is when its first send was scheduled.
    mutating func letterTime(_ i: Int) -> Int64 { draws.letters[i].time }
}

extension CoupledWorlds {
    /// Whether every world's arm (begun) writes only what its script fixes, so that the
    /// connection can be decided ahead (``stepDecidedAhead(connection:window:finished:)``).
    package func armWritesFollowTheScripts() -> Bool {
        (0..<count).allSatisfy { worlds[$0].armWritesFollowTheScript() }
    }

    /// Runs one arm of every world (already begun, and writing only what its script fixes) to
    /// its end around the binary connection `server`: the connection decides the partition's
    /// writes first, window of time after window, in the global order; then each world runs
    /// whole, given those decisions. `finished(i)` as ``step(server:finished:)`` calls it.
    @discardableResult
    package func stepDecidedAhead(connection server: inout BinaryConnectionServer, window: Int64 = CoupledWorlds.speculationWindow,
                                  finished: (Int) -> Void) -> DecidedAheadCounts {
        var counts = DecidedAheadCounts()
        let records = SpeculationRecords(worlds: count)
        let partition = ConnectionCell(server.connection)
        defer { server.connection = partition.connection }
        let planned = decideAhead(records, partition, window: window)
        for i in 0..<count {
            // What the next worlds touch first, fetched while this one runs, as the other steppers do.
            if i + 3 < count { HotMemory.fetchWorld(i + 3, of: worlds) }
            if i + 2 < count { HotMemory.fetchObjects(of: &worlds[i + 2]) }
            if i + 1 < count { HotMemory.fetchElements(of: &worlds[i + 1]) }
            let s = records[i]
            let checks = s.checkAnswers.count
            // Every write and check of the arm is replayed from the record.
            s.catchingUp = true
            s.replayBefore = Int.max
            var decider = RecordedDecider(partition: partition, speculation: s)
            while let now = worlds[i].runUntilItSends() { worlds[i].settleBinaryOutbox(at: now, with: &decider) }
            let asDecided = s.writesTaken == planned[i] && s.unusualReplayed == s.unusualWrites.count
                && s.checksTaken == checks && s.checkAnswers.count == checks
            InternalChecks.require(asDecided, "world \(i) wrote \(s.writesTaken) times (\(planned[i]) decided ahead), checked \(s.checksTaken) (\(checks))")
            counts.writes += planned[i]
            counts.checks += checks
            if !asDecided { counts.worldsThatDiffered += 1 }
            finished(i)
        }
        return counts
    }

    /// The connection's decisions for every write of the arm, recorded in `records` as a
    /// replay reads them; returns each world's number of writes.
    private func decideAhead(_ records: SpeculationRecords, _ partition: ConnectionCell, window: Int64) -> [Int] {
        var ahead: [WorldAhead] = []
        ahead.reserveCapacity(count)
        for i in 0..<count {
            ahead.append(WorldAhead(parameters: worlds[i].parameters, errors: worlds[i].binaryErrorsStream(), horizon: worlds[i].clock.horizon))
        }
        let horizon = ahead.map(\.horizon).max() ?? 0
        var checks = PendingChecks()
        var checksMade = 0

        /// World i writes letter k's notification at `now`: its draws, the connection's
        /// decision, recorded when not the plain one; a discard's check waits for its instant.
        func write(_ i: Int, letter k: Int32, payloadTooLarge: Bool, at now: Int64) {
            let parameters = ahead[i].parameters
            let bad = BinaryDraws.writeIsBad(&ahead[i].errors, parameters, payloadTooLarge: payloadTooLarge)
            let outcome = partition.connection.write(joiningAt: now, malformed: bad) {
                BinaryDraws.errorDelay(&ahead[i].errors, parameters)
            }
            records[i].record(outcome, sequence: ahead[i].writes, plain: partition.connection.plainOutcome(joiningAt: now))
            ahead[i].writes += 1
            // A check at or after the end of the world's run is never made.
            guard case .discarded(_, let checkAt, let discarded) = outcome, checkAt < ahead[i].horizon else { return }
            checks.insert(PendingCheck(at: checkAt, world: Int32(i), scheduledAt: now, order: checksMade, letter: k,
                                       payloadTooLarge: payloadTooLarge, write: discarded))
            checksMade += 1
        }

        /// The buffer check comes: still buffered, the notification is written again at once.
        func takeCheck() {
            guard let check = checks.first else { return }
            checks.removeFirst()
            let i = Int(check.world)
            let buffered = partition.connection.isStillBuffered(check.write)
            records[i].checkAnswers.append(buffered)
            if buffered { write(i, letter: check.letter, payloadTooLarge: check.payloadTooLarge, at: check.at) }
        }

        /// Whether the first waiting check comes before first send `entry`: by instant, then
        /// world; within a world's instant, in the order the two were scheduled (the send when
        /// its letter reached XIVA, the check at the end of the instant its write was decided).
        func checkComesFirst(before entry: SweepEntry) -> Bool {
            guard let check = checks.first else { return false }
            if check.at != entry.time { return check.at < entry.time }
            if check.world != entry.world { return check.world < entry.world }
            return check.scheduledAt < worlds[Int(entry.world)].letterTime(Int(entry.sequence))
        }

        let sweep = SpeculationSweep()
        var windowStart: Int64 = 0
        while windowStart < horizon {
            let windowEnd = SimTime.saturatingSum(windowStart, max(1, window))
            sweep.startWindow(start: windowStart, end: windowEnd)
            for i in 0..<count {
                worlds[i].addFirstSends(from: &ahead[i].nextLetter, before: windowEnd, world: Int32(i), to: sweep)
            }
            sweep.startSweep()
            while let entry = sweep.next() {
                while checkComesFirst(before: entry) { takeCheck() }
                write(Int(entry.world), letter: entry.sequence, payloadTooLarge: entry.generation != 0, at: entry.time)
            }
            while let check = checks.first, check.at < windowEnd { takeCheck() }
            windowStart = windowEnd
        }
        return ahead.map(\.writes)
    }
}
