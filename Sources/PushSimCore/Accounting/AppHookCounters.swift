// What a version-2 client's main app did when the user opened it (its hook, StatefulClientApp.swift), queue arm.

/// The openings a version-2 client's app was asked about (online, at or after the warm-up), the
/// requests it sent XIVA and the summaries it showed: the main app's share of the load, apart
/// from the extension's `re_requests` (which the extension's log counts row by row).
package struct AppHookCounters: CounterSet {
    package var opens = 0
    package var reRequests = 0
    package var summaries = 0
    package init() {}

    /// Shown once the app re-requested or showed something: a client whose hook does nothing
    /// writes what it wrote before the hook existed.
    package static let group = CounterGroup("the client's app, opened (protocol version 2)", json: "app", place: .queueBlock, arms: .queueArm,
                                            shown: { $0.appHook.reRequests > 0 || $0.appHook.summaries > 0 },
                                            isEmpty: { $0.appHook == AppHookCounters() }, [
        Counter("app_opens", \.appHook.opens, json: "opens", label: "  openings of the app, online"),
        Counter("app_re_requests", \.appHook.reRequests, json: "re_requests", label: "  re-requests the app sent",
                perLetter: "app_re_requests_per_letter"),
        Counter("app_summaries", \.appHook.summaries, json: "summaries", label: "  summaries the app showed"),
    ])
}
