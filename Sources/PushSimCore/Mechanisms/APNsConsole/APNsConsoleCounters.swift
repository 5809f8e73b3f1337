// APNs' fates of the pushes sent to it, in the categories of Apple's Push Notifications Console, declared once.

/// What became of every push sent to APNs (docs/model.md §2, APNs' console categories): each
/// copy XIVA sent (first sends, retries, the queue's re-sends, rewrites over the binary
/// interface), each of APNs' second copies, and the one push answered 410 after an uninstall,
/// in exactly one category at the end of the run. The categories add up to `sent`. Counted by
/// each copy's letter (warm-up letters' copies are not counted), on `channel: apns` only.
package struct APNsConsoleCounters: CounterSet {
    package var sent = 0
    package var delivered = 0
    package var deliveredFromStorage = 0
    package var storedDeviceOffline = 0
    package var storedPowerConsiderations = 0
    package var discardedTokenUnregistered = 0
    package var discardedExpired = 0
    package var discardedDisabled = 0
    /// No console category: pushed out of the one-slot store by a newer push (`apns_replaced`).
    package var replacedInStorage = 0
    /// No console category (the console starts once APNs accepted a request): lost on the way
    /// in, or discarded by a closed binary connection.
    package var notReachingAPNs = 0
    /// No console category: refused with an error answer (413, 429, 5xx, a binary error packet).
    package var refused = 0
    /// No category yet: on its way to APNs or to the device, or waiting out a retry, at the end.
    package var underWay = 0
    /// Not a fate but the console's own data point: pushes ever stored for an offline device
    /// (Apple counts storing and the later delivery as two data points of one push).
    package var everStoredDeviceOffline = 0
    package init() {}

    /// The categories, in the table's order: each push is in exactly one.
    package static let categories: [WritableKeyPath<APNsConsoleCounters, Int> & Sendable] = [
        \.delivered, \.deliveredFromStorage, \.storedDeviceOffline, \.storedPowerConsiderations,
        \.discardedTokenUnregistered, \.discardedExpired, \.discardedDisabled,
        \.replacedInStorage, \.notReachingAPNs, \.refused, \.underWay,
    ]

    /// The categories' sum, which is `sent` (the identity tests check).
    package var categorized: Int { APNsConsoleCounters.categories.reduce(0) { $0 + self[keyPath: $1] } }

    /// Shown for every arm that sent a push over APNs (not PushKit's or FCM's arms).
    package static let group = CounterGroup(
        "apns console", json: "apns", heading: "APNs' console (pushes sent to APNs)", place: .afterCauses,
        shown: { $0.apns.sent > 0 }, isEmpty: { $0.apns == APNsConsoleCounters() }, [
            Counter("apns_sent", \.apns.sent, json: "sent", label: "  sent"),
            Counter("apns_delivered", \.apns.delivered, json: "delivered", label: "  Delivered"),
            Counter("apns_delivered_from_storage", \.apns.deliveredFromStorage, json: "delivered_from_storage",
                    label: "  Delivered (From Storage)"),
            Counter("apns_stored_device_offline", \.apns.storedDeviceOffline, json: "stored_device_offline",
                    label: "  Stored – Device Offline (at the end)"),
            Counter("apns_stored_power_considerations", \.apns.storedPowerConsiderations, json: "stored_power_considerations",
                    label: "  Stored – Power Considerations (at the end)"),
            Counter("apns_discarded_token_unregistered", \.apns.discardedTokenUnregistered, json: "discarded_token_unregistered",
                    label: "  Discarded – Token Unregistered"),
            Counter("apns_discarded_expired", \.apns.discardedExpired, json: "discarded_expired", label: "  Discarded – Expired"),
            Counter("apns_discarded_disabled", \.apns.discardedDisabled, json: "discarded_disabled", label: "  Discarded – Disabled"),
            Counter("apns_replaced_in_storage", \.apns.replacedInStorage, json: "replaced_in_storage",
                    label: "  replaced in storage (no console category)"),
            Counter("apns_not_reaching_apns", \.apns.notReachingAPNs, json: "not_reaching_apns",
                    label: "  lost before APNs (not in the console)"),
            Counter("apns_refused", \.apns.refused, json: "refused", label: "  refused by APNs (not in the console)"),
            Counter("apns_under_way", \.apns.underWay, json: "under_way", label: "  under way at the end"),
            Counter("apns_ever_stored_device_offline", \.apns.everStoredDeviceOffline, json: "ever_stored_device_offline",
                    label: "  ever Stored – Device Offline (data points)"),
        ])
}
