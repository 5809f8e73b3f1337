// Who watches a world: the trace (`pushsim trace`, `find`) and the extension's log
// (`run --logs`). Neither changes what happens; both are nil in plain runs, so every hook
// that feeds them is one untaken branch.

/// The observers of one world, kept as one owner so the world's state stays its own.
package struct WorldObservers {
    /// Receives a line for everything that happens, when set; nil in runs.
    package var tracer: ((TraceEntry) -> Void)?
    /// Collects the extension's log rows of the queue arm, when set; nil otherwise.
    package var extensionLog: ExtensionLogRecorder?

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
