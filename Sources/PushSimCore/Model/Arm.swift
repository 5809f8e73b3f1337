// The two arms of a run: the queue off and the queue on, and their names in JSON and on the command line.

/// One arm of a run. Its raw value is its name everywhere a person or a file sees it: the
/// JSON's `"queue"` field, `--queue on|off`, trace titles. The engine runs an `Arm`
/// (`DeviceWorld.run(_:into:)`); results still say `queueOn`, and `Arm(queueOn:)` and
/// `queueOn` convert, in one place.
package enum Arm: String, Sendable, CaseIterable {
    case off, on

    package init(queueOn: Bool) { self = queueOn ? .on : .off }

    package var queueOn: Bool { self == .on }
}
