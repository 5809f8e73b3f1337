// FCM's message outcomes and delivery delays, counted as Firebase's delivery data names them.

/// What became of the messages FCM accepted (docs/model.md §12, FCM). The outcomes are mutually
/// exclusive and add up to the messages accepted; of the delivered, the delays say whether FCM
/// held them first because the device was offline or dozing. Counted by each message's letter
/// (warm-up letters' messages are not counted).
package struct FCMOutcomes: Equatable, Sendable {
    package var delivered = 0
    /// Still stored or on its way to the device when the run ended.
    package var pending = 0
    /// Replaced in the store by a newer message with the same collapse key.
    package var collapsed = 0
    /// Dropped from the store because a fifth collapse key came (which key goes is random).
    package var evicted = 0
    /// Discarded when the store already held 100 non-collapsible messages.
    package var droppedTooManyPending = 0
    /// Discarded because the device had been offline for 28 days or more.
    package var droppedDeviceInactive = 0
    /// Expired in the store (its time to live ran out first).
    package var expired = 0
    /// Of the delivered: handed over at once, or held while the device was offline, or dozing.
    package var deliveredNoDelay = 0
    package var delayedDeviceOffline = 0
    package var delayedDeviceDoze = 0
    /// Full re-syncs the app made when told (onDeletedMessages) that messages were dropped.
    package var resyncs = 0

    package init() {}

    /// Messages FCM accepted: the sum of the outcomes.
    package var accepted: Int { delivered + pending + collapsed + evicted + droppedTooManyPending + droppedDeviceInactive + expired }

    /// Every count by its key, in the JSON's and the partial results' spelling.
    package static var counts: [(String, WritableKeyPath<FCMOutcomes, Int>)] { [
        ("delivered", \.delivered), ("pending", \.pending), ("collapsed", \.collapsed), ("evicted", \.evicted),
        ("dropped_too_many_pending", \.droppedTooManyPending), ("dropped_device_inactive", \.droppedDeviceInactive),
        ("expired", \.expired), ("delivered_no_delay", \.deliveredNoDelay),
        ("delayed_device_offline", \.delayedDeviceOffline), ("delayed_device_doze", \.delayedDeviceDoze),
        ("resyncs", \.resyncs),
    ] }

    package mutating func merge(_ other: FCMOutcomes) {
        // Key paths are slow, and the coupled path merges once per device: outside FCM runs
        // every device's outcomes are zero, so those merges are skipped.
        guard other != FCMOutcomes() else { return }
        for (_, path) in FCMOutcomes.counts { self[keyPath: path] += other[keyPath: path] }
    }
}
