// What the provider's side of APNs counted (docs/model.md §9), declared once.

/// Letters never deliverable because the app was uninstalled (outside `letters`).
package struct UninstallCounters: CounterSet {
    package var undeliverable = 0
    package init() {}
}

/// Pushes XIVA sent again, and the answers behind them (docs/model.md §9).
package struct ProviderCounters: CounterSet {
    package var retries = 0
    package var answersLost = 0
    package var throttledAnswers = 0
    package var serverErrors = 0
    package init() {}
}

extension CounterGroup {
    /// Letters outside `letters` because the app was uninstalled (not counted in `letters`:
    /// no chain could have delivered them).
    static let undeliverable = CounterGroup("device.uninstall", json: nil, place: .afterCauses, shown: { $0.uninstall.undeliverable > 0 }, isEmpty: { $0.uninstall == UninstallCounters() }, [
        Counter("undeliverable", \.uninstall.undeliverable, json: "undeliverable", label: "undeliverable (app uninstalled, not in letters)"),
    ])

    /// What XIVA heard from APNs, and the pushes it sent again.
    static let providerAnswers = CounterGroup(
        "apns answers", json: "provider", heading: "APNs' answers to XIVA", place: .afterCauses,
        shown: { $0.provider.retries + $0.provider.answersLost + $0.provider.throttledAnswers + $0.provider.serverErrors > 0 }, isEmpty: { $0.provider == ProviderCounters() }, [
            Counter("throttled_answers", \.provider.throttledAnswers, json: "throttled_answers", label: "  429 TooManyRequests"),
            Counter("server_errors", \.provider.serverErrors, json: "server_errors", label: "  5xx server errors"),
            Counter("answers_lost", \.provider.answersLost, json: "answers_lost", label: "  answers lost"),
            Counter("retries", \.provider.retries, json: "retries", label: "  pushes sent again"),
        ])
}
