// Who waits in one XIVA partition's queue, as the results count it: the most at once, in total, per segment, per minute.

/// Follows the waiting re-requests of one partition (the one in service excluded) that count
/// (docs/model.md §5, Warm-up: re-requests of counted letters), tagged with their device's
/// segment, for `max_queue` in total and per segment and for the queue's minute-by-minute series.
///
/// The waiting count only grows when one joins, so its maxima are taken at joins; a minute's
/// most is the larger of the count as the minute starts and the counts after its joins.
package struct XivaQueueWatch {
    private static let minute = 60 * SimTime.second

    /// When each waiting one leaves the queue, with its tag: served ones at their start,
    /// timed-out ones when they give up. Each list is nondecreasing, as in ``XivaServer``.
    private var starts: [(leave: Int64, tag: Int)] = []
    private var startCursor = 0
    private var giveUps: [(leave: Int64, tag: Int)] = []
    private var giveUpCursor = 0

    private(set) var waiting = 0
    private var waitingBySegment: [Int]
    package private(set) var maxQueue = 0
    package private(set) var maxQueueBySegment: [Int]
    package private(set) var series = XivaQueueSeries()
    private let keepsSeries: Bool
    /// The last minute whose starting count has been noted (-1: none yet).
    private var minuteNoted = -1

    init(segments: Int, series: Bool) {
        waitingBySegment = Array(repeating: 0, count: max(1, segments))
        maxQueueBySegment = waitingBySegment
        keepsSeries = series
    }

    /// A re-request sent at `sent` joined and leaves the queue at `leave` (`leave == sent`: it
    /// never waited). `tag`: its device's segment (0 without segments), nil if it does not count.
    mutating func joined(sentAt sent: Int64, leavesAt leaving: Int64, tag: Int?, timedOut: Bool) {
        passMinutes(upTo: sent)
        leave(upTo: sent)
        guard let tag, leaving > sent else { return }
        if timedOut { giveUps.append((leaving, tag)) } else { starts.append((leaving, tag)) }
        waiting += 1
        waitingBySegment[tag] += 1
        maxQueue = max(maxQueue, waiting)
        maxQueueBySegment[tag] = max(maxQueueBySegment[tag], waitingBySegment[tag])
        if keepsSeries { series.note(minute: Int(sent / XivaQueueWatch.minute), count: waiting) }
    }

    /// The end of the run: the minutes before it in which some still waited.
    package mutating func finish(end: Int64) {
        guard end > 0 else { return }
        passMinutes(upTo: end - 1)
    }

    /// Notes the count at the start of every minute up to the one holding `t`, while any wait.
    private mutating func passMinutes(upTo t: Int64) {
        guard keepsSeries else { return }
        let last = Int(t / XivaQueueWatch.minute)
        while minuteNoted < last {
            guard waiting > 0 else { minuteNoted = last; return }
            minuteNoted += 1
            leave(upTo: Int64(minuteNoted) * XivaQueueWatch.minute)
            series.note(minute: minuteNoted, count: waiting)
        }
    }

    /// Those leaving at or before `t` are no longer waiting (at one instant, those leaving go
    /// before one joining).
    private mutating func leave(upTo t: Int64) {
        while startCursor < starts.count && starts[startCursor].leave <= t {
            waiting -= 1; waitingBySegment[starts[startCursor].tag] -= 1; startCursor += 1
        }
        while giveUpCursor < giveUps.count && giveUps[giveUpCursor].leave <= t {
            waiting -= 1; waitingBySegment[giveUps[giveUpCursor].tag] -= 1; giveUpCursor += 1
        }
        if startCursor > 1024 && startCursor * 2 > starts.count { starts.removeFirst(startCursor); startCursor = 0 }
        if giveUpCursor > 1024 && giveUpCursor * 2 > giveUps.count { giveUps.removeFirst(giveUpCursor); giveUpCursor = 0 }
    }
}
