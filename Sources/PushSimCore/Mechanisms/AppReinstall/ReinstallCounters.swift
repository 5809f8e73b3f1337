// What `device.reinstall` counted (docs/model.md §8), declared once.

/// Reinstalls at or after the warm-up, letters XIVA dropped while it did not know the new token
/// yet, pushes of an earlier install shown as is (their device-id hash did not match), those
/// of them the gap check would have read as a gap, and positions no gap check could ever cover
/// (an install's unchecked tail and the next install's positions before its first saved one).
package struct ReinstallCounters: CounterSet {
    package var reinstalls = 0
    package var droppedLetters = 0
    package var foreignPushes = 0
    package var falseGaps = 0
    package var missedGapPositions = 0
    package init() {}

    /// The reports show `app_reinstalls` once a reinstall or a drop for one was counted.
    package var any: Bool { reinstalls > 0 || droppedLetters > 0 }

    package static let group = CounterGroup("device.reinstall", json: "app_reinstalls", place: .queueBlock,
                                            shown: { $0.appReinstalls.any }, isEmpty: { $0.appReinstalls == ReinstallCounters() }, [
        Counter("reinstalls", \.appReinstalls.reinstalls, json: "reinstalls", label: "  app reinstalls"),
        Counter("reinstall_drops", \.appReinstalls.droppedLetters, json: "dropped_letters",
                label: "  letters dropped before XIVA knew the new token", checked: true, perLetter: "reinstall_drops_per_letter"),
        Counter("foreign_pushes", \.appReinstalls.foreignPushes, json: "foreign_pushes",
                label: "  pushes of an earlier install shown as is", arms: .queueArm),
        Counter("false_gaps", \.appReinstalls.falseGaps, json: "false_gaps",
                label: "  false gaps the device-id hash avoided", arms: .queueArm, checked: true, perLetter: "false_gaps_per_letter"),
        Counter("missed_gap_positions", \.appReinstalls.missedGapPositions, json: "missed_gap_positions",
                label: "  positions in gaps missed across reinstalls", arms: .queueArm),
    ])
}
