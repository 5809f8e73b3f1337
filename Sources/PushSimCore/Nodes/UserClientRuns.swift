// A user's client (PushSimClient's ExtensionClient) in the world: the device-id hashes it is shown, and the pushes of earlier installs.
import PushSimClient

extension DeviceWorld {
    /// The device-id hash of this device's `install`-th install (0: the first) in its payloads
    /// and saved state: a fixed function of the device and the install, the same in both arms,
    /// so an install's pushes carry its hash and another install's never do.
    func deviceIdHash(install: Int) -> UInt32 {
        let hash = FNV1a.hash(words: [UInt64(truncatingIfNeeded: armState.device), UInt64(truncatingIfNeeded: install)])
        return UInt32(truncatingIfNeeded: hash ^ (hash >> 32))
    }

    /// Which install (0: the first) XIVA numbered position p for.
    func install(numbering p: Int32) -> Int {
        (mechanisms.reinstalls.firstPositions.lastIndex { $0 <= p }).map { $0 + 1 } ?? 0
    }

    /// The user's client's check of a push numbered for this install: both hashes this
    /// install's. Out of line, so that the built-in clients' inlined check stays small;
    /// `mutating` for its caller's sake (``gapCheck(saved:position:)``).
    @inline(never) mutating func userGapCheck(saved: Int32, position p: Int32) -> GapCheck {
        guard let client = scenario.queue.userClient?.client else { return GapCheck(outcome: .noGap, saved: saved) }
        return GapCheck.check(saved: saved, position: p, user: client, repeatMaxCount: parameters.repeatMaxCount,
                              deviceIdHash: deviceIdHash(install: mechanisms.reinstalls.installs))
    }

    /// A push numbered for an earlier install reaches a user's client: its payload carries
    /// that install's hash, the saved state this install's. The built-in clients show it as is
    /// without asking (the same decision); a client that skips the hash check finds a gap
    /// where there is none, and that is applied like any other.
    @inline(never) mutating func userClientChecksForeignPush(position p: Int32, letter: Int, run: inout ExtensionRun) {
        guard let client = scenario.queue.userClient?.client else { return }
        let install = install(numbering: p)
        let current = mechanisms.reinstalls.installs
        var check = GapCheck.check(client, push: PushPayload(position: p, deviceIdHash: deviceIdHash(install: install)),
                                   saved: SavedState(position: ext.lastPosition, deviceIdHash: deviceIdHash(install: current)),
                                   limits: ClientLimits(repeatMaxCount: parameters.repeatMaxCount))
        check.saved = GapCheck.savedWithinNumbered(check.saved, before: ext.lastPosition, position: p)
        apply(check, position: p, letter: letter, run: &run)
    }
}
