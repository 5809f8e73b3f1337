// The two arms of a run: the queue off and the queue on, and their names in JSON and on the command line.

/// One arm of a run, from the engine (`DeviceWorld.run(_:into:)`) through the experiment's
/// results (`ArmResult.arm`) to the report. Its raw value is its name everywhere a person or a
/// file sees it, and the one place that name is made: the JSON's `"queue"` field, `--queue
/// on|off`, trace titles. `allCases` is the contract's order (off, then on).
package enum Arm: String, Sendable, CaseIterable {
    case off, on
}
