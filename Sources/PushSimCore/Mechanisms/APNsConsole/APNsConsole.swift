// Each push's status as Apple's Push Notifications Console would last have shown it, kept on the copy and counted at the end of the arm.

/// A copy's console status (docs/model.md §2, APNs' console categories), one byte on the copy:
/// the status in the low bits, and whether it was ever stored for an offline device or held
/// for a sleeping one. Every step that decides a copy's fate writes it; nothing reads it until
/// the arm ends, so the shortcuts, which take the same steps ahead of the clock, count exactly
/// what the events count.
struct ConsoleMark {
    enum Status: UInt8 {
        case underWay = 0, delivered, deliveredFromStorage, storedDeviceOffline, storedPowerConsiderations
        case discardedExpired, discardedDisabled, replacedInStorage, notReachingAPNs, refused

        /// The status of a copy lost with `cause`; nil for the causes that are not a copy's
        /// fate at APNs (PushKit's, which no console category counts).
        init?(lostWith cause: LossCause) {
            switch cause {
            case .networkLoss, .connectionDiscard: self = .notReachingAPNs
            case .payloadTooLarge, .throttled, .serverError, .rejected, .apnsOutage, .tooManyTokenUpdates, .expiredProviderToken: self = .refused
            case .apnsExpired: self = .discardedExpired
            case .apnsReplaced: self = .replacedInStorage
            case .xivaDrop, .xivaOutage, .alertsOff, .undetectedGap, .retentionExpired, .extensionTimeout,
                 .unfinished, .noStore, .callKitUnreported, .memoryKill:
                return nil
            }
        }
    }

    private static let statusBits: UInt8 = 0x0F
    private static let storedBit: UInt8 = 0x40
    private static let heldBit: UInt8 = 0x80
    private var raw: UInt8 = 0

    var status: Status { Status(rawValue: raw & ConsoleMark.statusBits) ?? .underWay }
    /// Whether APNs ever kept it, in its offline store or for a sleeping device.
    var wasStored: Bool { raw & (ConsoleMark.storedBit | ConsoleMark.heldBit) != 0 }
    var wasStoredOffline: Bool { raw & ConsoleMark.storedBit != 0 }

    mutating func set(_ status: Status) { raw = (raw & ~ConsoleMark.statusBits) | status.rawValue }

    /// Stored in the one-slot offline store (rule 3).
    mutating func storedOffline() { raw |= ConsoleMark.storedBit; set(.storedDeviceOffline) }
    /// Held for a sleeping device (docs/model.md §10).
    mutating func held() { raw |= ConsoleMark.heldBit; set(.storedPowerConsiderations) }
    /// Handed over to the device: from storage when APNs kept it first; discarded when the
    /// device has notifications disabled (display off).
    mutating func handedOver(disabled: Bool) {
        set(disabled ? .discardedDisabled : wasStored ? .deliveredFromStorage : .delivered)
    }
}

extension DeviceWorld {
    /// The copy's status when it is lost with `cause`.
    @inline(__always) mutating func consoleStatus(of c: CopyIndex, lostWith cause: LossCause) {
        if let status = ConsoleMark.Status(lostWith: cause) { copies[c].console.set(status) }
    }

    /// Counts every counted copy of the arm into its category (on `channel: apns` only), at the
    /// end of the arm, after the store's last copy was settled. On an uninstalled device
    /// (docs/model.md §9) whatever was still stored, held or under way at the uninstall is
    /// discarded as the token's, and the first push after it, answered 410, is one more.
    mutating func countConsoleCategories() {
        guard parameters.channel == .apns else { return }
        var counts = ledger.apns
        countConsoleCategories(copies: 0..<copies.count, into: &counts)
        if clock.end < parameters.runEnd && !parameters.binary && pushAnsweredUnregisteredIsCounted() {
            counts.sent += 1
            counts.discardedTokenUnregistered += 1
        }
        ledger.apns = counts
    }

    /// Counts the copies `range` into their categories: at
    /// the end of the arm, or when a world of a shared partition settles them in flight
    /// (WorldSettlement.swift).
    @inline(__always) mutating func countConsoleCategories(copies range: Range<Int>, into counts: inout APNsConsoleCounters) {
        let uninstalled = clock.end < parameters.runEnd
        for c in range {
            let copy = copies[c]
            guard copy.letter.offset >= armState.firstCounted else { continue }
            counts.sent += 1
            if copy.console.wasStoredOffline { counts.everStoredDeviceOffline += 1 }
            let status = copy.console.status
            if uninstalled && (status == .underWay || status == .storedDeviceOffline || status == .storedPowerConsiderations) {
                // Still APNs' at the uninstall: the token's, discarded (Apple's "(From Storage)" too).
                counts.discardedTokenUnregistered += 1
                continue
            }
            switch status {
            case .underWay: counts.underWay += 1
            case .delivered: counts.delivered += 1
            case .deliveredFromStorage: counts.deliveredFromStorage += 1
            case .storedDeviceOffline: counts.storedDeviceOffline += 1
            case .storedPowerConsiderations: counts.storedPowerConsiderations += 1
            case .discardedExpired: counts.discardedExpired += 1
            case .discardedDisabled: counts.discardedDisabled += 1
            case .replacedInStorage: counts.replacedInStorage += 1
            case .notReachingAPNs: counts.notReachingAPNs += 1
            case .refused: counts.refused += 1
            }
        }
    }

    /// Whether XIVA sends a counted push after the uninstall, the one APNs answers 410 (docs/model.md
    /// §9): the first letter written at or after it that XIVA does not drop for an unknown
    /// subscription. Not simulated as a copy (the device's run ends at the uninstall), so an
    /// outage or a reinstall's old token at that instant is not looked at.
    func pushAnsweredUnregisteredIsCounted() -> Bool {
        var i = firstLetter(atOrAfter: clock.end)
        while i < draws.letters.count && draws.letters[i].dropped { i += 1 }
        return i < draws.letters.count && i >= armState.firstCounted
    }

    /// The index of the first letter written at or after t (the letters' count if none is).
    func firstLetter(atOrAfter t: Int64) -> Int {
        var i = draws.letters.count
        var low = 0
        while low < i {
            let mid = (low + i) / 2
            if draws.letters[mid].time < t { low = mid + 1 } else { i = mid }
        }
        return i
    }
}
