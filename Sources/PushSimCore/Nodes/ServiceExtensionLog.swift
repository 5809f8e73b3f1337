// What the published client logs for each push its extension sees (`run --logs`, docs/model.md §2).

extension DeviceWorld {
    /// Extension run `r` has made its gap check: its log row, in the queue arm for a counted
    /// letter (the telemetry's pushes seen: warm-up letters are not logged, the off arm runs no
    /// client that checks positions). A gap's answer starts as `not_sent` and is replaced by the
    /// step that decides it (``logAnswer(_:_:)``). Out of line: a run without a log pays only
    /// the caller's nil check.
    @inline(never) mutating func logRun(_ r: RunIndex, _ run: ExtensionRun, letter: Int, at now: Int64) {
        // The off arm makes no row and decides no answer: it leaves the recorder alone.
        guard let log = extensionLog, armState.checksGaps else { return }
        guard counted(letter) == 1 else {
            log.started(run: r.offset, nil)
            return
        }
        let gapSize = loggedGapSize(r, run)
        log.started(run: r.offset, LoggedPush(device: armState.device, time: now, position: Int(letterStates[letter].position),
                                              gapSize: gapSize, answer: gapSize > 0 ? .notSent : .none))
    }

    /// Run `r` waited (a version-2 client) and its client decided at its wake, `now`: its row
    /// says so, at the wake's time with the gap decided then (the row was made at the arrival
    /// with none).
    @inline(never) func logWake(_ r: RunIndex, _ run: ExtensionRun, at now: Int64) {
        let gapSize = loggedGapSize(r, run)
        extensionLog?.decided(run: r.offset, at: now, gapSize: gapSize, answer: gapSize > 0 ? .notSent : .none)
    }

    /// The positions of run `r`'s gap, with a version-2 client's further ranges.
    private func loggedGapSize(_ r: RunIndex, _ run: ExtensionRun) -> Int {
        var gapSize = run.gapLow <= run.gapHigh ? Int(run.gapHigh) - Int(run.gapLow) + 1 : 0
        if _slowPath(parameters.client == .stateful) { gapSize += morePositions(ofRun: r) }
        return gapSize
    }

    /// The answer of run `r`'s gap as the client saw it: a summary made, a re-request sent
    /// (`pending` until its answer or the deadline), answered, an error, a time-out.
    @inline(never) func logAnswer(_ r: RunIndex, _ answer: LogAnswer) {
        extensionLog?.answer(run: r.offset, answer)
    }
}
