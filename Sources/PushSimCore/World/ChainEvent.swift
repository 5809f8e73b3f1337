// The events of the delivery chain: small values the world dispatches with a switch.

/// One thing that happens in the chain and waits in the event heap. The payload is a typed index
/// into the world's arrays (a push copy, an extension run or a re-request), so events stay
/// 8 bytes. The letters and the connectivity flips, which come one after another, wait beside
/// the heap instead (see ``Agenda``).
enum ChainEvent: Equatable, Sendable {
    /// A re-sent push copy reaches APNs from XIVA. (A first copy needs no arrival event: see
    /// `firstCopyTravels`.)
    case apnsArrival(CopyIndex)
    /// A push copy is due at the device (delivered if online, stored if not).
    case due(CopyIndex)
    /// An extension run finishes its own processing.
    case extensionProcessed(RunIndex)
    /// An extension run hits its deadline.
    case extensionDeadline(RunIndex)
    /// The system kills an extension run whose decoded attachment passed the memory limit.
    case extensionKilledForMemory(RunIndex)
    /// XIVA's answer to a re-request is back at the extension.
    case answer(RequestIndex)
    /// The user opens the app, which catches up with what it missed (`recovery: catch_up`).
    case appOpen
    /// A sleeping device wakes, and APNs hands over the priority-5 pushes it held (`device.sleep`).
    case deviceWakes
    /// A Low Power Mode window ends, and APNs hands over what it held (`device.low_power`).
    case lowPowerEnds
    /// The binary interface (docs/model.md §11): a push joins its partition's connection; APNs
    /// rejects a written one with an error packet; XIVA, hearing of an error, checks whether a
    /// notification the closed connection discarded is still in its resend buffer.
    case binaryJoin(CopyIndex)
    case binaryRejected(CopyIndex)
    case binaryCheck(CopyIndex)
}

/// The lanes of a per-device trace (`pushsim trace`), from the backend to the user.
package enum TraceLane: String, Sendable, CaseIterable {
    case backend, xiva, apns, device, user
}

/// One line of a per-device trace: when, in which lane, about which letter, and what happened.
package struct TraceEntry: Equatable, Sendable {
    package var time: Int64
    package var lane: TraceLane
    package var letter: Int?
    package var event: TraceEvent

    /// The words of the line (derived from the event).
    package var text: String { event.text }
}
