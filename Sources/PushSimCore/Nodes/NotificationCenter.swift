// Notification Center: what the user sees; collapse by apns-collapse-id, duplicates, clearing.

extension DeviceWorld {
    /// A push is shown with its own content (timing rule 9). The first presentation delivers
    /// the letter; a later one collapses into a notification still shown, or is a duplicate.
    mutating func present(letter i: Int, at now: Int64) {
        if !letterStates[i].delivered {
            letterStates[i].delivered = true
            letterStates[i].firstDelivery = now
            letterStates[i].shownUntil = clearTimeMatters ? clearTime(after: now) : Int64.max
            note(.user, i, .presented, at: now)
            noteCleared(letter: i)
        } else if clearTimeMatters && now < letterStates[i].shownUntil {
            // Only the queue arm has collapse ids: in the off arm (where only APNs' second
            // copies present a letter twice) every later presentation is a duplicate (docs/model.md §5, Second copies).
            note(.user, i, .collapsed, at: now)
        } else {
            ledger.duplicates += counted(i)
            letterStates[i].shownUntil = clearTimeMatters ? clearTime(after: now) : Int64.max
            note(.user, i, .presentedAgain, at: now)
            noteCleared(letter: i)
        }
    }

    /// A summary replaces the current push's content; it covers the current letter and the
    /// gap's letters, and is its own notification (rule 8).
    mutating func showSummary(forRun r: RunIndex, at now: Int64) {
        let run = ext.runs[r]
        let current = copies[run.copy].letter.offset
        ledger.summaries += counted(current)
        noteLoad(.summaries, letter: current, at: now)
        letterStates[current].summarized = true
        for slot in gapSlots(of: run) { letterStates[xiva.letterAtPosition[slot]].summarized = true }
        var letters = run.gapHigh - run.gapLow + 2
        if _slowPath(parameters.client == .stateful) {
            for slots in moreGapSlots(ofRun: r) {
                for slot in slots { letterStates[xiva.letterAtPosition[slot]].summarized = true }
                letters += Int32(slots.count)
            }
        }
        note(.user, current, .summaryShown(letters: letters))
    }

    /// Traces the moment the user will clear letter i's notification (if within the run).
    @inline(__always) func noteCleared(letter i: Int) {
        guard tracer != nil, letterStates[i].shownUntil < clock.end else { return }
        note(.user, i, .cleared, at: letterStates[i].shownUntil)
    }

    /// Whether a presentation's clear time can change anything: it only bounds the window in
    /// which a re-sent copy collapses into the notification shown, so it matters with the
    /// queue on and collapse ids in use. Elsewhere it is not drawn (the user's stream has no
    /// other use, so nothing else moves), which saves a fifth of the off arm's work.
    var clearTimeMatters: Bool { armState.checksGaps && parameters.collapseId }

    /// When the user will clear a notification presented now; drawn per presentation.
    @inline(__always) mutating func clearTime(after now: Int64) -> Int64 {
        guard let clearAfter = parameters.clearAfter else { return Int64.max }
        let t = later(now, clearAfter.sample(&armState.streams.user))
        note(.user, nil, .willClear(at: SimTime(microseconds: t)))
        return t
    }
}
