// A world of a shared partition settles each letter whose fate is final, so that it keeps only what is still in flight.
//
// On the coupled path every world of a partition is alive at once (docs/model.md §6), and a
// world that kept every letter it reached would hold a week of per-letter arrays by the end
// of a week. A letter's record in the ledger is a sum over letters, so it can
// be added as soon as the letter's fate can no longer change, and its arrays dropped: the
// same counts, the same bytes, less memory (docs/performance.md, Letters settled in flight).

/// Where the worlds of one part of a partition add the letters they settle before their arm
/// ends: a ledger that holds only letter records, load counts and console categories, which the
/// run adds to the part's account once the arm is over. Every addition is a sum of integers,
/// so which world adds first changes nothing.
package final class SettledLetters {
    /// Written only by the worlds of one part, one at a time (one thread steps a partition):
    /// what they settle, and, since they count into it as their own (WorldLedgerCell.swift),
    /// everything else they count.
    let counts = LedgerCell(Ledger())
    package var ledger: Ledger { counts.ledger }
    package init() {}

    // Each addition works on the stored ledger in place: through the reference from a world's
    // method the compiler copied the whole `Ledger` out and back at every settlement.
    func record(letters: Range<Int>, _ fate: (Int) -> LetterFate) { counts.ledger.record(letters: letters, fate) }
    func addLoad(_ body: (inout LoadSeries) -> Void) { body(&counts.ledger.load) }
    func addLettersOnVisibleDevices(_ n: Int) { counts.ledger.lettersOnVisibleDevices += n }
    func addConsoleCategories(_ body: (inout APNsConsoleCounters) -> Void) { body(&counts.ledger.mechanismCounts.apns) }
}

extension DeviceWorld {
    /// Letters not yet settled that a world busy at its last settlement holds before it looks
    /// for settled ones at every letter: a settlement records, drops and moves what it keeps to
    /// the front of each array, so it is worth it every few letters, not every one. A world at
    /// rest settles when it reaches the last letter drawn so far (``settleInFlight(reaching:)``).
    package static let lettersBetweenSettlements = 4

    /// At the start of an arm: this arm settles its letters in flight into `settled` when
    /// given one and when nothing else needs every letter at the end: the queue arm of a
    /// partition with a finite capacity, with nothing switched on whose steps reach letters
    /// other than through the positions the gap check guards, its letters drawn on demand (a
    /// script an earlier arm drew whole is handed out again a few letters at a time: the same
    /// letters). Off everywhere else: the trace, the extension's log and `find` read every
    /// letter at the end.
    mutating func startSettlement(into settled: SettledLetters?) {
        armState.settled = nil
        armState.settledWarmupPositions = 0
        armState.mostHeld = 0
        // Given a part's ledger, the world counts into it whether or not it settles letters:
        // no world of a partition holds a ledger of its own.
        armState.countsIntoPart = settled != nil
        if let settled { ledgerCell = settled.counts }
        let settles = settled != nil && armState.checksGaps && maySettleInFlight
        // A script that an earlier arm settled, or gave back, lacks its first letters: drawn
        // again, on demand. One drawn whole and kept (CoupledRun keeps a partition's scripts up
        // to a budget, rather than drawing them again) is handed out a few letters at a time
        // instead, as if drawn on demand, so that the
        // world holds only the letters it reached, as its states.
        if draws.letters.lacksFirstLetters {
            draws.letters.drawOnDemand(scenario, parameters.letterLaws, device: armState.device)
        } else if settles && !draws.letters.isDrawing {
            draws.letters.replayOnDemand()
        }
        if settles { armState.settled = settled }
    }

    /// Before an arm stepped beside other worlds without a part's ledger to count into (the
    /// binary interface's arms): a cell of its own, since the cell it had between arms is other
    /// worlds' too (CoupledRun) and they run at the same time.
    package mutating func countOnItsOwn() {
        if !isKnownUniquelyReferenced(&ledgerCell) { ledgerCell = LedgerCell() }
    }

    /// After an arm that an arm settling in flight follows, once its accounts are read: the
    /// script given back too, since that arm draws its letters again as it reaches them. Kept
    /// between arms, every world of the partition held its whole run's letters when the next
    /// arm began.
    package mutating func releaseScriptBeforeSettling() {
        guard maySettleInFlight else { return }
        draws.letters.removeAll()
        releaseTimeline()
    }

    /// Whether this world's queue arm settles in flight when its driver gives it a ledger: its
    /// part allows it (``ChainParameters/settlesInFlight``: the queue design, a built-in client,
    /// no other mechanism, so no uninstall, catch-up or background sync), its letters can be
    /// drawn on demand, and nothing watching it reads every letter at the end.
    var maySettleInFlight: Bool {
        parameters.settlesInFlight && allowsLettersOnDemand && tracer == nil && extensionLog == nil
    }

