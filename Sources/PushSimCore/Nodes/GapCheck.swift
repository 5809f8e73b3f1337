// The client's gap algorithm as a pure function: saved position and arriving position in, decision out.

/// What the extension decides about the position of an arriving push (docs/model.md §1, the
/// Notification Service Extension), given the position it saved before. Pure, so the rule can
/// be tested apart from the world; `DeviceWorld.checkForGap` applies it.
struct GapCheck: Equatable {
    enum Outcome: Equatable {
        /// Nothing was saved yet: the position is saved, nothing else happens.
        case firstPosition
        /// No position is missing between the saved one and this one.
        case noGap
        /// Positions `low...high` are missing: summarize them or re-request them.
        case gap(low: Int32, high: Int32, action: ExtensionAction)
    }

    var outcome: Outcome
    /// The saved position after the check.
    var saved: Int32

    /// `saved` is 0 when no position was saved yet. The intended client advances its saved
    /// position on every numbered push; the literal snippet only when it finds a gap. A gap of
    /// more than `repeatMaxCount` positions is summarized, a smaller one re-requested.
    static func check(saved: Int32, position p: Int32, intendedClient: Bool, repeatMaxCount: Int) -> GapCheck {
        guard saved > 0 else { return GapCheck(outcome: .firstPosition, saved: p) }
        let missed = Int(p) - Int(saved) - 1
        guard missed > 0 else {
            return GapCheck(outcome: .noGap, saved: intendedClient ? max(saved, p) : saved)
        }
        return GapCheck(outcome: .gap(low: saved + 1, high: p - 1, action: missed > repeatMaxCount ? .summary : .reRequest),
                        saved: p)
    }
}
