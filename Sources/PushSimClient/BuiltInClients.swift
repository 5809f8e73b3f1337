// PushSim's own two clients (`queue.client: intended | literal`, docs/model.md §1), as implementations of ExtensionClient.

/// The client as intended: the saved position moves forward on every numbered push.
/// `@inlinable`, so the simulator's hot path calls it specialised and inlined.
public struct IntendedClient: ExtensionClient {
    public init() {}

    @inlinable
    public func decide(_ push: PushPayload, saved: SavedState, limits: ClientLimits) -> ClientStep {
        BuiltInGapRule.decide(push, saved: saved, limits: limits, advancesWithoutGap: true)
    }
}

/// The published client snippet taken literally: the saved position moves only when a gap was found.
public struct LiteralClient: ExtensionClient {
    public init() {}

    @inlinable
    public func decide(_ push: PushPayload, saved: SavedState, limits: ClientLimits) -> ClientStep {
        BuiltInGapRule.decide(push, saved: saved, limits: limits, advancesWithoutGap: false)
    }
}

/// The rule both built-in clients share; they differ only in whether a push without a gap
/// moves the saved position.
public enum BuiltInGapRule {
    /// A push numbered for another install is shown and changes nothing. Nothing saved yet:
    /// the position is saved. Otherwise the positions between the saved one and this one are
    /// missing: more than `repeatMaxCount` of them are summarized, fewer re-requested.
    @inlinable @inline(__always)
    public static func decide(_ push: PushPayload, saved: SavedState, limits: ClientLimits,
                              advancesWithoutGap: Bool) -> ClientStep {
        guard push.deviceIdHash == saved.deviceIdHash else { return ClientStep(.show, saved: saved) }
        var next = saved
        guard saved.position > 0 else {
            next.position = push.position
            return ClientStep(.show, saved: next)
        }
        let missed = Int(push.position) - Int(saved.position) - 1
        guard missed > 0 else {
            if advancesWithoutGap { next.position = max(saved.position, push.position) }
            return ClientStep(.show, saved: next)
        }
        next.position = push.position
        let gap = (saved.position + 1)...(push.position - 1)
        return ClientStep(missed > limits.repeatMaxCount ? .summarize(positions: gap) : .reRequest(positions: gap), saved: next)
    }
}

/// The built-in clients in version 2 of the protocol (``ServiceExtensionClient``): the state is
/// the saved position, a push numbered for another install is shown as is, and a device id
/// change forgets the position. Run as a user's client they give the built-in clients' own
/// numbers (a test holds them to it).
public struct BuiltInServiceExtensionClient: ServiceExtensionClient {
    /// Whether a push without a gap moves the saved position (the intended client) or not (the literal one).
    public let advancesWithoutGap: Bool

    public static let intended = BuiltInServiceExtensionClient(advancesWithoutGap: true)
    public static let literal = BuiltInServiceExtensionClient(advancesWithoutGap: false)

    public init(advancesWithoutGap: Bool) { self.advancesWithoutGap = advancesWithoutGap }

    public func freshState() -> Int32 { 0 }

    public func pushArrived(_ push: ArrivingPush, state: inout Int32) -> ExtensionAnswer {
        BuiltInGapRule.answer(push, saved: &state, advancesWithoutGap: advancesWithoutGap)
    }
}

extension BuiltInGapRule {
    /// The rule of ``decide(_:saved:limits:advancesWithoutGap:)`` on a saved position kept by
    /// the client itself (protocol version 2).
    public static func answer(_ push: ArrivingPush, saved: inout Int32, advancesWithoutGap: Bool) -> ExtensionAnswer {
        if push.deviceIdChanged { saved = 0 }
        let step = decide(push.payload, saved: SavedState(position: saved, deviceIdHash: push.installDeviceIdHash),
                          limits: ClientLimits(repeatMaxCount: push.repeatMaxCount), advancesWithoutGap: advancesWithoutGap)
        saved = step.saved.position
        switch step.decision {
        case .show: return .show
        case .reRequest(let positions): return .reRequest([positions])
        case .summarize(let positions): return .summarize([positions])
        }
    }
}
