// APNs' outage windows: what APNs answers XIVA in one, and which phones it concerns.

/// What XIVA hears from APNs during an outage (docs/model.md §9, APNs outages).
package enum APNsOutageAnswer: String, Sendable, CaseIterable {
    /// APNs answers every request with 503 ServiceUnavailable.
    case refused
    /// APNs cannot be reached: no answer comes back, and XIVA treats it as a time-out.
    case unreachable
}

/// An APNs outage: a window with constant times (as XIVA's, ``XivaOutage``) that concerns the
/// phones of one segment (or all) and, among them, a share drawn once per phone and outage.
package struct APNsOutage: Hashable, Sendable {
    package var window: XivaOutage
    /// The share of the phones it concerns, in (0, 1]; each phone draws once per outage from
    /// the stream `apnsOutages`, in the order the outages are written (1: no draw decides).
    package var share: Double = 1
    /// The segment whose phones it concerns; nil: every phone.
    package var segment: String? = nil
    package var answer: APNsOutageAnswer = .refused

    package init(window: XivaOutage, share: Double = 1, segment: String? = nil, answer: APNsOutageAnswer = .refused) {
        self.window = window; self.share = share; self.segment = segment; self.answer = answer
    }
}
