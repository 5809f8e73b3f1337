// What Focus and the scheduled summary counted (docs/model.md §10, Focus and the scheduled summary), declared once.

/// Delivered letters the user saw later because the scheduled summary held them, because a
/// Focus window held them, and time-sensitive ones that broke through what would have held
/// them; and the latency from each delivered letter to the moment the user saw it (nil: the
/// run does not measure it, so documents without the mechanism keep their bytes).
package struct FocusSummaryCounters: CounterSet {
    package var heldInSummary = 0
    package var heldByFocus = 0
    package var brokeThrough = 0
    package var seenLatency: LatencyHistogram? = nil
    package init() {}

    /// Adds another ledger's seen latencies (disjoint devices: bucket by bucket, exact).
    package mutating func mergeSeenLatency(_ other: FocusSummaryCounters) {
        guard let theirs = other.seenLatency else { return }
        var mine = seenLatency ?? LatencyHistogram()
        seenLatency = nil
        mine.merge(theirs)
        seenLatency = mine
    }

    /// Shown once the run measured the latency seen by the user.
    package static let group = CounterGroup("device.focus", json: "focus_summary", place: .afterCauses,
                                            shown: { $0.focusSummary.seenLatency != nil },
                                            isEmpty: { $0.focusSummary == FocusSummaryCounters() }, [
        Counter("focus_held_in_summary", \.focusSummary.heldInSummary, json: "held_in_summary",
                label: "delivered letters seen in the scheduled summary", perLetter: "held_in_summary_per_letter"),
        Counter("focus_held_by_focus", \.focusSummary.heldByFocus, json: "held_by_focus",
                label: "  seen when a Focus ended", perLetter: "held_by_focus_per_letter"),
        Counter("focus_broke_through", \.focusSummary.brokeThrough, json: "broke_through",
                label: "  time-sensitive, broke through"),
    ])
}
