// XIVA: drops letters of unknown subscriptions, numbers the rest per device, answers re-requests.

extension DeviceWorld {
    /// A letter reaches XIVA (timing rule 1): dropped, or numbered with the device's next
    /// position and sent towards APNs.
    @inline(__always) mutating func xivaReceives(letter i: Int, at now: Int64) {
        note(.backend, i, "letter created")
        if i + 1 < letters.count {
            agenda.followInFirstStream(time: letters[i + 1].time, index: i + 1)
        }
        if letters[i].dropped {
            note(.xiva, i, "dropped: unknown subscription")
            return
        }
        var sentAt = now
        if _slowPath(parameters.hasOutages) {
            guard let send = sendTimeAfterOutages(letter: i, at: now) else { return }
            sentAt = send
        }
        letterStates[i].position = nextPosition
        letterAtPosition.append(Int32(i))
        note(.xiva, i, "numbered position \(nextPosition), sent")
        nextPosition += 1
        let copy = Int32(copies.count)
        copies.append(PushCopy(letter: Int32(i), isResend: false, expiry: 0))
        firstCopyTravels(copy: copy, letter: i, reachingAPNsAt: later(sentAt, letters[i].xivaLatency))
    }

    /// When XIVA sends letter i, which reached it at `now`, given the outages (docs/model.md §6):
    /// now, the end of the outage holding it (`delay`), or never (nil: dropped in `drop` mode,
    /// or held past the end of the run). Numbering at once keeps the positions the outage's end
    /// would give (held letters, in letter order, come before any letter after the outage);
    /// only the send and the retention move. Out of line: the fast path stays as it was.
    @inline(never) mutating func sendTimeAfterOutages(letter i: Int, at now: Int64) -> Int64? {
        guard let outageEnd = outageEnd(containing: now) else { return now }
        if parameters.outageDrops {
            letterStates[i].droppedInOutage = true
            note(.xiva, i, "dropped: XIVA is out")
            return nil
        }
        guard outageEnd < end else {
            letterStates[i].unfinished = true
            note(.xiva, i, "held: XIVA is out until after the end of the run")
            return nil
        }
        note(.xiva, i, "held: XIVA is out until \(SimTime(microseconds: outageEnd))")
        return outageEnd
    }

    /// Whether XIVA still holds the payload of letter i at time t (timing rule 7); a letter
    /// held in an outage is retained from the outage's end.
    @inline(__always) func xivaRetains(letter i: Int, at t: Int64) -> Bool {
        var numberedAt = letters[i].time
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
    mutating func xivaAnswers(request q: Int32, at now: Int64) {
        let request = requests[Int(q)]
        let run = runs[Int(request.run)]
        if request.failed {
            note(.xiva, nil, "re-request answered with an error")
            if request.extensionWaiting {
                showSummary(for: run, at: now)
            } else {
                // The summary would have been made now, but the extension is gone.
                for letter in gapLetters(of: run) { letterStates[letter].gapFate = .extensionTimeout }
            }
            return
        }
        note(.xiva, nil, "re-request answered: positions \(run.gapLow)...\(run.gapHigh)")
        let arrival = later(now, parameters.resendLatency.sample(&streams.requests))
        for letter in gapLetters(of: run) {
            if xivaRetains(letter: letter, at: now) {
                let copy = Int32(copies.count)
                copies.append(PushCopy(letter: Int32(letter), isResend: true, expiry: 0))
                queue.schedule(at: arrival, .apnsArrival(copy))
                ledger.resent += counted(letter)
                note(.xiva, letter, "re-sent position \(letterStates[letter].position)")
            } else {
                letterStates[letter].gapFate = .retentionExpired
                note(.xiva, letter, "position \(letterStates[letter].position) no longer retained")
            }
        }
        if request.extensionWaiting { present(letter: Int(copies[Int(run.copy)].letter), at: now) }
    }
}
