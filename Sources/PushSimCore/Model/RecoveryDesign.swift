// The designs the queue arm can recover lost pushes with: the push queue, a client catch-up, background-push sync, or none.

/// How the queue arm recovers lost pushes (docs/model.md §7). The off arm never recovers, so
/// with `catch_up`, `background_sync` or `none` the two arms compare that design with no recovery, on the same world.
package enum RecoveryDesign: String, Sendable, CaseIterable {
    /// XIVA's numbering, the extension's gap check, re-requests and summaries (today's queue).
    case queue
    /// No gap check; when the user opens the app it fetches what it missed from its own server
    /// and shows one summary for it.
    case catchUp = "catch_up"
    /// No gap check; every letter also sends a silent background push that, throttled by the
    /// system, wakes the app to fetch what it missed and show one notification for it; a launch
    /// of the app fetches too (docs/model.md §7, Background-push sync).
    case backgroundSync = "background_sync"
    /// No gap check and no catch-up: the arm is the off arm under another name.
    case none
}
