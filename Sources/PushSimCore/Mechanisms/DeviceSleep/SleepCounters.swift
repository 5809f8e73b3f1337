// What `device.sleep` with priority-5 pushes counted (docs/model.md §10), declared once.

/// Priority-5 pushes held while their device slept, and those of them a priority-10 push released.
package struct SleepCounters: CounterSet {
    package var held = 0
    package var releasedByPriority10 = 0
    package init() {}

    /// Shown once a push was held.
    package static let group = CounterGroup("device.sleep", json: "sleep", place: .afterCauses,
                                            shown: { $0.sleep.held > 0 }, isEmpty: { $0.sleep == SleepCounters() }, [
        Counter("held_while_asleep", \.sleep.held, json: "held", label: "priority 5 held while asleep"),
        Counter("released_by_priority_10", \.sleep.releasedByPriority10, json: "released_by_priority_10",
                label: "  released by a priority-10 push"),
    ])
}
