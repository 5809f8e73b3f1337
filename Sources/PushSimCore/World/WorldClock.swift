// The clock and the agenda of one device's world: what happens next, and until when.

/// When things happen in one arm: the event list merged with the letters and the flips, the
/// clock, the run's end for this device, and the cursors over the connectivity timeline.
struct WorldClock: ~Copyable {
    /// When this device's run stops: the run's end, or its app's uninstall if earlier
    /// (docs/model.md §9, Unregistered); set by `prepare`.
    var end: Int64
    /// When this device's world stops taking steps: `end`, except over the binary interface
    /// after an uninstall, when XIVA goes on writing to the token until it reads the feedback
    /// list (docs/model.md §11, Feedback); steps in `[end, horizon)` are only XIVA's.
    var horizon: Int64
    /// The instant of the step being taken (the last arm leaves it at the end; traces read it).
    var currentTime: Int64 = 0
    /// The event heap (the agenda's: one reference, not two, in every world).
    var queue: EventQueue<ChainEvent> {
        @inline(__always) _read { yield agenda.queue }
        @inline(__always) _modify { yield &agenda.queue }
    }
    /// The heap merged with the letters (first stream) and the connectivity flips (second).
    var agenda: Agenda<ChainEvent>
    /// The two flip cursors in 32 bits each, as the agenda's own stream indices (a flip's index
    /// already fits one there), so that they fill the agenda's tail padding.
    private var storedFlipsPassed: Int32 = 0
    private var storedLookaheadFlipCursor: Int32 = 0
    /// Flips at or before the clock.
    var flipsPassed: Int {
        @inline(__always) get { Int(storedFlipsPassed) }
        @inline(__always) set { storedFlipsPassed = Int32(newValue) }
    }
    /// Where `timeline.isOnline(at:cursor:)` left off for instants ahead of the clock.
    var lookaheadFlipCursor: Int {
        @inline(__always) get { Int(storedLookaheadFlipCursor) }
        @inline(__always) set { storedLookaheadFlipCursor = Int32(newValue) }
    }
    /// Whether the off arm's shortcuts may settle steps ahead of the clock. A second copy can
    /// present a letter before the copy it duplicates, so with `apns.duplicate` set every
    /// step runs as an event, in time order.
    var settleAtOnce = false

    init(runEnd: Int64) {
        self.end = runEnd
        self.horizon = runEnd
        self.agenda = Agenda(queue: EventQueue<ChainEvent>())
    }

    /// Starts an arm's time again: an empty agenda at time 0, the cursors at the start.
    mutating func reset() {
        currentTime = 0
        agenda.removeAll()
        flipsPassed = 0
        lookaheadFlipCursor = 0
    }
}
