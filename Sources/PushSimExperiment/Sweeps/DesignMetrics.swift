// One harm set and one cost set for every recovery design, defined once: what `run`, `sweep` and `optimize` report, and why a design has no value ("n/a") where it cannot have one.
import PushSimCore

/// The harms and costs every design is compared on (docs/model.md §7, Harms and costs of every
/// design). Each is a figure per letter generated, from the arm's ledger; a design that cannot
/// have one (the queue fetches nothing from the mail server, the catch-up sends no silent push)
/// gets a reason instead of a value, never 0.
package enum DesignMetrics {
    package enum Unit: Sendable { case percent, plain }

    /// One figure: its name in sweep.csv / sweep.json (`harms.shown_twice_rate`), its title in
    /// the tables, and whether it is a part of the one before.
    package struct Metric: Sendable {
        package let name: String
        package let title: String
        package let unit: Unit
        package let part: Bool
    }

    /// The prefix of every figure's name: the object in summary.json, the group in sweep.json.
    package static let prefix = "harms_and_costs."

    /// Letters told of twice, then its three parts; the contract's `loss_rate`, `summarized_rate`
    /// and `latency_s` are the other harms, reported as they always were.
    package static let harms: [Metric] = [
        Metric(name: "shown_twice_rate", title: "shown twice", unit: .percent, part: false),
        Metric(name: "duplicates_rate", title: "as duplicates", unit: .percent, part: true),
        Metric(name: "summary_then_push_rate", title: "summary, then own push", unit: .percent, part: true),
        Metric(name: "sync_then_push_rate", title: "sync, then own push", unit: .percent, part: true),
    ]

    package static let costs: [Metric] = [
        Metric(name: "xiva_requests_per_letter", title: "XIVA requests / letter", unit: .plain, part: false),
        Metric(name: "alert_pushes_per_letter", title: "alert pushes / letter", unit: .plain, part: false),
        Metric(name: "silent_pushes_per_letter", title: "silent pushes / letter", unit: .plain, part: false),
        Metric(name: "fetches_per_letter", title: "mail-server fetches / letter", unit: .plain, part: false),
        Metric(name: "wakeups_per_letter", title: "wake-ups / letter", unit: .plain, part: false),
    ]

    package static var all: [Metric] { harms + costs }

    /// The design an arm recovered with: as the run set it, else as its ledger shows (a result
    /// read back from parts): a background sync sends silent pushes, a catch-up fetches.
    package static func design(of arm: ArmResult) -> RecoveryDesign {
        if let recovery = arm.recovery { return recovery }
        guard arm.arm == .on else { return .none }
        let l = arm.ledger
        if l.backgroundSync.pushes > 0 || l.backgroundSync.fetches > 0 { return .backgroundSync }
        if l.catchUp.fetches > 0 { return .catchUp }
        return .queue
    }

    /// Every figure of the arm: a value, or the reason it has none.
    package static func measure(_ arm: ArmResult) -> (values: [String: Double], notApplicable: [String: String]) {
        let counted = counts(arm)
        let letters = Double(max(arm.ledger.letters, 1))
        return (counted.counts.mapValues { Double($0) / letters }, counted.notApplicable)
    }

    /// Every figure of the arm as the count it divides by the letters (the letters shown twice,
    /// the XIVA requests, the pushes…), under the figure's name, or the reason it has none.
    package static func counts(_ arm: ArmResult) -> (counts: [String: Int], notApplicable: [String: String]) {
        let l = arm.ledger
        let design = design(of: arm)
        var values: [String: Int] = [:], reasons: [String: String] = [:]
        func set(_ name: String, _ count: Int?, or reason: String) {
            if let count { values[name] = count } else { reasons[name] = reason }
        }
        let recovers = design != .none
        let what = design == .none ? (arm.arm == .off ? "the off arm recovers nothing" : "recovery: none recovers nothing")
                                   : "the \(title(design))"
        // Harms: told of a letter twice, by a second presentation or by a summary (a sync's
        // notification) and then the letter's own push.
        set("duplicates_rate", l.duplicates, or: "")
        let summaryThenPush: Int? = design == .queue || design == .catchUp ? l.summaryThenPush.letters : nil
        set("summary_then_push_rate", summaryThenPush,
            or: recovers ? "\(what) shows no summary of its own (its notification is a sync's: sync, then own push)"
                         : "\(what): no summary is shown")
        let syncThenPush: Int? = design == .backgroundSync ? l.backgroundSync.shownTwice : nil
        set("sync_then_push_rate", syncThenPush, or: recovers ? "\(what) makes no background sync" : "\(what): no sync is made")
        set("shown_twice_rate", l.duplicates + (summaryThenPush ?? 0) + (syncThenPush ?? 0), or: "")
        // Costs. In the push queue the main app's work counts beside the extension's: its
        // re-requests are XIVA requests, and the background pushes that wake it
        // (`queue.background_pushes`) are silent pushes and wake-ups, as a background sync's are.
        let app = l.appHook
        let queueWakesTheApp = design == .queue && app.backgroundPushes > 0
        set("xiva_requests_per_letter", design == .queue ? l.reRequests + app.reRequests : nil,
            or: recovers ? "\(what) sends XIVA no re-request (no gap check)" : "\(what): no re-request")
        set("alert_pushes_per_letter", l.apns.sent, or: "")
        let silentPushes: Int? = design == .backgroundSync ? l.backgroundSync.pushes : queueWakesTheApp ? app.backgroundPushes : nil
        set("silent_pushes_per_letter", silentPushes,
            or: recovers ? "\(what) sends no silent push" : "\(what): no silent push")
        let fetches: Int? = design == .catchUp ? l.catchUp.fetches : design == .backgroundSync ? l.backgroundSync.fetches : nil
        set("fetches_per_letter", fetches,
            or: design == .queue ? "the push queue fetches nothing from the mail server (XIVA re-sends)" : "\(what): no fetch")
        let wakeUps: Int? = design == .backgroundSync ? l.backgroundSync.wakes : queueWakesTheApp ? app.backgroundWakes : nil
        set("wakeups_per_letter", wakeUps,
            or: recovers ? "\(what) wakes no app in the background (a user's launch is not a wake-up)" : "\(what): no wake-up")
        return (values, reasons)
    }

    /// The design as the tables name it.
    package static func title(_ design: RecoveryDesign) -> String {
        switch design {
        case .queue: return "push queue"
        case .catchUp: return "client catch-up"
        case .backgroundSync: return "background sync"
        case .none: return "no recovery"
        }
    }
}
