// What the provider's side of APNs counted (docs/model.md §9), declared once.

extension CounterGroup {
    /// Letters outside `letters` because the app was uninstalled (not counted in `letters`:
    /// no chain could have delivered them).
    static let undeliverable = CounterGroup("device.uninstall", json: nil, place: .afterCauses, shown: { $0.undeliverable > 0 }, [
        Counter("undeliverable", \.undeliverable, json: "undeliverable", label: "undeliverable (app uninstalled, not in letters)"),
    ])

    /// What XIVA heard from APNs, and the pushes it sent again.
    static let providerAnswers = CounterGroup(
        "apns answers", json: "provider", heading: "APNs' answers to XIVA", place: .afterCauses,
        shown: { $0.retries + $0.answersLost + $0.throttledAnswers + $0.serverErrors > 0 }, [
            Counter("throttled_answers", \.throttledAnswers, json: "throttled_answers", label: "  429 TooManyRequests"),
            Counter("server_errors", \.serverErrors, json: "server_errors", label: "  5xx server errors"),
            Counter("answers_lost", \.answersLost, json: "answers_lost", label: "  answers lost"),
            Counter("retries", \.retries, json: "retries", label: "  pushes sent again"),
        ])
}
