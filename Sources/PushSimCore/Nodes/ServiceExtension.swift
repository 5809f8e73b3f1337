// The Notification Service Extension: the gap algorithm, its processing time and its deadline.

/// What an extension run decided at the gap check.
enum ExtensionAction: UInt8 {
    case show, summary, reRequest
    /// A version-2 client asked to wait: it decides again when woken (StatefulClientRuns.swift).
    case waiting
}

/// One run of the extension for one arriving push. The 64-bit field first, the 32-bit ones,
/// then the bytes, so that no field is padded (a settling world holds room for a few runs,
/// and every phone of a shared partition is a settling world).
struct ExtensionRun {
    var arrival: Int64
    var copy: CopyIndex
    /// The gap's positions, inclusive; empty when gapLow > gapHigh.
    var gapLow: Int32
    var gapHigh: Int32
    var action: ExtensionAction
    /// Whether its own processing finished (so a summary or re-request was made).
    var processed: Bool
}

/// A re-request sent by an extension run, waiting for XIVA's answer.
struct ReRequest {
    var run: RunIndex
    var failed: Bool
    /// False when the deadline comes before the answer: the extension is gone by then.
    var extensionWaiting: Bool
}

/// What the extension keeps in one arm (docs/model.md §4): the saved position, the highest
/// position it has seen (for telemetry), its runs and their re-requests, and with parallel
/// runs the saves not yet written and the position serial runs would hold. An arm starts
/// with one assignment, `ExtensionState(reusing:_:)`, which keeps the arrays' memory.
struct ExtensionState: ~Copyable {
    /// 0: no saved position yet.
    var lastPosition: Int32 = 0
    var highestPositionSeen: Int32 = 0
    /// Parallel runs: saves not yet written, in write order.
    var pendingSaves: [PendingSave] = []
    /// Parallel runs: the position serial runs would hold.
    var serialPosition: Int32 = 0
    var runs = OwnedArray<ExtensionRun>()
    var requests = OwnedArray<ReRequest>()

    init() {}

    /// A fresh arm's extension, keeping the arrays' memory.
    mutating func reset() {
        lastPosition = 0
        highestPositionSeen = 0
        pendingSaves.removeAll()
        serialPosition = 0
        runs.removeAll()
        requests.removeAll()
    }
}

extension DeviceWorld {
    /// A push reaches the extension (timing rules 5 and 6). With the queue on, the gap check
    /// and the saved position's update happen now, in arrival order; the decision takes
    /// effect after `processing`, unless the deadline comes first.
    @inline(__always) mutating func extensionStarts(copy c: CopyIndex, at now: Int64) {
        if _slowPath(parameters.hasMedia) { extensionStartsWithMedia(copy: c, at: now); return }
        extensionRunStarts(copy: c, at: now, media: false)
    }

    /// A run of a scenario with attachments, out of line: the run without them (`media` a
    /// constant false) then carries no download and no memory-limit test at all.
    @inline(never) mutating func extensionStartsWithMedia(copy c: CopyIndex, at now: Int64) {
        extensionRunStarts(copy: c, at: now, media: true)
    }

    /// The run itself; `media` says whether the letter's attachment is downloaded and decoded.
    @inline(__always) mutating func extensionRunStarts(copy c: CopyIndex, at now: Int64, media: Bool) {
        let copy = copies[c]
        let letter = copy.letter.offset
        if parameters.earlyKill > 0 && extensionKilledEarly(letter: letter, at: now) { return }
        var processing = copy.isResend ? parameters.processing.sample(&armState.streams.resends)
            : copy.isSecondCopy ? parameters.processing.sample(&armState.streams.mechanismStreams.duplicates)
            : draws.letters[letter].processing
        // Set when the decoded attachment passes the memory limit (MemoryLimit.swift).
        var killedAfter: Int64 = -1
        if media { processing = withMediaDownload(processing, letter: letter, at: now, killedAfter: &killedAfter) }
        ledger.pushesSeenByExtensions += counted(letter)
        note(.device, letter, .extensionStarted(copy.isResend ? .resend : copy.isSecondCopy ? .second : .first,
             processing: SimTime(microseconds: processing),
             overDeadline: processing > parameters.deadline.microseconds ? parameters.deadline : nil), at: now)
        if clock.settleAtOnce {
            settleRunWithoutQueue(letter: letter, arrival: now, processing: processing)
            return
        }
        var run = ExtensionRun(arrival: now, copy: c, gapLow: 1, gapHigh: 0, action: .show, processed: false)
        if armState.checksGaps {
            if _slowPath(parameters.client == .stateful) {
                // A client of protocol version 2 decides on its own state (StatefulClientRuns.swift).
                statefulClientRunStarts(letter: letter, run: &run, at: now)
            } else {
                if mechanisms.idChange.next <= now { deviceIdChanged(position: letterStates[letter].position, letter: letter, at: now) }
                if _slowPath(parameters.reinstallRate > 0) && isForeignPush(position: letterStates[letter].position, letter: letter, at: now) {
                    // Numbered for an earlier install: its device-id hash does not match. The built-in
                    // clients show it as is; a user's client is asked (UserClientRuns.swift).
                    if parameters.client == .user { userClientChecksForeignPush(position: letterStates[letter].position, letter: letter, run: &run) }
                } else if parameters.saveDelay == nil {
                    checkForGap(position: letterStates[letter].position, letter: letter, run: &run)
                } else {
                    checkForGapInParallel(position: letterStates[letter].position, letter: letter, run: &run, at: now)
                }
            }
        }
        let r: RunIndex = ext.runs.nextIndex()
        ext.runs.append(run)
        if _slowPath(extensionLog != nil) { logRun(r, run, letter: letter, at: now) }
        if media && killedAfter >= 0 && killedAfter <= parameters.deadline.microseconds {
            // Decoded before the deadline: the system kills the run then.
            clock.queue.schedule(at: later(now, killedAfter), .extensionKilledForMemory(r))
        } else if processing > parameters.deadline.microseconds {
            clock.queue.schedule(at: deadline(ofRunStartedAt: now), .extensionDeadline(r))
        } else {
            clock.queue.schedule(at: later(now, processing), .extensionProcessed(r))
        }
    }

