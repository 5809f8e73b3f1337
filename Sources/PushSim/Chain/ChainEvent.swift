// The events of the delivery chain: small values the world dispatches with a switch.

/// One thing that happens in the chain and waits in the event heap. The payload is an index
/// into the world's arrays (a push copy, an extension run or a re-request), so events stay
/// 8 bytes. The letters and the connectivity flips, which come one after another, wait beside
/// the heap instead (see ``NextInStream``).
public enum ChainEvent: Equatable, Sendable {
    /// A re-sent push copy reaches APNs from XIVA. (A first copy needs no arrival event: see
    /// `firstCopyTravels`.)
    case apnsArrival(Int32)
    /// A push copy is due at the device (delivered if online, stored if not).
    case due(Int32)
    /// An extension run finishes its own processing.
    case extensionProcessed(Int32)
    /// An extension run hits its deadline.
    case extensionDeadline(Int32)
    /// XIVA's answer to a re-request is back at the extension.
    case answer(Int32)
}

/// The next event of a stream that yields one event after another: the backend's letters, the
/// device's connectivity flips. A quarter of all events are letters, so keeping these beside
/// the heap (instead of pushing and popping each through it) saves heap work; each carries the
/// place in the scheduling order it would have had in the heap, so ties resolve exactly as if
/// it were there.
struct NextInStream {
    var time: Int64 = .max
    var sequence: UInt64 = .max
    /// The event's index in its stream; -1 when the stream has nothing more.
    var index: Int32 = -1

    static let exhausted = NextInStream()

    @inline(__always) func precedes(time t: Int64, sequence q: UInt64) -> Bool {
        index >= 0 && (time < t || (time == t && sequence < q))
    }
}

/// The lanes of a per-device trace (`pushsim trace`), from the backend to the user.
public enum TraceLane: String, Sendable, CaseIterable {
    case backend, xiva, apns, device, user
}

/// One line of a per-device trace.
public struct TraceEntry: Equatable, Sendable {
    public var time: Int64
    public var lane: TraceLane
    public var letter: Int?
    public var text: String
}
