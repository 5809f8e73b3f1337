// Re-requests for letters already shown (false gaps): what a reordered arrival costs the queue (docs/model.md §2, False gaps).

/// XIVA's answered re-requests, split by whether every letter of their gap had already been
/// shown with its own push when the answer came: those re-requests were false gaps (the
/// letters were late or reordered, not lost), and everything they re-sent is a duplicate the
/// collapse id has to fold. A failed answer is in neither.
package struct FalseGapCounters: CounterSet {
    package var alreadyShown = 0
    package var notYetShown = 0
    package init() {}

    /// Shown once a re-request was a false gap; at the arm's top level, beside `re_requests`.
    package static let group = CounterGroup("false gaps: re-requests for letters already shown", json: nil, place: .queueBlock,
                                            arms: .queueArm, shown: { $0.falseGaps.alreadyShown > 0 },
                                            isEmpty: { $0.falseGaps == FalseGapCounters() }, [
        Counter("re_requests_already_shown", \.falseGaps.alreadyShown, json: "re_requests_already_shown",
                label: "  re-requests for letters already shown (false gaps)", perLetter: "re_requests_already_shown_per_letter"),
        Counter("re_requests_not_yet_shown", \.falseGaps.notYetShown, json: "re_requests_not_yet_shown",
                label: "  re-requests with a letter not shown yet"),
    ], shares: [
        CounterShare(json: "false_gap_share", label: "  false-gap share of the answered re-requests",
                     numerator: \.falseGaps.alreadyShown, complement: \.falseGaps.notYetShown),
    ])
}

extension DeviceWorld {
    /// Counts an answered re-request as a false gap when every letter of its gap (and, for a
    /// stateful client, of the further gaps it asked for) was already shown with its own push.
    @inline(__always) mutating func countFalseGap(request q: RequestIndex) {
        let r = ext.requests[q].run
        let run = ext.runs[r]
        var shown = true
        for slot in gapSlots(of: run) where !letterStates[xiva.letterAtPosition[slot]].delivered { shown = false; break }
        if shown && _slowPath(parameters.client == .stateful) {
            for slots in moreGapSlots(ofRun: r) { for slot in slots where !letterStates[xiva.letterAtPosition[slot]].delivered { shown = false } }
        }
        let counts = counted(copies[run.copy].letter.offset)
        if shown { ledger.falseGaps.alreadyShown += counts } else { ledger.falseGaps.notYetShown += counts }
    }
}