    /// With the queue off, an extension run only shows its push, at the end of its processing
    /// or at the deadline. Nothing can touch the letter in between — no other copy of it
    /// exists, and showing it draws nothing — so the run is settled now, recording what its
    /// end event would have recorded at that event's time, and needs no event (an eighth of
    /// all events). A run still under way when the simulation ends leaves its letter
    /// unfinished, as a pending event would.
    @inline(__always) mutating func settleRunWithoutQueue(letter: Int, arrival: Int64, processing: Int64) {
        let timedOut = processing > parameters.deadline.microseconds
        let shownAt = timedOut ? deadline(ofRunStartedAt: arrival)
                               : later(arrival, processing)
        guard shownAt < clock.end else {
            letterStates[letter].unfinished = true
            return
        }
        if timedOut {
            ledger.extensionTimeouts += counted(letter)
            // The words the deadline event gives, so a trace reads the same with shortcuts off.
            note(.device, letter, .deadlineHit(waitingForAnswer: false), at: shownAt)
        }
        present(letter: letter, at: shownAt)
    }

    /// The client's gap algorithm (``GapCheck``) applied to this arm: the saved position,
    /// the run's gap and action, and the telemetry's counts.
    mutating func checkForGap(position p: Int32, letter: Int, run: inout ExtensionRun) {
        ext.highestPositionSeen = max(ext.highestPositionSeen, p)
        apply(gapCheck(saved: ext.lastPosition, position: p), position: p, letter: letter, run: &run)
    }

    /// The scenario's client's check of a push numbered for this install (``GapCheck``).
    /// `mutating` although it writes nothing: every caller holds the world `inout`, and with
    /// a borrowing call here (and in `userGapCheck`) the compiler copies the whole world to
    /// the stack at every push.
    @inline(__always) mutating func gapCheck(saved: Int32, position p: Int32) -> GapCheck {
        if _slowPath(parameters.client == .user) { return userGapCheck(saved: saved, position: p) }
        return GapCheck.check(saved: saved, position: p, intendedClient: parameters.client == .intended,
                              repeatMaxCount: parameters.repeatMaxCount)
    }

    /// A check's result applied to this arm: the saved position, the run's gap and action, and the counts.
    @inline(__always) mutating func apply(_ check: GapCheck, position p: Int32, letter: Int, run: inout ExtensionRun) {
        ext.lastPosition = check.saved
        switch check.outcome {
        case .noGap:
            return
        case .firstPosition:
            note(.device, nil, .savedFirstPosition(p))
            if _slowPath(mechanisms.reinstalls.installs > 0) { newInstallSavedFirst(position: p, letter: letter) }
        case .gap(let low, let high, let action):
            let missed = Int(high) - Int(low) + 1
            run.gapLow = low
            run.gapHigh = high
            run.action = action
            ledger.gapsDetected += counted(letter)
            ledger.missedInGaps += missed * counted(letter)
            note(.device, nil, .foundGap(low: low, high: high, summary: action == .summary))
        }
    }

    /// The extension's own processing is done: show, summarize, or send the re-request.
    mutating func extensionProcessed(run r: RunIndex, at now: Int64) {
        ext.runs[r].processed = true
        extensionActs(run: r, at: now)
    }

