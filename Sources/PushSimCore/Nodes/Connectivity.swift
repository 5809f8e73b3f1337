// When a device is online: a stationary alternating process with fixed offline windows on top.

/// The instants at which one device's connectivity flips, over [0, end).
package struct ConnectivityTimeline {
    /// Flip instants, strictly increasing; the state alternates from `onlineAtStart`.
    package var flips: [Int64] = []
    /// Where the drawing stands, when the flips are drawn a few at a time
    /// (ConnectivityOnDemand.swift); nil when `flips` is the whole timeline.
    var onDemand: TimelineDrawing? = nil
    /// After the flips, so that the world's next one-byte field fits in the timeline's tail
    /// padding.
    package var onlineAtStart = true

    package init() {}

    /// Whether the device is online at time t: the state after every flip at or before t
    /// (windows are [start, end)).
    package func isOnline(at t: Int64) -> Bool {
        var cursor = 0
        return isOnline(at: t, cursor: &cursor)
    }

    /// `isOnline(at:)` for instants asked about in nearly increasing order: `cursor` (the
    /// number of flips at or before the previous instant) moves from where it was, one or two
    /// steps for such a sequence, either way for any other.
    @inline(__always) func isOnline(at t: Int64, cursor: inout Int) -> Bool {
        while cursor < flips.count && flips[cursor] <= t { cursor += 1 }
        while cursor > 0 && flips[cursor - 1] > t { cursor -= 1 }
        return onlineAtStart == (cursor % 2 == 0)
    }

    /// Whether every device of `scenario` has the same timeline: no alternating process and no
    /// window laid out per device, only windows that every device shares.
    static func isSameForEveryDevice(_ scenario: Scenario) -> Bool {
        ConnectivityProcess(scenario) == nil && scenario.connectivity.windows.allSatisfy(\.isSameForEveryDevice)
    }

    /// Builds the timeline of one device: the alternating process, merged with the windows
    /// (`windows` those laid out once per run, plus the device's own when some differ).
    mutating func generate(_ scenario: Scenario, device: Int, windows sharedWindows: [Range<Int64>],
                           scratch: inout [Range<Int64>], deviceScratch: inout [Range<Int64>]) {
        var windows = sharedWindows
        if scenario.connectivity.windows.contains(where: { !$0.isSameForEveryDevice }) {
            ConnectivityTimeline.deviceWindowIntervals(scenario, device: device, shared: sharedWindows, into: &deviceScratch)
            windows = deviceScratch
        }
        onDemand = nil
        flips.removeAll(keepingCapacity: true)
        scratch.removeAll(keepingCapacity: true)
        let end = scenario.end.microseconds
        if let process = ConnectivityProcess(scenario) {
            var rng = RandomStream(seed: scenario.seed, device: device, purpose: .connectivity)
            AlternatingProcess.intervalsOfSecondState(first: process.online, second: process.offline, rng: &rng, end: end, into: &scratch)
        }
        // Union of the two sorted lists of offline intervals.
        var merged: [Range<Int64>] = []
        merged.reserveCapacity(scratch.count + windows.count)
        var i = 0, j = 0
        while i < scratch.count || j < windows.count {
            let next: Range<Int64>
            if j >= windows.count || (i < scratch.count && scratch[i].lowerBound <= windows[j].lowerBound) {
                next = scratch[i]; i += 1
            } else {
                next = windows[j]; j += 1
            }
            if let last = merged.last, next.lowerBound <= last.upperBound {
                if next.upperBound > last.upperBound {
                    merged[merged.count - 1] = last.lowerBound..<next.upperBound
                }
            } else {
                merged.append(next)
            }
        }
        onlineAtStart = !(merged.first.map { $0.lowerBound <= 0 } ?? false)
        for interval in merged {
            if interval.lowerBound > 0 { flips.append(interval.lowerBound) }
            if interval.upperBound < end { flips.append(interval.upperBound) }
        }
    }

    /// The fixed windows of a scenario as sorted, merged offline intervals within [0, end).
    /// A window with `every` repeats for every whole k, including those that began before 0,
    /// so a night window covers the early hours of the first day too.
    package static func windowIntervals(_ scenario: Scenario) -> [Range<Int64>] {
        windowIntervals(scenario.connectivity.windows, end: scenario.end.microseconds)
    }

    /// The windows of `list` that are the same for every device, laid out over [0, end) as
    /// sorted, merged intervals (connectivity windows, and FCM's doze windows).
    static func windowIntervals(_ list: [OfflineWindow], end: Int64) -> [Range<Int64>] {
        var intervals: [Range<Int64>] = []
        for window in list where window.isSameForEveryDevice {
            let start = window.start.microseconds, stop = window.end.microseconds
            guard stop > start else { continue }
            if let period = window.every, !period.isForever, period.microseconds > 0 {
                let every = period.microseconds
                if stop - start >= every { intervals.append(0..<end); continue }
                // Start at the first repetition that still reaches past time 0 (its offset
                // −⌊(stop−1)/every⌋·every lies in (−stop, 0], so it cannot overflow), then step
                // by `every` with checked additions: a window far in the future ends the loop.
                var shift = -((stop - 1) / every) * every
                while true {
                    let (s, o1) = start.addingReportingOverflow(shift)
                    let (e, o2) = stop.addingReportingOverflow(shift)
                    if o1 || o2 || s >= end { break }
                    if e > 0 { intervals.append(max(s, 0)..<min(e, end)) }
                    let (next, o3) = shift.addingReportingOverflow(every)
                    if o3 { break }
                    shift = next
                }
            } else if start < end && stop > 0 {
                intervals.append(max(start, 0)..<min(stop, end))
            }
        }
        return sortedAndMerged(intervals)
    }

    /// `windows` with this device's offsets (docs/model.md §5, Windows per device): a window with
    /// a `spread` is shifted by an offset uniform in [0, spread), one draw from `rng` per such
    /// window in list order (whole microseconds, rounded down), and is then the same as one
    /// without; the others are as written and draw nothing. For the daily windows of Low Power
    /// Mode and Focus, whose `end` is fixed.
    static func shiftedBySpread(_ windows: [OfflineWindow], _ rng: inout RandomStream) -> [OfflineWindow] {
        windows.map { window in
            let spread = window.spread.microseconds
            guard spread > 0 else { return window }
            let offset = Int64(rng.nextUnit() * Double(spread))
            var shifted = OfflineWindow(start: SimTime(microseconds: window.start.microseconds + offset),
                                        end: SimTime(microseconds: window.end.microseconds + offset), every: window.every)
            shifted.length = window.length
            return shifted
        }
    }

    /// Intervals sorted by start, overlapping or touching ones merged.
    static func sortedAndMerged(_ intervals: [Range<Int64>]) -> [Range<Int64>] {
        let sorted = intervals.sorted { $0.lowerBound < $1.lowerBound }
        var merged: [Range<Int64>] = []
        merged.reserveCapacity(sorted.count)
        for interval in sorted {
            if let last = merged.last, interval.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, interval.upperBound)
            } else {
                merged.append(interval)
            }
        }
        return merged
    }

    /// The offline intervals of device d's windows (docs/model.md §5, Windows per device), merged with the `shared` ones:
    /// per window entry, in file order, an offset uniform in [0, spread) drawn once, then the
    /// occurrences from the one that began in (−every, 0] onward, each with its own length
    /// drawn in order of k (or end − start). Its own stream, so other draws do not move.
    static func deviceWindowIntervals(_ scenario: Scenario, device: Int, shared: [Range<Int64>],
                                      into intervals: inout [Range<Int64>]) {
        intervals.removeAll(keepingCapacity: true)
        intervals.append(contentsOf: shared)
        let end = scenario.end.microseconds
        var rng = RandomStream(seed: scenario.seed, device: device, purpose: .windows)
        for window in scenario.connectivity.windows where !window.isSameForEveryDevice {
            let spread = window.spread.microseconds
            let offset = spread > 0 ? Int64(rng.nextUnit() * Double(spread)) : 0
            let (base, o1) = window.start.microseconds.addingReportingOverflow(offset)
            guard !o1 else { continue }
            let fixedLength = window.end.microseconds - window.start.microseconds
            func occurrence(at s: Int64) {
                let length = window.length.map { $0.sample(&rng).microseconds } ?? fixedLength
                let (e, o) = s.addingReportingOverflow(max(0, length))
                let stop = o ? Int64.max : e
                if stop > 0 && s < end && stop > s { intervals.append(max(s, 0)..<min(stop, end)) }
            }
            if let period = window.every, !period.isForever, period.microseconds > 0 {
                let every = period.microseconds
                var s = base % every
                if s > 0 { s -= every }     // the occurrence that began in (−every, 0]
                while s < end {
                    occurrence(at: s)
                    let (next, o) = s.addingReportingOverflow(every)
                    if o { break }
                    s = next
                }
            } else {
                occurrence(at: base)
            }
        }
        intervals = sortedAndMerged(intervals)
    }
}
