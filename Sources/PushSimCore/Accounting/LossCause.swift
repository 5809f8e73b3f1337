// The causes a lost letter can have: the contract's ten, then the push channels' (docs/model.md §9).

/// Why a lost letter's last chance ended (scenario contract, section 3).
package enum LossCause: Int, CaseIterable, Sendable {
    case xivaDrop, xivaOutage, networkLoss, apnsReplaced, apnsExpired, alertsOff
    case undetectedGap, retentionExpired, extensionTimeout, unfinished
    /// PushKit: the device was offline and the channel has no store.
    case noStore
    /// PushKit: the app failed to report the push to CallKit, or the system no longer launches it.
    case callKitUnreported

    /// The name used in JSON and tables.
    package var key: String {
        switch self {
        case .xivaDrop: return "xiva_drop"
        case .xivaOutage: return "xiva_outage"
        case .networkLoss: return "network_loss"
        case .apnsReplaced: return "apns_replaced"
        case .apnsExpired: return "apns_expired"
        case .alertsOff: return "alerts_off"
        case .undetectedGap: return "undetected_gap"
        case .retentionExpired: return "retention_expired"
        case .extensionTimeout: return "extension_timeout"
        case .unfinished: return "unfinished"
        case .noStore: return "no_store"
        case .callKitUnreported: return "callkit_unreported"
        }
    }

    /// Causes that only the queue arm can give.
    package var isQueueOnly: Bool {
        switch self {
        case .alertsOff, .undetectedGap, .retentionExpired, .extensionTimeout: return true
        default: return false
        }
    }
}

/// How one letter ended the run.
package enum LetterFate: Equatable, Sendable {
    case delivered(latency: Int64)
    case summarized
    case lost(LossCause)
}
