// What APNs' binary interface counted (docs/model.md §11, rule 6), declared once.

extension CounterGroup {
    /// Notifications written on a connection, error packets APNs answered, notifications
    /// discarded on a closed connection, and those of them the resend buffer wrote again.
    static let binaryInterface = CounterGroup(
        "apns.interface: binary", json: "binary", heading: "APNs' binary interface", place: .afterCauses,
        shown: { $0.binaryWritten > 0 }, [
            Counter("binary_written", \.binaryWritten, json: "written", label: "  notifications written"),
            Counter("binary_errors", \.binaryErrors, json: "errors", label: "  error packets (connection closed)"),
            Counter("binary_discarded", \.binaryDiscarded, json: "discarded", label: "  discarded on a closed connection"),
            Counter("binary_rewritten", \.binaryRewritten, json: "rewritten", label: "  written again from the resend buffer",
                    perLetter: "rewrites_per_letter"),
        ])
}
