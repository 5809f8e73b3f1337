// What a version-2 client's main app did when the user opened it or a background push woke it (its hooks, StatefulClientApp.swift, StatefulClientBackground.swift), queue arm.

/// The openings a version-2 client's app was asked about (online, at or after the warm-up), the
/// requests it sent XIVA and the summaries it showed: the main app's share of the load, apart
/// from the extension's `re_requests` (which the extension's log counts row by row); and, with
/// `queue.background_pushes`, the background pushes XIVA sent (by their counted letter) and what
/// the system's throttle did with them (wake-ups, held, dropped, by their instant).
package struct AppHookCounters: CounterSet {
    package var opens = 0
    package var reRequests = 0
    package var summaries = 0
    package var backgroundPushes = 0
    package var backgroundWakes = 0
    package var backgroundHeld = 0
    package var backgroundDropped = 0
    package init() {}

    /// Shown once the app re-requested or showed something, or background pushes were sent: a
    /// client whose hooks do nothing, in a scenario without background pushes, writes what it
    /// wrote before the hooks existed. `check` and `ab` judge the app's requests and summaries
    /// (more is worse, as the extension's); the rest is the world's, the same for every client.
    package static let group = CounterGroup("the client's app (protocol version 2)", json: "app", place: .queueBlock, arms: .queueArm,
                                            shown: { $0.appHook.reRequests > 0 || $0.appHook.summaries > 0 || $0.appHook.backgroundPushes > 0 },
                                            isEmpty: { $0.appHook == AppHookCounters() }, [
        Counter("app_opens", \.appHook.opens, json: "opens", label: "  openings of the app, online"),
        Counter("app_re_requests", \.appHook.reRequests, json: "re_requests", label: "  re-requests the app sent", checked: true,
                perLetter: "app_re_requests_per_letter"),
        Counter("app_summaries", \.appHook.summaries, json: "summaries", label: "  summaries the app showed", checked: true),
        Counter("app_background_pushes", \.appHook.backgroundPushes, json: "background_pushes", label: "  background pushes sent",
                perLetter: "app_background_pushes_per_letter"),
        Counter("app_background_wakes", \.appHook.backgroundWakes, json: "background_wakes", label: "    woke the app"),
        Counter("app_background_held", \.appHook.backgroundHeld, json: "background_held", label: "    held by the throttle"),
        Counter("app_background_dropped", \.appHook.backgroundDropped, json: "background_dropped", label: "    dropped by the throttle"),
    ])
}
