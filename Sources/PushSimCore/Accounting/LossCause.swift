// The causes a lost letter can have: the contract's ten, the provider API's (docs/model.md §9), the push channels' (§12), the binary interface's (§11).

/// Why a lost letter's last chance ended (scenario contract, section 3).
package enum LossCause: Int, CaseIterable, Sendable {
    case xivaDrop, xivaOutage, networkLoss, apnsReplaced, apnsExpired
    /// The provider API's refusals (docs/model.md §9): 413, and 429 or 5xx once XIVA's retries ran out.
    case payloadTooLarge, throttled, serverError
    case alertsOff
    case undetectedGap, retentionExpired, extensionTimeout, unfinished
    /// PushKit: the device was offline and the channel has no store.
    case noStore
    /// PushKit: the app failed to report the push to CallKit, or the system no longer launches it.
    case callKitUnreported
    /// The binary interface (docs/model.md §11, rule 2): APNs answered the written notification
    /// with an error packet, a malformed one, and closed the connection.
    case rejected
    /// The binary interface (docs/model.md §11, rule 3): written on a connection an earlier error
    /// had already closed, and not written again (no resend buffer, or it had left the buffer).
    /// A copy's fate, like `networkLoss`: the queue arm may still re-request it.
    case connectionDiscard
    /// The extension's memory limit (docs/model.md §8): its gap was found, but the system killed
    /// the run for its decoded attachment before the re-request or summary. Listed in the JSON
    /// and tables only when it counted (`listedWhenZero`), so a document without it keeps its bytes.
    case memoryKill
    /// APNs was out for the phone (docs/model.md §9, APNs outages): it refused the push with 503
    /// or could not be reached, and XIVA's attempts ran out. Listed only when it counted.
    case apnsOutage
    /// XIVA's provider token (docs/model.md §9, Provider tokens): refreshed too soon, APNs
    /// answered 429 TooManyProviderTokenUpdates and the connection took nothing, and XIVA's
    /// attempts ran out in the lockout. Listed only when it counted.
    case tooManyTokenUpdates
    /// XIVA's provider token had expired (403 ExpiredProviderToken) and XIVA's attempts ran
    /// out before the next refresh. Listed only when it counted.
    case expiredProviderToken

    /// The name used in JSON and tables.
    package var key: String {
        switch self {
        case .xivaDrop: return "xiva_drop"
        case .xivaOutage: return "xiva_outage"
        case .networkLoss: return "network_loss"
        case .apnsReplaced: return "apns_replaced"
        case .apnsExpired: return "apns_expired"
        case .payloadTooLarge: return "payload_too_large"
        case .throttled: return "throttled"
        case .serverError: return "server_error"
        case .alertsOff: return "alerts_off"
        case .undetectedGap: return "undetected_gap"
        case .retentionExpired: return "retention_expired"
        case .extensionTimeout: return "extension_timeout"
        case .unfinished: return "unfinished"
        case .noStore: return "no_store"
        case .callKitUnreported: return "callkit_unreported"
        case .rejected: return "rejected"
        case .connectionDiscard: return "connection_discard"
        case .memoryKill: return "memory_kill"
        case .apnsOutage: return "apns_outage"
        case .tooManyTokenUpdates: return "too_many_token_updates"
        case .expiredProviderToken: return "expired_provider_token"
        }
    }

    /// Whether the documents list the cause when it is zero: every cause but those added after
    /// the bundled results were made, which appear once they count.
    package var listedWhenZero: Bool {
        switch self {
        case .memoryKill, .apnsOutage, .tooManyTokenUpdates, .expiredProviderToken: return false
        default: return true
        }
    }

    /// The causes a document lists for ledgers whose count of a cause is `count(cause)`.
    package static func listed(_ count: (LossCause) -> Int) -> [LossCause] {
        allCases.filter { $0.listedWhenZero || count($0) > 0 }
    }

    /// Causes that only the queue arm can give.
    package var isQueueOnly: Bool {
        switch self {
        case .alertsOff, .undetectedGap, .retentionExpired, .extensionTimeout, .memoryKill: return true
        default: return false
        }
    }
}

/// How one letter ended the run.
package enum LetterFate: Equatable, Sendable {
    case delivered(latency: Int64)
    case summarized
    /// Written to a device whose app was uninstalled, or still under way then: never
    /// deliverable, so outside `letters` (docs/model.md §9, Unregistered).
    case undeliverable
    case lost(LossCause)
}
