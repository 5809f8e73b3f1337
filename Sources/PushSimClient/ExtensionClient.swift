// The extension's decision as a protocol: what a mail client's Notification Service Extension does with a numbered push.

/// What the extension reads from an arriving push's payload: XIVA's position for this device
/// (1, 2, 3, … per subscription) and the device-id hash the push was numbered for.
public struct PushPayload: Equatable, Sendable {
    /// XIVA's position of this push; positions start at 1.
    public var position: Int32
    /// The hash of the device id (the install) XIVA numbered this push for.
    public var deviceIdHash: UInt32

    public init(position: Int32, deviceIdHash: UInt32) {
        self.position = position
        self.deviceIdHash = deviceIdHash
    }
}

/// What the extension keeps between runs (the app group's shared storage): the last saved
/// position, and the device-id hash of the install that runs the extension now.
public struct SavedState: Equatable, Sendable {
    /// The saved position; 0 when nothing is saved yet (a new install, or a changed device id).
    public var position: Int32
    /// The device-id hash of this install: a push whose payload carries another hash was
    /// numbered for an earlier install, and its position says nothing about this one's.
    public var deviceIdHash: UInt32

    public init(position: Int32, deviceIdHash: UInt32) {
        self.position = position
        self.deviceIdHash = deviceIdHash
    }
}

/// The scenario's limits the client reads: `queue.repeat_max_count` (a gap of more positions
/// is summarized, a smaller one re-requested).
public struct ClientLimits: Equatable, Sendable {
    public var repeatMaxCount: Int

    public init(repeatMaxCount: Int) {
        self.repeatMaxCount = repeatMaxCount
    }
}

/// What the extension does with the push.
public enum ClientDecision: Equatable, Sendable {
    /// Show the push as it is: no position is missing (or nothing can be said).
    case show
    /// Ask XIVA to send `positions` again (the push itself is shown once the answer is in).
    case reRequest(positions: ClosedRange<Int32>)
    /// Show one "N missed messages" summary for `positions` instead of asking for them.
    case summarize(positions: ClosedRange<Int32>)
}

/// The decision and the state to save after it.
public struct ClientStep: Equatable, Sendable {
    public var decision: ClientDecision
    public var saved: SavedState

    public init(_ decision: ClientDecision, saved: SavedState) {
        self.decision = decision
        self.saved = saved
    }
}

/// A mail client's gap logic, the one decision PushSim lets an app team supply: given the
/// push's payload, the saved state and the scenario's limits, show, re-request or summarize,
/// and what to save. PushSim does everything else (the chain, the timing, the deadline,
/// XIVA's answer) and asks this once per push that reaches the extension in the queue arm.
///
/// Rules the simulator holds a client to (docs/client.md):
/// - `decide` is a pure function of its arguments: it is called from several threads at once
///   (`--jobs`), and a run must give the same result every time.
/// - The positions of a re-request or a summary lie before the push's own position
///   (`1 ... position - 1`); the simulator keeps the part of a range inside that span, and a
///   range with nothing inside it is shown as is.
///
/// This is version 1 of the client protocol; version 2 (``ServiceExtensionClient``) sees the
/// clock and the deadline, keeps a state of the team's own type, waits and answers several
/// ranges. Both run as they are.
public protocol ExtensionClient: Sendable {
    func decide(_ push: PushPayload, saved: SavedState, limits: ClientLimits) -> ClientStep
}
