// Parallel extension runs (extension.concurrency: parallel): each reads the saved position at its start and writes it later.

/// How the runs of one device's extension share the saved position (docs/model.md §8, Parallel runs).
package enum ExtensionConcurrency: String, Sendable, CaseIterable {
    /// Check and save as one step, in arrival order (the model before this key).
    case serial
    /// Read at the start, write `save_delay` later: two close pushes can both read the old position.
    case parallel
}

/// A run's write of the saved position, not yet made.
struct PendingSave {
    var at: Int64
    var saved: Int32
}

extension DeviceWorld {
    /// The gap check of a parallel run: the saves written by `now` are applied in write order
    /// (ties in scheduling order), the check reads the result, and its own save is written
    /// `save_delay` later. The check a serial run would have made is kept alongside, so the
    /// differences are counted. Out of line: serial runs never come here.
    @inline(never) mutating func checkForGapInParallel(position p: Int32, letter: Int, run: inout ExtensionRun, at now: Int64) {
        let due = ext.pendingSaves.prefix { $0.at <= now }.count
        for save in ext.pendingSaves.prefix(due) { ext.lastPosition = save.saved }
        ext.pendingSaves.removeFirst(due)
        let serialRead = ext.serialPosition
        let serial = gapCheck(saved: ext.serialPosition, position: p)
        ext.serialPosition = serial.saved
        let read = ext.lastPosition
        checkForGap(position: p, letter: letter, run: &run)
        let save = PendingSave(at: later(now, parameters.saveDelay?.sample(&armState.streams.mechanismStreams.saveDelays) ?? 0), saved: ext.lastPosition)
        ext.lastPosition = read
        if save.at <= now {
            ext.lastPosition = save.saved
        } else {
            // After every save due at the same instant or before: ties keep scheduling order.
            let index = ext.pendingSaves.firstIndex { $0.at > save.at } ?? ext.pendingSaves.count
            ext.pendingSaves.insert(save, at: index)
        }
        if read != serialRead { countStaleRead(read: read, serialRead: serialRead, serial: serial, run: run, letter: letter) }
    }

    /// A run read an older position than a serial run would have: what that changed against
    /// the serial check — a gap not re-requested, a re-request not needed, positions asked for again.
    private mutating func countStaleRead(read: Int32, serialRead: Int32, serial: GapCheck, run: ExtensionRun, letter: Int) {
        var serialLow: Int32 = 1, serialHigh: Int32 = 0, serialAction = ExtensionAction.show
        if case .gap(let low, let high, let action) = serial.outcome { (serialLow, serialHigh, serialAction) = (low, high, action) }
        let counts = counted(letter)
        ledger.parallelRuns.staleReads += counts
        note(.device, letter, .parallelRead(position: read, serialPosition: serialRead))
        if serialAction == .reRequest && run.action != .reRequest { ledger.parallelRuns.missedGaps += counts }
        if run.action == .reRequest {
            if serialAction != .reRequest { ledger.parallelRuns.needlessReRequests += counts }
            // The run's gap reaches below the serial one: those positions were already seen.
            let asked = Int(run.gapHigh) - Int(run.gapLow) + 1
            let needed = serialAction == .reRequest ? Int(serialHigh) - Int(serialLow) + 1 : 0
            ledger.parallelRuns.needlessPositions += max(0, asked - needed) * counts
        }
    }
}
