// Who watches a world: the trace (`pushsim trace`, `find`) and the extension's log
// (`run --logs`). Neither changes what happens; both are nil in plain runs, so every hook
// that feeds them is one untaken branch.

/// The observers of one world, kept as one owner so the world's state stays its own. Both
/// live in one object made when the first is set, not inline: a world of a shared partition
/// never has either; a run tests one reference.
package struct WorldObservers {
    private final class Watchers {
        var tracer: ((TraceEntry) -> Void)?
        var extensionLog: ExtensionLogRecorder?
    }
    private var watchers: Watchers?

    /// Receives a line for everything that happens, when set; nil in runs.
    package var tracer: ((TraceEntry) -> Void)? {
        @inline(__always) get { watchers?.tracer }
        set { watching(toSet: newValue != nil)?.tracer = newValue }
    }
    /// Collects the extension's log rows of the queue arm, when set; nil otherwise.
    package var extensionLog: ExtensionLogRecorder? {
        @inline(__always) get { watchers?.extensionLog }
        set { watching(toSet: newValue != nil)?.extensionLog = newValue }
    }

    /// The watchers' object to set an observer in, made when the first observer is set
    /// (`toSet`); nil where none was set and nil is set, so a world given back at an arm's end
    /// allocates nothing. A copy of the observers shares it: each world is given its own
    /// observers, never a copy of another's.
    private mutating func watching(toSet: Bool) -> Watchers? {
        if let watchers { return watchers }
        guard toSet else { return nil }
        let made = Watchers()
        watchers = made
        return made
    }

    /// Whether an observer was ever set (the watchers' object made).
    package var isWatched: Bool { watchers != nil }

    package init() {}
}

extension DeviceWorld {
    /// Receives a line for everything that happens, when set (`pushsim trace`); nil in runs.
    package var tracer: ((TraceEntry) -> Void)? {
        @inline(__always) get { observers.tracer }
        set { observers.tracer = newValue }
    }

    /// Collects the extension's log rows of the queue arm, when set (`run --logs`); nil otherwise.
    package var extensionLog: ExtensionLogRecorder? {
        @inline(__always) get { observers.extensionLog }
        set { observers.extensionLog = newValue }
    }
}
