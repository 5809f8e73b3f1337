// What APNs' binary interface counted (docs/model.md §11, rule 6), declared once.

/// Notifications written on a connection, error packets APNs answered, notifications
/// discarded on a closed connection, and those of them the resend buffer wrote again (the
/// re-send load).
package struct BinaryCounters: CounterSet {
    package var written = 0
    package var errors = 0
    package var discarded = 0
    package var rewritten = 0
    package init() {}
}

extension CounterGroup {
    /// Notifications written on a connection, error packets APNs answered, notifications
    /// discarded on a closed connection, and those of them the resend buffer wrote again.
    static let binaryInterface = CounterGroup(
        "apns.interface: binary", json: "binary", heading: "APNs' binary interface", place: .afterCauses,
        shown: { $0.binary.written > 0 }, isEmpty: { $0.binary == BinaryCounters() }, [
            Counter("binary_written", \.binary.written, json: "written", label: "  notifications written"),
            Counter("binary_errors", \.binary.errors, json: "errors", label: "  error packets (connection closed)"),
            Counter("binary_discarded", \.binary.discarded, json: "discarded", label: "  discarded on a closed connection"),
            Counter("binary_rewritten", \.binary.rewritten, json: "rewritten", label: "  written again from the resend buffer",
                    perLetter: "rewrites_per_letter"),
        ])
}
