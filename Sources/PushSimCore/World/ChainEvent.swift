// The events of the delivery chain: small values the world dispatches with a switch, and the
// three switches over them (the step, what a pending one leaves under way, what a device past
// its uninstall still does), so a new event kind is one file: these switches have no
// catch-all, and the compiler asks for its case in each.

/// One thing that happens in the chain and waits in the event heap. The payload is a typed index
/// into the world's arrays (a push copy, an extension run or a re-request), so an event stays
/// one machine word. The letters and the connectivity flips, which come one after another, wait beside
/// the heap instead (see ``Agenda``).
enum ChainEvent: Equatable, Sendable {
    /// A re-sent push copy reaches APNs from XIVA. (A first copy needs no arrival event: see
    /// `firstCopyTravels`.)
    case apnsArrival(CopyIndex)
    /// A push copy is due at the device (delivered if online, stored if not).
    case due(CopyIndex)
    /// An extension run finishes its own processing.
    case extensionProcessed(RunIndex)
    /// An extension run hits its deadline.
    case extensionDeadline(RunIndex)
    /// The system kills an extension run whose decoded attachment passed the memory limit.
    case extensionKilledForMemory(RunIndex)
    /// XIVA's answer to a re-request is back at the extension.
    case answer(RequestIndex)
    /// A run whose client asked to wait is woken to decide again (StatefulClientRuns.swift).
    case extensionWakes(RunIndex)
    /// A step of an optional mechanism that carries no index (``MechanismStep``, declared with
    /// its dispatch in Mechanisms/MechanismRegistry.swift).
    case mechanism(MechanismStep)
    /// The binary interface (docs/model.md §11): a push joins its partition's connection; APNs
    /// rejects a written one with an error packet; XIVA, hearing of an error, checks whether a
    /// notification the closed connection discarded is still in its resend buffer.
    case binaryJoin(CopyIndex)
    case binaryRejected(CopyIndex)
    case binaryCheck(CopyIndex)
}

extension DeviceWorld {
    /// One step of the chain: the item's handler.
    @inline(__always) mutating func handle(_ item: AgendaItem<ChainEvent>, at now: Int64) {
        InternalChecks.require(now >= clock.currentTime, "a step at \(now) µs before the clock's \(clock.currentTime) µs")
        InternalChecks.require(clock.queue.satisfiesHeapInvariant, "the event heap is out of order at \(now) µs")
        clock.currentTime = now
        switch item {
        case .inFirstStream(let i): xivaReceives(letter: i, at: now)
        case .inSecondStream(let k): connectivityFlips(index: k, at: now)
        case .event(.apnsArrival(let c)): apnsReceives(copy: c, at: now)
        case .event(.due(let c)): apnsDelivers(copy: c, at: now)
        case .event(.extensionProcessed(let r)): extensionProcessed(run: r, at: now)
        case .event(.extensionDeadline(let r)): extensionDeadline(run: r, at: now)
        case .event(.extensionKilledForMemory(let r)): extensionKilledForMemory(run: r, at: now)
        case .event(.answer(let q)): xivaAnswers(request: q, at: now)
        case .event(.extensionWakes(let r)): statefulClientWakes(run: r, at: now)
        case .event(.mechanism(let step)): take(step, at: now)
        // Every event kind is named (no catch-all): a new kind that is not handled is a
        // compile error, not an event silently dropped.
        case .event(.binaryJoin(let c)): binaryStep(.join, copy: c, at: now)
        case .event(.binaryRejected(let c)): binaryStep(.rejected, copy: c, at: now)
        case .event(.binaryCheck(let c)): binaryStep(.check, copy: c, at: now)
        }
    }

    /// What `event`, still to happen, carries is under way: its letters are unfinished.
    mutating func markUnderWay(_ event: ChainEvent) {
        switch event {
        case .apnsArrival(let c), .due(let c), .binaryJoin(let c), .binaryRejected(let c), .binaryCheck(let c):
            if !copies[c].isSecondCopy { letterStates[copies[c].letter].unfinished = true }
        case .extensionProcessed(let r), .extensionKilledForMemory(let r), .extensionWakes(let r):
            markUnfinished(run: r, includingGap: true)
        case .extensionDeadline(let r):
            let run = ext.runs[r]
            // Without a processed event the summary or re-request was never made.
            markUnfinished(run: r, includingGap: !run.processed)
        case .answer(let q):
            let request = ext.requests[q]
            markUnfinished(run: request.run, includingGap: true, includingCurrent: request.extensionWaiting)
        case .mechanism:
            // A mechanism's own step carries no letter (MechanismStep).
            break
        }
    }

    /// A step after the app was uninstalled, before XIVA reads the token from the feedback list
    /// (docs/model.md §11, Feedback): XIVA goes on numbering and writing (the writes load the
    /// connection and can meet errors like any other); nothing reaches the app, so whatever
    /// was under way is undeliverable, as under HTTP/2 at the uninstall.
    @inline(never) mutating func handleAfterUninstall(_ item: AgendaItem<ChainEvent>, at now: Int64) {
        InternalChecks.require(now >= clock.currentTime, "a step at \(now) µs before the clock's \(clock.currentTime) µs")
        clock.currentTime = now
        switch item {
        case .inFirstStream(let i):
            xivaReceives(letter: i, at: now)
        case .inSecondStream:
            break
        case .event(let event):
            markUnderWay(event)
            switch event {
            case .binaryJoin(let c): binaryJoins(copy: c, at: now)
            case .binaryCheck(let c): binaryChecks(copy: c, at: now)
            // Past the uninstall nothing reaches the app, and a rejection's copy was already
            // written off as under way: every other kind ends here, each named so that a new
            // kind has to be decided on.
            case .apnsArrival, .due, .extensionProcessed, .extensionDeadline, .extensionKilledForMemory, .answer, .extensionWakes,
                 .mechanism, .binaryRejected:
                break
            }
        }
    }
}
