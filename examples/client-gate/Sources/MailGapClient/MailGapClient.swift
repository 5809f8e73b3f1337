// The mail client's gap logic, written as the app team writes it in its Notification Service Extension.
import PushSimClient

/// The published algorithm, step by step as the extension's `didReceive` does it:
///
/// 1. Read the payload: XIVA's position and the device-id hash the push was numbered for.
/// 2. Check the hash: a push for another install (before a reinstall) is shown as it is and
///    touches nothing saved — its position belongs to another numbering.
/// 3. Compare with the saved position: nothing saved yet, save this one; no position missing,
///    move the saved position forward (never back: a late re-sent push is older).
/// 4. A gap: up to `repeat_max_count` missing positions are re-requested from XIVA, more are
///    summarized as "N missed messages"; either way this push's position is saved.
///
/// `gapOffByOne` seeds the bug a refactoring might bring in: the gap is computed one position
/// short (`position - saved - 2`), so a single missed push goes unnoticed and the re-requested
/// range loses its last position. `check` against the correct client's baseline catches it.
public struct MailGapClient: ExtensionClient {
    public var gapOffByOne: Bool

    public init(gapOffByOne: Bool = false) {
        self.gapOffByOne = gapOffByOne
    }

    public func decide(_ push: PushPayload, saved: SavedState, limits: ClientLimits) -> ClientStep {
        // 2. Another install's push: show it, save nothing.
        guard push.deviceIdHash == saved.deviceIdHash else { return ClientStep(.show, saved: saved) }
        var next = saved
        // 3. The first numbered push this install sees.
        guard saved.position > 0 else {
            next.position = push.position
            return ClientStep(.show, saved: next)
        }
        let missing = Int(push.position) - Int(saved.position) - (gapOffByOne ? 2 : 1)
        guard missing > 0 else {
            next.position = max(saved.position, push.position)
            return ClientStep(.show, saved: next)
        }
        // 4. The gap: the positions after the saved one, `missing` of them.
        let first = saved.position + 1
        let gap = first...(first + Int32(missing) - 1)
        next.position = push.position
        return ClientStep(missing > limits.repeatMaxCount ? .summarize(positions: gap) : .reRequest(positions: gap), saved: next)
    }
}
