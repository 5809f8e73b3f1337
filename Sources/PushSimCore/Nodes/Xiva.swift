// XIVA: drops letters of unknown subscriptions, numbers the rest per device, answers re-requests.

/// XIVA's numbering of one device's letters in one arm (timing rule 1). An arm starts with
/// one assignment, `XivaNumbering(reusing:)`, which keeps the table's memory.
struct XivaNumbering: ~Copyable {
    /// The position the next numbered letter gets; positions start at 1.
    var nextPosition: Int32 = 1
    /// The position of the table's first entry: 0, unless a world settling its letters in
    /// flight dropped the positions no re-request can ask for again (WorldSettlement.swift).
    /// Beside the other 32-bit position, so the two share one word.
    var firstPosition: Int32 = 0
    /// Position → letter: entry k is position `firstPosition + k` (position 0 unused).
    var letterAtPosition = OwnedArray<LetterIndex>()

    init() {
        letterAtPosition.reset(repeating: LetterIndex(Int32(0)), count: 1)
    }

    /// A fresh arm's numbering, keeping the table's memory.
    mutating func reset() {
        nextPosition = 1
        firstPosition = 0
        letterAtPosition.reset(repeating: LetterIndex(Int32(0)), count: 1)
    }
}

extension DeviceWorld {
    /// A letter reaches XIVA (timing rule 1): dropped, or numbered with the device's next
    /// position and sent towards APNs.
    @inline(__always) mutating func xivaReceives(letter: Int, at now: Int64) {
        var i = letter
        // A world settling in flight renumbers the letters it keeps (WorldSettlement.swift).
        if _slowPath(armState.settled != nil) { i = settleInFlight(reaching: i) }
        note(.backend, i, .letterCreated)
        if i + 1 < draws.letters.count {
            clock.agenda.followInFirstStream(time: draws.letters[i + 1].time, index: i + 1)
        } else if _slowPath(draws.letters.isDrawing) {
            followLetterDrawnOnDemand(after: i)
        }
        // A letter XIVA numbers is counted in the load series from its position when the arm
        // ends (`foldLoad`); one it drops is noted here.
        if draws.letters[i].dropped {
            note(.xiva, i, .droppedUnknownSubscription)
            noteLoad(.lettersIn, letter: i, at: now)
            return
        }
        if _slowPath(now >= mechanisms.reinstallsWatchFrom) && xivaDropsForOldToken(letter: i, at: now) {
            noteLoad(.lettersIn, letter: i, at: now)
            return
        }
        var sentAt = now
        // One test for the rare steps of a send: XIVA's outages, and a background push with the letter.
        if _slowPath(parameters.xivaSendsWithMore) {
            guard let send = sendTimeWithMore(letter: i, at: now) else {
                noteLoad(.lettersIn, letter: i, at: now)
                return
            }
            sentAt = send
        }
        letterStates[i].position = xiva.nextPosition
        xiva.letterAtPosition.append(LetterIndex(i))
        note(.xiva, i, .numbered(position: xiva.nextPosition))
        xiva.nextPosition += 1
        let copy: CopyIndex = copies.nextIndex()
        copies.append(PushCopy(letter: LetterIndex(i), isResend: false, expiry: 0))
        firstCopyTravels(copy: copy, letter: i, reachingAPNsAt: later(sentAt, draws.letters[i].xivaLatency))
    }

    /// When XIVA sends letter i, which reached it at `now` (nil: never), after the outages; a
    /// letter it sends takes its background push with it (`queue.background_pushes`), numbered
    /// with the position the letter is about to get and timed from the letter, as
    /// background-push sync's are. Out of line, so the fast path stays one test.
    @inline(never) mutating func sendTimeWithMore(letter i: Int, at now: Int64) -> Int64? {
        var sentAt = now
        if parameters.hasOutages {
            guard let send = sendTimeAfterOutages(letter: i, at: now) else { return nil }
            sentAt = send
        }
        if parameters.backgroundPushes { xivaSendsBackgroundPush(letter: i, position: xiva.nextPosition, at: now) }
        return sentAt
    }

