// The events of the delivery chain: small values the world dispatches with a switch.

/// One thing that happens in the chain. The payload is an index into the world's arrays
/// (a letter, a push copy, an extension run or a re-request), so events stay 8 bytes.
public enum ChainEvent: Equatable, Sendable {
    /// The backend hands letter i to XIVA.
    case letter(Int32)
    /// A push copy reaches APNs from XIVA.
    case apnsArrival(Int32)
    /// A push copy is due at the device (delivered if online, stored if not).
    case due(Int32)
    /// The device's connectivity flips (index into the timeline's flips).
    case connectivityFlip(Int32)
    /// An extension run finishes its own processing.
    case extensionProcessed(Int32)
    /// An extension run hits its deadline.
    case extensionDeadline(Int32)
    /// XIVA's answer to a re-request is back at the extension.
    case answer(Int32)
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
