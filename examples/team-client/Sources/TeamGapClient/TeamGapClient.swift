// A mail team's Notification Service Extension as it really is: it batches gaps for 2 s into one
// re-request, asks at most 3 times a minute, and summarizes a gap of more than 20 positions.
// When the user opens the app, the app asks again for the gaps the cap summarized; in release
// 1.5 a background push that wakes the app does so too, and asks for the letters after the last
// one the extension saw, up to the push's position.
import Foundation
import PushSimClient

/// The team's gap logic, written against PushSim's client protocol version 2.
public struct TeamGapClient: ServiceExtensionClient {
    /// What the app group's storage holds.
    public struct State: Sendable, Equatable {
        /// The newest position seen (0: none yet under this device id).
        public var saved: Int32 = 0
        /// Gaps found and not yet asked for, waiting for the batch to close.
        public var pending: [ClosedRange<Int32>] = []
        /// When the open batch closes (a run waits until then), or nil when none is open.
        public var batchCloses: ClientTime?
        /// When the re-requests of the last minute were sent.
        public var recentRequests: [ClientTime] = []
        /// Gaps the cap summarized: the app asks for them when the user opens it.
        public var unasked: [ClosedRange<Int32>] = []
    }

    /// How long a batch stays open for more gaps, in seconds.
    public var batchWindow: Double
    /// Re-requests allowed in any 60 s.
    public var requestsPerMinute: Int
    /// A gap of more positions than this is summarized at once.
    public var summarizeAbove: Int
    /// A seeded bug for the gate's demonstration: the batch asks only for its first gap and
    /// forgets the ones that joined it.
    public var forgetsJoinedGaps: Bool
    /// Whether the app, opened, asks again for the gaps the cap summarized (release 1.4).
    public var catchUpOnOpen: Bool
    /// Whether a background push that wakes the app makes it catch up as well (release 1.5).
    public var catchUpOnBackgroundPush: Bool

    public init(batchWindow: Double = 2, requestsPerMinute: Int = 3, summarizeAbove: Int = 20, forgetsJoinedGaps: Bool = false,
                catchUpOnOpen: Bool = true, catchUpOnBackgroundPush: Bool = false) {
        self.batchWindow = batchWindow; self.requestsPerMinute = requestsPerMinute; self.summarizeAbove = summarizeAbove
        self.forgetsJoinedGaps = forgetsJoinedGaps; self.catchUpOnOpen = catchUpOnOpen
        self.catchUpOnBackgroundPush = catchUpOnBackgroundPush
    }

    public func freshState() -> State { State() }

    public func pushArrived(_ push: ArrivingPush, state: inout State) -> ExtensionAnswer {
        if push.deviceIdChanged { state.saved = 0; state.pending = []; state.unasked = [] }
        // A push numbered for an earlier install says nothing about this one's positions.
        guard push.payload.deviceIdHash == push.installDeviceIdHash else { return .show }
        let position = push.payload.position
        guard state.saved > 0 else {
            state.saved = position
            return .show
        }
        guard position > state.saved + 1 else {
            state.saved = max(state.saved, position)
            return .show
        }
        let gap = (state.saved + 1)...(position - 1)
        state.saved = position
        if gap.count > summarizeAbove { return .summarize([gap]) }
        state.pending.append(gap)
        // A batch already open takes this gap: the run that opened it asks for both.
        if let closes = state.batchCloses, closes > push.arrival { return .show }
        let closes = min(push.arrival.adding(seconds: batchWindow), push.deadline)
        state.batchCloses = closes
        return .wait(until: closes)
    }

    public func woke(_ push: ArrivingPush, at now: ClientTime, state: inout State) -> ExtensionAnswer {
        let gaps = forgetsJoinedGaps ? Array(state.pending.prefix(1)) : state.pending
        state.pending = []
        state.batchCloses = nil
        guard !gaps.isEmpty else { return .show }
        state.recentRequests.removeAll { now.seconds(since: $0) >= 60 }
        // Over the cap the missed letters are summarized rather than asked for (the app asks later).
        guard state.recentRequests.count < requestsPerMinute else {
            if catchUpOnOpen { state.unasked += gaps }
            return .summarize(gaps)
        }
        state.recentRequests.append(now)
        return .reRequest(gaps)
    }

    /// The user opened the app: it asks XIVA, in one request, for every gap the cap summarized
    /// since the last opening (their letters then arrive as pushes of their own).
    public func appOpened(_ opening: AppOpening, state: inout State) -> AppAnswer {
        guard !state.unasked.isEmpty else { return .nothing }
        defer { state.unasked = [] }
        return .reRequest(state.unasked)
    }

    /// A background push woke the app (release 1.5): it asks XIVA, in one request, for the gaps
    /// the cap summarized and for the positions between the newest the extension saw and the
    /// push's own (their alert pushes were lost or replaced in APNs' store, or are still on their
    /// way; the push's own alert was sent with it), and saves the position before the push's, so
    /// the extension finds no gap when the push's own alert comes.
    public func backgroundPushArrived(_ push: BackgroundPush, state: inout State) -> AppAnswer {
        guard catchUpOnBackgroundPush else { return .nothing }
        var ranges = state.unasked
        state.unasked = []
        let position = push.payload.position
        if push.payload.deviceIdHash == push.installDeviceIdHash, state.saved > 0, position > state.saved + 1 {
            ranges.append((state.saved + 1)...(position - 1))
            state.saved = position - 1
        }
        return ranges.isEmpty ? .nothing : .reRequest(ranges)
    }
}