    /// When XIVA sends letter i, which reached it at `now`, given the outages (docs/model.md §6):
    /// now, the end of the outage holding it (`delay`), or never (nil: dropped in `drop` mode,
    /// or held past the end of the run). Numbering at once keeps the positions the outage's end
    /// would give (held letters, in letter order, come before any letter after the outage);
    /// only the send and the retention move. Out of line, so that the fast path stays small.
    @inline(never) mutating func sendTimeAfterOutages(letter i: Int, at now: Int64) -> Int64? {
        guard let outageEnd = outageEnd(containing: now) else { return now }
        if parameters.outageDrops {
            letterStates[i].droppedInOutage = true
            note(.xiva, i, .droppedXivaOut)
            return nil
        }
        guard outageEnd < clock.end else {
            letterStates[i].unfinished = true
            note(.xiva, i, .heldPastTheEnd)
            return nil
        }
        note(.xiva, i, .held(until: SimTime(microseconds: outageEnd)))
        ledger.heldInOutage += counted(i)
        // Sent at the outage's end, not on arrival, as the fold of numbered letters assumes.
        noteLoad(.pushesSent, letter: i, at: outageEnd)
        noteLoad(.notSentOnArrival, letter: i, at: now)
        return outageEnd
    }

    /// Whether XIVA still holds the payload of letter i at time t (timing rule 7); a letter
    /// held in an outage is retained from the outage's end.
    @inline(__always) func xivaRetains(letter i: Int, at t: Int64) -> Bool {
        var numberedAt = draws.letters[i].time
        if parameters.hasOutages, let outageEnd = outageEnd(containing: numberedAt) { numberedAt = outageEnd }
        return t < later(numberedAt, parameters.retention.microseconds)
    }

    /// The end of the outage that holds instant t, or nil when XIVA is up at t.
    func outageEnd(containing t: Int64) -> Int64? {
        let outages = parameters.outages
        var low = 0, high = outages.count
        // The first outage that ends after t.
        while low < high {
            let mid = (low + high) / 2
            if outages[mid].upperBound <= t { low = mid + 1 } else { high = mid }
        }
        guard low < outages.count, outages[low].lowerBound <= t else { return nil }
        return outages[low].upperBound
    }

    /// XIVA's answer reaches the extension (timing rule 7). On success every retained position
    /// of the gap is re-sent, in position order, one latency draw for the whole answer.
    mutating func xivaAnswers(request q: RequestIndex, at now: Int64) {
        let request = ext.requests[q]
        let run = ext.runs[request.run]
        if _slowPath(extensionLog != nil) && request.extensionWaiting { logAnswer(request.run, request.failed ? .error : .answered) }
        if request.failed {
            note(.xiva, nil, .reRequestAnsweredWithError)
            if request.extensionWaiting {
                showSummary(forRun: request.run, at: now)
            } else {
                // The summary would have been made now, but the extension is gone.
                for slot in gapSlots(of: run) { letterStates[xiva.letterAtPosition[slot]].gapFate = .extensionTimeout }
                if _slowPath(parameters.client == .stateful) {
                    for slots in moreGapSlots(ofRun: request.run) { for slot in slots { letterStates[xiva.letterAtPosition[slot]].gapFate = .extensionTimeout } }
                }
            }
            return
        }
        note(.xiva, nil, .reRequestAnswered(low: run.gapLow, high: run.gapHigh))
        countFalseGap(request: q)
        let arrival = later(now, parameters.resendLatency.sample(&armState.streams.requests))
        for slot in gapSlots(of: run) { resend(slot: slot, arriving: arrival, at: now) }
        if _slowPath(parameters.client == .stateful) {
            for slots in moreGapSlots(ofRun: request.run) { for slot in slots { resend(slot: slot, arriving: arrival, at: now) } }
        }
        if request.extensionWaiting { present(letter: copies[run.copy].letter.offset, at: now) }
    }

    /// The letter in slot `slot` of XIVA's table is sent again, to arrive at APNs at `arrival`,
    /// if XIVA still retains it.
    @inline(__always) mutating func resend(slot: Int, arriving arrival: Int64, at now: Int64) {
        let letter = xiva.letterAtPosition[slot].offset
        if xivaRetains(letter: letter, at: now) {
            let copy: CopyIndex = copies.nextIndex()
            copies.append(PushCopy(letter: LetterIndex(letter), isResend: true, expiry: 0))
            clock.queue.schedule(at: arrival, parameters.binary ? .binaryJoin(copy) : .apnsArrival(copy))
            ledger.resent += counted(letter)
            noteLoad(.resentAndSent, letter: letter, at: now)
            note(.xiva, letter, .resent(position: letterStates[letter].position))
        } else {
            letterStates[letter].gapFate = .retentionExpired
            note(.xiva, letter, .noLongerRetained(position: letterStates[letter].position))
        }
    }
}