    /// A processed run does what it decided: show, summarize, or send the re-request (a run
    /// still waiting does it when its client decides, StatefulClientRuns.swift).
    @inline(__always) mutating func extensionActs(run r: RunIndex, at now: Int64) {
        let run = ext.runs[r]
        switch run.action {
        case .waiting:
            return
        case .show:
            present(letter: copies[run.copy].letter.offset, at: now)
        case .summary:
            if _slowPath(extensionLog != nil) { logAnswer(r, .summarized) }
            showSummary(forRun: r, at: now)
        case .reRequest:
            if _slowPath(extensionLog != nil) { logAnswer(r, .pending) }
            if _slowPath(parameters.client == .stateful) && tracer != nil {
                for gap in mechanisms.client.moreGaps where gap.run == r { note(.device, nil, .reRequestAlsoAsksFor(low: gap.low, high: gap.high)) }
            }
            let counts = counted(copies[run.copy].letter.offset)
            ledger.reRequests += counts
            noteLoad(.reRequests, letter: copies[run.copy].letter.offset, at: now)
            let latency = parameters.requestLatency.sample(&armState.streams.requests)
            var failed = armState.streams.requests.chance(parameters.requestError)
            // Sent while XIVA is out: not queued, answered with an error (docs/model.md §6). The
            // draws above are made all the same, so the streams stay in step with a run without.
            if parameters.hasOutages, outageEnd(containing: now) != nil {
                failed = true
                ledger.xivaErrors += counts
                note(.device, nil, .reRequestSentDuringOutage)
            } else if _slowPath(parameters.sharedServer) {
                // It joins the partition's queue once this instant's other steps are done; its
                // answer is scheduled then (XivaSharedServer.swift, `xivaQueueAnswers`).
                let q: RequestIndex = ext.requests.nextIndex()
                ext.requests.append(ReRequest(run: r, failed: failed, extensionWaiting: false))
                mechanisms.join(XivaJoin(request: q, sentAt: now, latency: latency))
                note(.device, nil, .reRequestQueued(low: run.gapLow, high: run.gapHigh))
                return
            } else {
                ledger.xivaServed += counts
            }
            let q: RequestIndex = ext.requests.nextIndex()
            ext.requests.append(ReRequest(run: r, failed: failed, extensionWaiting: false))
            scheduleAnswer(request: q, at: later(now, latency)) { late in
                .reRequestSent(low: run.gapLow, high: run.gapHigh, answerIn: SimTime(microseconds: latency), lateDeadline: late)
            }
        }
    }

    /// Schedules XIVA's answer to re-request q at `answerAt` and, when the answer comes after
    /// the extension's deadline (timing rule 6, on the answer time as it stands), the deadline;
    /// `event(late)` is the trace line, `late` the deadline from arrival when the answer misses it.
    mutating func scheduleAnswer(request q: RequestIndex, at answerAt: Int64, _ event: (SimTime?) -> TraceEvent) {
        let r = ext.requests[q].run
        let arrival = ext.runs[r].arrival
        let deadlineAt = deadline(ofRunStartedAt: arrival)
        let waiting = answerAt <= deadlineAt
        ext.requests[q].extensionWaiting = waiting
        // With a finite capacity every re-request's answer passes here once: answered in time is
        // a success at or before the deadline (docs/model.md §6, "Answered in time").
        if _slowPath(parameters.sharedServer) {
            let counts = counted(copies[ext.runs[r].copy].letter.offset)
            if waiting && !ext.requests[q].failed { ledger.xivaCapacity.answeredInTime += counts } else { ledger.xivaCapacity.notInTime += counts }
        }
        note(.device, nil, event(waiting ? nil : SimTime(microseconds: deadlineAt - arrival)))
        clock.queue.schedule(at: answerAt, .answer(q))
        if !waiting { clock.queue.schedule(at: deadlineAt, .extensionDeadline(r)) }
    }

    /// The deadline (timing rule 6): the original content is shown now; a summary or
    /// re-request not yet made never will be.
    mutating func extensionDeadline(run r: RunIndex, at now: Int64) {
        let run = ext.runs[r]
        if _slowPath(extensionLog != nil) && run.processed && run.action == .reRequest { logAnswer(r, .timeout) }
        ledger.extensionTimeouts += counted(copies[run.copy].letter.offset)
        note(.device, copies[run.copy].letter.offset, .deadlineHit(waitingForAnswer: run.processed))
        present(letter: copies[run.copy].letter.offset, at: now)
        if !run.processed && run.action != .show {
            for slot in gapSlots(of: run) { letterStates[xiva.letterAtPosition[slot]].gapFate = .extensionTimeout }
            if _slowPath(parameters.client == .stateful) {
                for slots in moreGapSlots(ofRun: r) { for slot in slots { letterStates[xiva.letterAtPosition[slot]].gapFate = .extensionTimeout } }
            }
        }
        // A run still waiting for its client ends here: a wake after this finds nothing to do.
        if run.action == .waiting { ext.runs[r].action = .show }
    }

    /// The slots of XIVA's table (`xiva.letterAtPosition`) that hold the run's gap, in order:
    /// a loop reads each slot's letter when it comes to it, so it may mark letters, count them
    /// and schedule re-sent copies as it goes (but not number or settle letters, which moves
    /// the table).
    @inline(__always) func gapSlots(of run: ExtensionRun) -> Range<Int> {
        guard run.gapLow <= run.gapHigh else { return 0..<0 }
        let first = xiva.firstPosition
        return Int(run.gapLow - first)..<(Int(run.gapHigh - first) + 1)
    }
}
