// The provider's side of APNs: what APNs answers XIVA (413, 429, 5xx, a lost answer), XIVA's retries, the uninstall.

extension DeviceWorld {
    /// APNs refuses a payload over this many bytes with 413 PayloadTooLarge (docs/model.md §9).
    static let payloadLimit: Int64 = 4096

    /// APNs answers a push that reached it at `arrival` (docs/model.md §9): whether it took it.
    /// Checked in this order: no answer at all (the request was lost on the way), 413 (final:
    /// a resend fails the same way), 429 over the token limit, 5xx; an accepted push may have
    /// its answer lost. A refusal or a missing answer is retried while XIVA has attempts left;
    /// after the last one the copy is lost with the refusal's cause. Out of line: with none of
    /// the keys set the hot path only tests `parameters.providerAnswers`.
    @inline(never) mutating func apnsAnswers(copy c: Int32, at arrival: Int64, lost: Bool) -> Bool {
        let copy = copies[Int(c)]
        // APNs' own second copies are no provider request: nothing answers them.
        if copy.isSecondCopy { return !lost }
        let letter = Int(copy.letter)
        if lost {
            retryOrGiveUp(copy: c, at: arrival, .networkLoss, "no answer: the push was lost on the way")
            return false
        }
        if letters[letter].payloadTooLarge {
            note(.apns, letter, "413 PayloadTooLarge", at: arrival)
            copyLost(c, .payloadTooLarge, at: arrival)
            return false
        }
        if parameters.tokenLimit > 0 && !tokenTakes(at: arrival) {
            ledger.throttledAnswers += counted(letter)
            retryOrGiveUp(copy: c, at: arrival, .throttled, "429 TooManyRequests")
            return false
        }
        if parameters.serverError > 0 && streams.answers.chance(parameters.serverError) {
            ledger.serverErrors += counted(letter)
            retryOrGiveUp(copy: c, at: arrival, .serverError, "500 InternalServerError")
            return false
        }
        if parameters.answerLoss > 0 && streams.answers.chance(parameters.answerLoss) {
            // Accepted, but XIVA never hears so: it sends the push again, a second copy on its way.
            ledger.answersLost += counted(letter)
            note(.apns, letter, "accepted; the answer was lost", at: arrival)
            if Int(copy.attempt) + 1 < parameters.attempts { retry(copy: c, at: arrival) }
        }
        return true
    }

    /// XIVA sends the push again after a backoff if it has attempts left; otherwise the copy is
    /// lost with `cause`.
    mutating func retryOrGiveUp(copy c: Int32, at now: Int64, _ cause: LossCause, _ answer: @autoclosure () -> String) {
        let letter = Int(copies[Int(c)].letter)
        note(.apns, letter, answer(), at: now)
        if Int(copies[Int(c)].attempt) + 1 < parameters.attempts {
            retry(copy: c, at: now)
        } else {
            copyLost(c, cause, at: now)
        }
    }

    /// A new send of the same push (first send or re-send alike) reaches APNs a backoff later.
    mutating func retry(copy c: Int32, at now: Int64) {
        let copy = copies[Int(c)]
        let again = Int32(copies.count)
        copies.append(PushCopy(letter: copy.letter, isResend: copy.isResend, attempt: copy.attempt + 1, expiry: 0))
        ledger.retries += counted(Int(copy.letter))
        let arrival = later(now, parameters.backoff.sample(&streams.retries))
        queue.schedule(at: arrival, .apnsArrival(again))
        note(.xiva, Int(copy.letter), "sent again (attempt \(copy.attempt + 2))", at: now)
    }

    /// A retried push reaches APNs: exposed to network loss again, with its own latency draw.
    mutating func retriedCopyArrives(copy c: Int32, at now: Int64) {
        let lost = streams.retries.chance(parameters.apnsLoss)
        let latency = parameters.apnsLatency.sample(&streams.retries)
        apnsAccepts(copy: c, at: now, lost: lost, latency: latency)
    }

    /// The token limit: whether APNs takes one more push to this device's token at `now`, i.e.
    /// fewer than `token_limit` were accepted in (now − token_window, now]; if so it is recorded.
    /// Arrivals come in time order (every arrival is an event when the limit is set).
    mutating func tokenTakes(at now: Int64) -> Bool {
        if tokenAccepts[tokenOldest] > now - parameters.tokenWindow { return false }
        tokenAccepts[tokenOldest] = now
        tokenOldest = tokenOldest + 1 == tokenAccepts.count ? 0 : tokenOldest + 1
        return true
    }

    /// When the app is uninstalled (a Poisson rate per device, from its own stream): from then on
    /// its token answers 410 Unregistered and XIVA stops sending to it, so the device's run ends.
    func uninstallTime() -> Int64 {
        var rng = RandomStream(seed: scenario.seed, device: device, purpose: .uninstalls)
        return SimTime.rounding(rng.nextExponential() / parameters.uninstallRate).microseconds
    }
}
