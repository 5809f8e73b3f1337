// The per-hour summary a team computes from its extension's log: the observables `calibrate` reads.

/// The log's rows summarized per hour of simulated (or logged) time: hour h holds the rows with
/// `time_us` in [h·3600 s, (h+1)·3600 s). Only hours with at least one row are listed, in
/// ascending order, so the summary depends on the rows alone (not on the run's length), and a
/// team's own log gives the same kind of value as a simulated one (docs/model.md §2, "The
/// extension's log"). Computed from the rows in any order: the same rows give the same summary.
package struct ExtensionLogSummary: Equatable, Sendable {
    /// The gap-size histogram's buckets: sizes `lower...upper` (`upper` nil: and above).
    package static let gapBuckets: [(lower: Int, upper: Int?)] = [(1, 1), (2, 2), (3, 4), (5, 8), (9, 16), (17, 32), (33, 64), (65, nil)]

    /// The name of bucket `b` in the hourly CSV: `gaps_1`, `gaps_3_4`, `gaps_65_up`.
    package static func bucketName(_ b: Int) -> String {
        let bucket = gapBuckets[b]
        guard let upper = bucket.upper else { return "gaps_\(bucket.lower)_up" }
        return upper == bucket.lower ? "gaps_\(upper)" : "gaps_\(bucket.lower)_\(upper)"
    }

    /// The bucket holding a gap of `size` ≥ 1 positions.
    package static func bucket(ofGapSize size: Int) -> Int {
        gapBuckets.lastIndex { size >= $0.lower } ?? 0
    }

    /// One hour's figures.
    package struct Hour: Equatable, Sendable {
        /// Hours since time 0.
        package var hour: Int
        /// Rows logged (pushes the extensions saw).
        package var pushes = 0
        /// Rows with a gap found.
        package var gaps = 0
        /// Positions missing in those gaps, summed.
        package var missed = 0
        /// Gaps per bucket of ``ExtensionLogSummary/gapBuckets``.
        package var gapSizes = [Int](repeating: 0, count: ExtensionLogSummary.gapBuckets.count)
        /// Rows per answer, in the order of ``LogAnswer/allCases``.
        package var answers = [Int](repeating: 0, count: LogAnswer.allCases.count)
        /// Distinct devices with a row in the hour.
        package var devices = 0

        package init(hour: Int) { self.hour = hour }

        /// Gaps found per push logged (0 for an hour without pushes, which is never listed).
        package var gapsPerPush: Double { pushes == 0 ? 0 : Double(gaps) / Double(pushes) }
        /// Re-requests sent: rows whose answer says one was sent.
        package var reRequests: Int {
            zip(LogAnswer.allCases, answers).reduce(0) { $0 + ($1.0.reRequested ? $1.1 : 0) }
        }
        /// Rows with answer `answer`.
        package func count(_ answer: LogAnswer) -> Int { answers[answer.ordinal] }
    }

    package var hours: [Hour]

    package init(hours: [Hour]) { self.hours = hours }

    package static let microsecondsPerHour: Int64 = 3_600_000_000

    /// The summary of `rows`, in any order.
    package init(_ rows: some Sequence<LoggedPush>) {
        var hours: [Hour] = []
        var devices: [Set<Int>] = []
        var indexOfHour: [Int: Int] = [:]
        // Rows come by device then time, so the hour seldom changes from one row to the next.
        var lastHour = -1, last = -1
        for row in rows {
            let h = Int(row.time / Self.microsecondsPerHour)
            if h != lastHour {
                if let known = indexOfHour[h] {
                    last = known
                } else {
                    last = hours.count
                    indexOfHour[h] = last
                    hours.append(Hour(hour: h))
                    devices.append([])
                }
                lastHour = h
            }
            hours[last].pushes += 1
            if row.gapFound {
                hours[last].gaps += 1
                hours[last].missed += row.gapSize
                hours[last].gapSizes[Self.bucket(ofGapSize: row.gapSize)] += 1
            }
            hours[last].answers[row.answer.ordinal] += 1
            devices[last].insert(row.device)
        }
        for i in hours.indices { hours[i].devices = devices[i].count }
        // Sorted by hour: nothing depends on the order the rows came in.
        self.hours = hours.sorted { $0.hour < $1.hour }
    }

    /// Pushes logged and gaps found by hour of the day, 0 to 23: every day's hour h together
    /// (hours before time 0 too), as gaps per push by hour are read (`calibrate`).
    package var byHourOfDay: [(pushes: Int, gaps: Int)] {
        var out = Array(repeating: (pushes: 0, gaps: 0), count: 24)
        for h in hours {
            let hour = ((h.hour % 24) + 24) % 24
            out[hour].pushes += h.pushes; out[hour].gaps += h.gaps
        }
        return out
    }

    /// The whole log's figures in one `Hour` (its `hour` is -1; `devices` is not defined across hours and is 0).
    package var total: Hour {
        var all = Hour(hour: -1)
        for h in hours {
            all.pushes += h.pushes; all.gaps += h.gaps; all.missed += h.missed
            for b in all.gapSizes.indices { all.gapSizes[b] += h.gapSizes[b] }
            for a in all.answers.indices { all.answers[a] += h.answers[a] }
        }
        return all
    }
}
