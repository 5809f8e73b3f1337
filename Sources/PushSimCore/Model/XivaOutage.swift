// XIVA's outage windows: their type, and their layout over a run as disjoint intervals.

/// What happens to a letter reaching XIVA during an outage (docs/model.md §6).
package enum XivaOutageMode: String, Sendable, CaseIterable {
    /// Held, and numbered when the outage ends.
    case delay
    /// Dropped (cause `xiva_outage`).
    case drop
}

/// An outage: XIVA is out in [start + k·every, end + k·every) for every whole k (once without
/// `every`). The times are constant and the same for every device, unlike connectivity windows.
package struct XivaOutage: Hashable, Sendable {
    package var start: SimTime
    /// The end of the occurrence at k = 0, always after `start` (an `end` at or before `start`
    /// with `every` is stored as the next period's, as for connectivity windows).
    package var end: SimTime
    /// nil: the outage happens once.
    package var every: SimTime?

    package init(start: SimTime, end: SimTime, every: SimTime? = nil) {
        self.start = start; self.end = end; self.every = every
    }

    /// The most occurrences a run lays out; more is refused when the scenario is read, so the
    /// layout's cost stays bounded whatever the periods.
    package static let occurrenceLimit = 1_000_000

    /// The occurrences of `outages` that reach into [0, runEnd], in time order, as
    /// (interval, index of the outage). nil when there would be more than ``occurrenceLimit``.
    /// Overflow-free: the decoder checks that `runEnd + every` fits the clock.
    package static func layout(_ outages: [XivaOutage], runEnd: SimTime) -> [(interval: Range<Int64>, outage: Int)]? {
        var out: [(interval: Range<Int64>, outage: Int)] = []
        let stop = runEnd.microseconds
        for (index, outage) in outages.enumerated() {
            let start = outage.start.microseconds, end = outage.end.microseconds
            guard let every = outage.every?.microseconds else {
                if end > 0 && start <= stop { out.append((start..<end, index)) }
                continue
            }
            // The first k whose occurrence ends after 0 (the schedule was already running).
            var k = end > 0 ? -((end - 1) / every) : (-end) / every + 1
            while true {
                let (shift, o1) = k.multipliedReportingOverflow(by: every)
                let (a, o2) = start.addingReportingOverflow(shift)
                let (b, o3) = end.addingReportingOverflow(shift)
                if o1 || o2 || o3 || a > stop { break }
                if b > 0 { out.append((a..<b, index)) }
                if out.count > occurrenceLimit { return nil }
                k += 1
            }
        }
        out.sort { $0.interval.lowerBound != $1.interval.lowerBound ? $0.interval.lowerBound < $1.interval.lowerBound : $0.outage < $1.outage }
        return out
    }
}
