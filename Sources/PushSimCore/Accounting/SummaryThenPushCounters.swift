// Letters a summary told the user of before their own push was shown: told of twice (docs/model.md §7, Harms and costs of every design).

/// Counted letters that a summary covered (the queue's "N missed", a catch-up's, an FCM
/// re-sync's) and whose own push was presented too: the user is told of them twice. The
/// catch-up and FCM summarize only letters not shown yet, so there the push came after the
/// summary. A background sync's notification followed by the push is counted by that design
/// itself (`background_sync.shown_twice`).
package struct SummaryThenPushCounters: CounterSet {
    package var letters = 0
    package init() {}

    /// Shown once a letter was told of twice this way; at the arm's top level, beside `summarized`.
    package static let group = CounterGroup("told twice: a summary, then the letter's own push", json: nil, place: .queueBlock,
                                            arms: .queueArm, shown: { $0.summaryThenPush.letters > 0 },
                                            isEmpty: { $0.summaryThenPush == SummaryThenPushCounters() }, [
        Counter("summarized_then_shown", \.summaryThenPush.letters, json: "summarized_then_shown",
                label: "  summarized, then shown by their own push", perLetter: "summarized_then_shown_per_letter"),
    ])
}

extension DeviceWorld {
    /// Counts the letters of `letters` a summary covered and their own push showed, as their
    /// fates are recorded (at the arm's end, or settled in flight). Only an arm that can show a
    /// summary looks: the off arm and a background sync (which counts its own) do nothing.
    @inline(__always) mutating func countToldTwice(_ letters: Range<Int>) {
        guard _slowPath(armState.checksGaps || mechanisms.catchUp.enabled || parameters.channel != .apns),
              !mechanisms.backgroundSync.enabled else { return }
        var told = 0
        for i in letters where letterStates[i].summarized && letterStates[i].delivered { told += 1 }
        ledger.summaryThenPush.letters += told
    }
}
