// What a finite-capacity XIVA (`xiva.capacity`) counted of its re-requests against the extension's deadline, declared once.

/// Every re-request the queue arm sent with a finite XIVA capacity ends in exactly one of these
/// (docs/model.md §6, "Answered in time"): answered in time — XIVA's answer is a success, not an
/// error, and reaches the extension at or before the extension's deadline — or not (an error,
/// a queue time-out, an outage, or an answer after the deadline). Zero with `capacity: forever`,
/// so runs without a finite capacity keep their bytes.
package struct XivaCapacityCounters: CounterSet {
    package var answeredInTime = 0
    package var notInTime = 0
    package init() {}

    /// The re-requests counted here: the queue arm's `re_requests` when the capacity is finite.
    package var reRequests: Int { answeredInTime + notInTime }

    /// The share of re-requests answered in time; nil without any.
    package var inTimeShare: Double? {
        reRequests > 0 ? Double(answeredInTime) / Double(reRequests) : nil
    }

    /// Shown once a finite-capacity run sent a re-request. `not_in_time` is compared by
    /// `pushsim check` (up is worse) and is the noise of the share's comparison.
    package static let group = CounterGroup("xiva.capacity", json: "xiva_capacity", place: .queueBlock, arms: .queueArm,
                                            shown: { $0.xivaCapacity.reRequests > 0 }, isEmpty: { $0.xivaCapacity == XivaCapacityCounters() }, [
        Counter("xiva_answered_in_time", \.xivaCapacity.answeredInTime, json: "answered_in_time",
                label: "  XIVA: answered in time"),
        Counter("xiva_not_in_time", \.xivaCapacity.notInTime, json: "not_in_time",
                label: "  XIVA: not answered in time", checked: true),
    ], shares: [
        CounterShare(json: "in_time_share", label: "  XIVA: share answered in time",
                     numerator: \.xivaCapacity.answeredInTime, complement: \.xivaCapacity.notInTime),
    ])
}
