// The client's gap algorithm as a pure function: saved position and arriving position in, decision out.
import PushSimClient

/// Which client decides in the queue arm (docs/client.md). The built-in two are concrete types
/// the generic ``GapCheck/check(_:push:saved:limits:)`` is specialised and inlined for; a user's
/// client (`Scenario.queue.userClient`) is called through its protocol, once per push that
/// reaches the extension. A plain tag, not a payload: an existential in the enum would be
/// copied at every check.
enum ChainClient {
    case intended
    case literal
    /// A user's client of protocol version 1 (``ExtensionClient``).
    case user
    /// A user's client of protocol version 2 (``ServiceExtensionClient``, StatefulClientRuns.swift).
    case stateful
}

/// What the extension decides about the position of an arriving push (docs/model.md §1, the
/// Notification Service Extension), given the position it saved before. Pure, so the rule can
/// be tested apart from the world; `DeviceWorld.checkForGap` applies it.
struct GapCheck: Equatable {
    enum Outcome: Equatable {
        /// Nothing was saved yet: the position is saved, nothing else happens.
        case firstPosition
        /// No position is missing between the saved one and this one.
        case noGap
        /// Positions `low...high` are missing: summarize them or re-request them.
        case gap(low: Int32, high: Int32, action: ExtensionAction)
    }

    var outcome: Outcome
    /// The saved position after the check.
    var saved: Int32

    /// `saved` is 0 when no position was saved yet. The intended client advances its saved
    /// position on every numbered push; the literal snippet only when it finds a gap. A gap of
    /// more than `repeatMaxCount` positions is summarized, a smaller one re-requested.
    @inline(__always)
    static func check(saved: Int32, position p: Int32, intendedClient: Bool, repeatMaxCount: Int) -> GapCheck {
        let push = PushPayload(position: p, deviceIdHash: 0), state = SavedState(position: saved, deviceIdHash: 0)
        let limits = ClientLimits(repeatMaxCount: repeatMaxCount)
        return intendedClient ? check(IntendedClient(), push: push, saved: state, limits: limits)
                              : check(LiteralClient(), push: push, saved: state, limits: limits)
    }

    /// A user's client's check of a push whose device-id hash is the saved one (every push but
    /// one numbered for an earlier install, `DeviceWorld.isForeignPush`).
    static func check(saved: Int32, position p: Int32, user client: any ExtensionClient, repeatMaxCount: Int,
                      deviceIdHash hash: UInt32) -> GapCheck {
        var result = check(client, push: PushPayload(position: p, deviceIdHash: hash),
                           saved: SavedState(position: saved, deviceIdHash: hash), limits: ClientLimits(repeatMaxCount: repeatMaxCount))
        result.saved = savedWithinNumbered(result.saved, before: saved, position: p)
        return result
    }

    /// A user's saved position, kept to what a client can have seen (0 ... the higher of the
    /// position saved before and the push's): the world's arithmetic on positions stays in range.
    static func savedWithinNumbered(_ proposed: Int32, before saved: Int32, position p: Int32) -> Int32 {
        min(max(proposed, 0), max(saved, p, 0))
    }

    /// `client`'s decision as the world applies it. A gap's range is kept to the positions
    /// before the push (`1 ... position - 1`, the ones XIVA has numbered and can send again);
    /// a range with none of them is shown as is. Nothing saved before and something saved
    /// after, with nothing to do, is the first position.
    @inline(__always)
    static func check<Client: ExtensionClient>(_ client: Client, push: PushPayload, saved: SavedState,
                                               limits: ClientLimits) -> GapCheck {
        let step = client.decide(push, saved: saved, limits: limits)
        let range: ClosedRange<Int32>, action: ExtensionAction
        switch step.decision {
        case .show:
            let first = saved.position <= 0 && step.saved.position > 0
            return GapCheck(outcome: first ? .firstPosition : .noGap, saved: step.saved.position)
        case .reRequest(let positions): (range, action) = (positions, .reRequest)
        case .summarize(let positions): (range, action) = (positions, .summary)
        }
        let low = max(range.lowerBound, 1), high = min(range.upperBound, push.position - 1)
        guard low <= high else { return GapCheck(outcome: .noGap, saved: step.saved.position) }
        return GapCheck(outcome: .gap(low: low, high: high, action: action), saved: step.saved.position)
    }
}
