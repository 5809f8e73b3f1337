// What `device.low_power` counted (docs/model.md §10, Low Power Mode), declared once.

/// Pushes APNs held for a phone in Low Power Mode, those of them sent at priority 10 (which
/// would have woken a sleeping phone), and those handed over together when a window ended.
package struct LowPowerCounters: CounterSet {
    package var held = 0
    package var heldPriority10 = 0
    package var released = 0
    package init() {}

    /// Shown once a push was held.
    package static let group = CounterGroup("device.low_power", json: "low_power", place: .afterCauses,
                                            shown: { $0.lowPower.held > 0 }, isEmpty: { $0.lowPower == LowPowerCounters() }, [
        Counter("held_in_low_power", \.lowPower.held, json: "held", label: "pushes held in Low Power Mode"),
        Counter("held_in_low_power_priority_10", \.lowPower.heldPriority10, json: "held_priority_10",
                label: "  of them priority 10"),
        Counter("released_after_low_power", \.lowPower.released, json: "released", label: "  released when the window ended"),
    ])
}
