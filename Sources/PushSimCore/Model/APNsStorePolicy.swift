// `apns.store`: APNs' offline store as a parameter, how many pushes it keeps per app, which, and whether a collapse id has a slot of its own.

/// APNs' offline store for one app on one device (docs/model.md §5, APNs' offline store as a
/// parameter). The default is the documented one-slot store, newest kept.
package struct APNsStorePolicy: Hashable, Sendable {
    /// Which push goes when a push enters a full store.
    package enum Keep: String, Sendable, CaseIterable {
        /// The one that entered first goes: the store keeps the newest.
        case newest
        /// The newcomer goes: the store keeps the oldest.
        case oldest
        /// One of the stored pushes and the newcomer, each as likely, goes.
        case random
    }

    /// What one store is for.
    package enum Per: String, Sendable, CaseIterable {
        /// One store per app, whatever the pushes' collapse ids.
        case app
        /// A push with a collapse id has a slot of its own, beside the app's slots for the
        /// pushes without one.
        case collapseId = "collapse_id"
    }

    /// The most pushes the app's store holds; nil: unlimited.
    package var slots: Int? = 1
    package var keep: Keep = .newest
    package var per: Per = .app

    package init(slots: Int? = 1, keep: Keep = .newest, per: Per = .app) {
        self.slots = slots; self.keep = keep; self.per = per
    }

    /// The largest number of slots a file may give (more is `unlimited`): a memory bound.
    package static let slotLimit = 1_000_000

    /// Whether this is the documented one-slot store (then `apns.keep_older` may apply).
    package var isOneSlot: Bool { self == APNsStorePolicy() }
}
