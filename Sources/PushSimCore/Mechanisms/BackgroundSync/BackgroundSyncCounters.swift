// What `recovery: background_sync` counted (queue arm), declared once.

/// The background pushes sent and what the system did with them, the app's fetches from its
/// own server (woken or launched), the letters the user saw only through a sync, with their
/// delay from the letter to the moment the user saw them, and the letters a sync showed whose
/// own push came after it (the user saw them twice).
package struct BackgroundSyncCounters: CounterSet {
    package var pushes = 0
    package var wakes = 0
    package var held = 0
    package var dropped = 0
    package var forceQuit = 0
    package var fetches = 0
    package var synced = 0
    package var syncedDelayMilliseconds = 0
    package var shownTwice = 0
    package init() {}

    /// Shown once the design sent a background push or fetched.
    package static let group = CounterGroup("recovery: background_sync", json: "background_sync", place: .queueBlock, arms: .queueArm,
                                            shown: { $0.backgroundSync.pushes > 0 || $0.backgroundSync.fetches > 0 },
                                            isEmpty: { $0.backgroundSync == BackgroundSyncCounters() }, [
        Counter("background_pushes", \.backgroundSync.pushes, json: "pushes", label: "  background pushes sent",
                perLetter: "background_pushes_per_letter"),
        Counter("background_wakes", \.backgroundSync.wakes, json: "wakes", label: "    woke the app"),
        Counter("background_held", \.backgroundSync.held, json: "held", label: "    held by the throttle"),
        Counter("background_dropped", \.backgroundSync.dropped, json: "dropped", label: "    dropped by the throttle"),
        Counter("background_force_quit", \.backgroundSync.forceQuit, json: "force_quit", label: "    not delivered: app force-quit"),
        Counter("background_fetches", \.backgroundSync.fetches, json: "fetches", label: "  background-sync fetches",
                perLetter: "background_fetches_per_letter"),
        Counter("background_synced", \.backgroundSync.synced, json: "synced", label: "  letters seen only through a sync",
                perLetter: "synced_per_letter"),
        Counter("background_synced_delay_ms", \.backgroundSync.syncedDelayMilliseconds, json: "synced_delay_ms",
                label: "    their delays, summed (ms)"),
        Counter("background_shown_twice", \.backgroundSync.shownTwice, json: "shown_twice",
                label: "  synced, then shown by their own push", perLetter: "shown_twice_per_letter"),
    ])
}
