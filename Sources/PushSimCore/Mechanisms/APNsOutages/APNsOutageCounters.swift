// What `apns.outages` counted (docs/model.md §9, APNs outages), declared once.

/// XIVA's requests APNs refused (503) or left unanswered during one of its outages, by the
/// push's letter; the sends after them are `provider.retries`.
package struct APNsOutageCounters: CounterSet {
    package var refused = 0
    package var unanswered = 0
    package init() {}

    /// Shown once an outage met a request.
    package static let group = CounterGroup("apns.outages", json: "apns_outages", heading: "APNs' outages (XIVA's requests)", place: .afterCauses,
                                            shown: { $0.apnsOutages.refused + $0.apnsOutages.unanswered > 0 },
                                            isEmpty: { $0.apnsOutages == APNsOutageCounters() }, [
        Counter("apns_outage_refused", \.apnsOutages.refused, json: "refused", label: "  refused (503 ServiceUnavailable)"),
        Counter("apns_outage_unanswered", \.apnsOutages.unanswered, json: "unanswered", label: "  unanswered (APNs unreachable)"),
    ])
}
