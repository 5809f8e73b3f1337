// The provider's side of APNs: what APNs answers XIVA (413, 429, 5xx, a lost answer), XIVA's retries, the uninstall.

/// The provider's state in one arm (docs/model.md §9, §10), out of line (``MechanismStates``);
/// whether first copies settle when sent is the inline `MechanismStates.firstCopiesSettle`.
struct ProviderState {
    /// Whether a wake is scheduled for the priority-5 copies held (`held` below).
    var wakeScheduled = false
    /// The token limit: the instants of the last accepted pushes, a ring whose slot `tokenOldest` holds the oldest.
    var tokenAccepts: [Int64] = []
    var tokenOldest = 0
    /// Priority-5 copies APNs holds while the device sleeps, in the order held.
    var held: [CopyIndex] = []

    init() {}

    /// A fresh arm's state, keeping the arrays' memory.
    mutating func reset(_ parameters: ChainParameters) {
        wakeScheduled = false
        tokenOldest = 0
        tokenAccepts.removeAll(keepingCapacity: true)
        if parameters.tokenLimit > 0 { tokenAccepts.append(contentsOf: repeatElement(Int64.min, count: parameters.tokenLimit)) }
        held.removeAll(keepingCapacity: true)
    }
}

extension DeviceWorld {
    /// APNs refuses a payload over this many bytes: with 413 PayloadTooLarge over HTTP/2
    /// (docs/model.md §9), with status 7 (invalid payload size) over the binary interface (§11).
    static func payloadLimit(_ interface: ApnsInterface) -> Int64 {
        interface == .binary ? 2048 : 4096
    }

    /// APNs answers a push that reached it at `arrival` (docs/model.md §9): whether it took it.
    /// Checked in this order: no answer at all (the request was lost on the way), an APNs outage
    /// (503 or no answer, `apns.outages`), XIVA's provider token (429 or 403 for the whole
    /// connection, `apns.token_refresh`), 413 (final:
    /// a resend fails the same way), 429 over the token limit, 5xx; an accepted push may have
    /// its answer lost. A refusal or a missing answer is retried while XIVA has attempts left;
    /// after the last one the copy is lost with the refusal's cause. Out of line: with none of
    /// the keys set the hot path only tests `parameters.providerAnswers`.
    @inline(never) mutating func apnsAnswers(copy c: CopyIndex, at arrival: Int64, lost: Bool) -> Bool {
        let copy = copies[c]
        // APNs' own second copies are no provider request: nothing answers them.
        if copy.isSecondCopy { return !lost }
        let letter = copy.letter.offset
        if lost {
            retryOrGiveUp(copy: c, at: arrival, .networkLoss, .refused(answer: "no answer: the push was lost on the way"))
            return false
        }
        // An APNs that is out checks nothing else.
        if parameters.hasAPNsOutages && apnsOutageRefuses(copy: c, at: arrival) { return false }
        // Nor does a connection whose provider token fails.
        if parameters.hasTokenFailures && tokenRefuses(copy: c, at: arrival) { return false }
        if draws.letters[letter].payloadTooLarge {
            note(.apns, letter, .refused(answer: "413 PayloadTooLarge"), at: arrival)
            copyLost(c, .payloadTooLarge, at: arrival)
            return false
        }
        if parameters.tokenLimit > 0 && !tokenTakes(at: arrival) {
            ledger.provider.throttledAnswers += counted(letter)
            retryOrGiveUp(copy: c, at: arrival, .throttled, .refused(answer: "429 TooManyRequests"))
            return false
        }
        if parameters.serverError > 0 && armState.streams.mechanismStreams.answers.chance(parameters.serverError) {
            ledger.provider.serverErrors += counted(letter)
            retryOrGiveUp(copy: c, at: arrival, .serverError, .refused(answer: "500 InternalServerError"))
            return false
        }
        if parameters.answerLoss > 0 && armState.streams.mechanismStreams.answers.chance(parameters.answerLoss) {
            // Accepted, but XIVA never hears so: it sends the push again, a second copy on its way.
            ledger.provider.answersLost += counted(letter)
            note(.apns, letter, .answerLost, at: arrival)
            if Int(copy.attempt) + 1 < parameters.attempts { retry(copy: c, at: arrival) }
        }
        return true
    }

    /// XIVA sends the push again after a backoff if it has attempts left; otherwise the copy is
    /// lost with `cause`.
    mutating func retryOrGiveUp(copy c: CopyIndex, at now: Int64, _ cause: LossCause, _ answer: @autoclosure () -> TraceEvent) {
        let letter = copies[c].letter.offset
        note(.apns, letter, answer(), at: now)
        if Int(copies[c].attempt) + 1 < parameters.attempts {
            consoleStatus(of: c, lostWith: cause)  // this send ends here; the retry is a push of its own
            retry(copy: c, at: now)
        } else {
            copyLost(c, cause, at: now)
        }
    }

    /// A new send of the same push (first send or re-send alike) reaches APNs a backoff later.
    mutating func retry(copy c: CopyIndex, at now: Int64) {
        let copy = copies[c]
        let again = copies.nextIndex()
        copies.append(PushCopy(letter: copy.letter, isResend: copy.isResend, attempt: copy.attempt + 1, expiry: 0))
        ledger.provider.retries += counted(copy.letter.offset)
        noteLoad(.pushesSent, letter: copy.letter.offset, at: now)
        let arrival = later(now, parameters.backoff.sample(&armState.streams.mechanismStreams.retries))
        clock.queue.schedule(at: arrival, .apnsArrival(again))
        note(.xiva, copy.letter.offset, .sentAgain(attempt: Int(copy.attempt) + 2), at: now)
    }

    /// A retried push reaches APNs: exposed to network loss again, with its own latency draw.
    mutating func retriedCopyArrives(copy c: CopyIndex, at now: Int64) {
        let lost = armState.streams.mechanismStreams.retries.chance(parameters.apnsLoss)
        let latency = parameters.apnsLatency.sample(&armState.streams.mechanismStreams.retries)
        apnsAccepts(copy: c, at: now, lost: lost, latency: latency)
    }

    /// The token limit: whether APNs takes one more push to this device's token at `now`, i.e.
    /// fewer than `token_limit` were accepted in (now − token_window, now]; if so it is recorded.
    /// Arrivals come in time order (every arrival is an event when the limit is set).
    mutating func tokenTakes(at now: Int64) -> Bool {
        let oldest = mechanisms.provider.tokenOldest
        if mechanisms.provider.tokenAccepts[oldest] > now - parameters.tokenWindow { return false }
        mechanisms.provider.tokenAccepts[oldest] = now
        mechanisms.provider.tokenOldest = oldest + 1 == mechanisms.provider.tokenAccepts.count ? 0 : oldest + 1
        return true
    }

    /// When the app is uninstalled (a Poisson rate per device, from its own stream): from then on
    /// its token answers 410 Unregistered and XIVA stops sending to it, so the device's run ends.
    func uninstallTime() -> Int64 {
        var rng = RandomStream(seed: scenario.seed, device: armState.device, purpose: .uninstalls)
        return SimTime.rounding(rng.nextExponential() / parameters.uninstallRate).microseconds
    }
}
