// The push channel a device's pushes travel by (APNs alerts, PushKit VoIP pushes, or FCM), and its keys.

/// Which push service carries a device's pushes from XIVA to the device (docs/model.md §12).
/// The rest of the chain (XIVA's numbering, the gap check, re-requests) is the same on each.
package enum PushChannel: String, Sendable, CaseIterable {
    /// Apple's alert pushes: the one-slot offline store (the model of §1 to §8).
    case apns
    /// Apple's VoIP pushes: no store-and-forward, and the CallKit-report rule.
    case pushkit
    /// Firebase Cloud Messaging: a store of up to 100 messages or 4 collapse keys, a TTL, Doze.
    case fcm
}

/// FCM's message priority: normal-priority messages wait while the device dozes.
package enum FCMPriority: String, Sendable, CaseIterable {
    case normal, high
}

extension Scenario {
    /// PushKit's CallKit-report rule (docs/model.md §12, PushKit).
    package struct PushKit: Sendable {
        /// Probability the app fails to report a VoIP push to CallKit: the system terminates it.
        package var reportFailure: Double = 0
        /// Failures after which the system stops launching the app for VoIP pushes.
        package var cutOffAfter: Int = 3
        package init() {}
    }

    /// FCM's store and priority (docs/model.md §12, FCM).
    package struct FCM: Sendable {
        /// How long FCM keeps a message for an offline device; at most 28 days (its default).
        package var ttl: SimTime = SimTime(microseconds: 28 * SimTime.day)
        /// 0: every message is non-collapsible; K ≥ 1: each letter's message carries one of K
        /// collapse keys (drawn per letter), and FCM keeps one message per key.
        package var collapseKeys: Int = 0
        package var priority: FCMPriority = .normal
        package init() {}
    }
}