    /// Letter i reaches XIVA in an arm that settles in flight: letters settled if the time has
    /// come; returns letter i's number after the settlement. The time comes at the last letter
    /// drawn so far, just before the next few are drawn: the world then holds only the letter
    /// it reaches and those (docs/performance.md, Room given back as letters are settled). A world that
    /// was busy then tries again at every letter once it holds ``lettersBetweenSettlements``
    /// and a draw's more.
    @inline(never) mutating func settleInFlight(reaching i: Int) -> Int {
        let lastDrawn = i + 1 == draws.letters.count
        guard (lastDrawn && i > 0) || i >= Self.lettersBetweenSettlements + LetterCursor.lettersPerDraw else { return i }
        return i - settleFinalLetters(before: i)
    }

    /// Letter i reaches XIVA: when the world is at rest (nothing scheduled, nothing stored at
    /// APNs, no re-request waiting to join the queue), every earlier letter whose position is
    /// at or below the saved one (or that XIVA never numbered) has its final fate. No later step
    /// can reach it: the gap check's ranges start above the saved position, which never goes
    /// down for the built-in clients; no copy of it is under way and none can be made. Those
    /// letters, from the first on, are recorded now and dropped with every finished copy, run
    /// and re-request, and the positions at or below the saved one. The letters kept are
    /// numbered again from 0: returns by how much their numbers went down (letter i is now
    /// letter i minus that). Renumbering, rather than a window over absolute numbers, leaves
    /// every other path's indexing untouched (no offset on the lonely path).
    @inline(never) mutating func settleFinalLetters(before i: Int) -> Int {
        noteLettersHeld()
        guard clock.queue.isEmpty && apnsStore.copy == nil && !mechanisms.isJoining,
              let settled = armState.settled else { return 0 }
        // On a device whose extension never runs (alerts off) no gap is ever checked: every
        // letter that reached XIVA has its fate. Elsewhere, nothing is settled before the
        // extension has saved a position: the telemetry's letters are then counted now, as the
        // end of the arm would (a position seen).
        let saved = noHandlerRuns ? xiva.nextPosition - 1 : ext.lastPosition
        guard saved > 0 else { return 0 }
        var end = 0
        while end < i && letterStates[end].position <= saved { end += 1 }
        guard end > 0 else { return 0 }
        let firstCounted = armState.firstCounted
        for k in 0..<min(end, firstCounted) where letterStates[k].position > 0 { armState.settledWarmupPositions += 1 }
        let counted = min(firstCounted, end)..<end
        if !noHandlerRuns { settled.addLettersOnVisibleDevices(counted.count) }
        countToldTwice(counted)
        settled.record(letters: counted) { settledFate(of: $0) }
        settled.addLoad { foldLoad(letters: counted, into: &$0) }
        settled.addConsoleCategories { countConsoleCategories(copies: 0..<copies.count, into: &$0) }
        // A timeline still drawn on demand drops what it passed; one kept whole from an
        // earlier arm is kept as it is (its room would stay all the same).
        if draws.timeline.onDemand != nil { dropPassedFlips() }
        // Nothing is under way: every copy, run and re-request is over, and no index to one is kept.
        copies.removeAll()
        ext.runs.removeAll()
        ext.requests.removeAll()
        letterStates.removeFirst(end)
        draws.letters.removeFirst(end)
        armState.firstCounted = max(0, firstCounted - end)
        // Positions at or below the saved one are never asked for again; the rest are of letters
        // after `end` (every letter before it is at or below), renumbered with them.
        let firstPositionBefore = xiva.firstPosition
        xiva.letterAtPosition.removeFirst(Int(saved + 1 - xiva.firstPosition))
        xiva.firstPosition = saved + 1
        for k in 0..<xiva.letterAtPosition.count {
            xiva.letterAtPosition[k] = LetterIndex(xiva.letterAtPosition[k].offset - end)
        }
        trimRoomIfDue(firstPositionBefore: firstPositionBefore)
        return end
    }

    /// ``chainFate(of:)`` for a settlement's closures. `mutating` although it writes nothing,
    /// as ``foldLoad(letters:into:)`` and ``countConsoleCategories(copies:into:)``: called from
    /// a closure of a `mutating` method, a borrowing method makes the compiler copy the whole
    /// world to the stack at every call.
    @inline(__always) mutating func settledFate(of i: Int) -> LetterFate { chainFate(of: i) }
}
