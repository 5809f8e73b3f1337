// One XIVA partition's re-request server: first come first served, with a queue time-out (docs/model.md §6).

/// The devices of XIVA partition `p` of `count` (docs/model.md §6): the contiguous range
/// `[floor(devices·p/count), floor(devices·(p+1)/count))`, computed without a product that
/// could overflow, so partitions differ in size by at most one device.
package func xivaPartitionDevices(_ p: Int, of count: Int, devices: Int) -> Range<Int> {
    func bound(_ q: Int) -> Int {
        let n = max(1, count)
        let (quotient, remainder) = devices.quotientAndRemainder(dividingBy: n)
        // devices·q/n = quotient·q + remainder·q/n; remainder·q < n·n stays small.
        return quotient * q + (remainder * q) / n
    }
    let p = min(max(0, p), max(1, count))
    return bound(p)..<bound(min(p + 1, max(1, count)))
}

/// What the server does with one re-request.
package enum XivaServerOutcome: Equatable, Sendable {
    /// Served from `start`; its service ends at `finish` (`start + 1/capacity`).
    case served(start: Int64, finish: Int64)
    /// It would wait longer than the queue time-out: never served, given up at `givenUpAt`.
    case timedOut(givenUpAt: Int64)
}

/// The server of one partition. The caller offers re-requests in the order the queue is
/// joined (sending time, then device, then sending order — docs/model.md §6); since service
/// is first come first served and its length fixed, each one's start is known when it joins,
/// so the server keeps only when it is next free and when the waiting ones leave the queue.
package struct XivaServer: Sendable {
    /// One service, `1/capacity` rounded half up to a microsecond.
    package let service: Int64
    /// The longest wait still served (`forever`: `Int64.max`).
    package let timeout: Int64
    /// The end of the run: a service that starts at or after it is not counted as served.
    package let end: Int64

    package private(set) var served = 0
    package private(set) var errors = 0
    /// The most re-requests waiting at one instant (the one in service excluded).
    package private(set) var maxQueue = 0
    /// The longest `start − sent` of a served re-request, in microseconds.
    package private(set) var maxWait: Int64 = 0

    /// When the server finishes what it has accepted so far.
    private var freeAt = Int64.min
    /// When each waiting re-request leaves the queue: starts of served ones and give-up times
    /// of timed-out ones. Each list is nondecreasing (joins come in time order), so a cursor
    /// into each replaces a heap.
    private var startsAhead: [Int64] = []
    private var startCursor = 0
    private var giveUpsAhead: [Int64] = []
    private var giveUpCursor = 0

    package init(capacityPerMicrosecond: Double, timeout: SimTime, end: Int64) {
        self.init(service: XivaServer.service(capacityPerMicrosecond: capacityPerMicrosecond), timeout: timeout.microseconds, end: end)
    }

    init(service: Int64, timeout: Int64, end: Int64) {
        self.service = service
        self.timeout = timeout
        self.end = end
    }

    /// One service at `capacity` re-requests per microsecond: `1/capacity`, rounded half up.
    static func service(capacityPerMicrosecond: Double) -> Int64 {
        SimTime.rounding(1 / capacityPerMicrosecond).microseconds
    }

    /// A re-request sent at `sent` joins the queue; `sent` must not precede an earlier join's.
    package mutating func join(sentAt sent: Int64) -> XivaServerOutcome {
        // Whoever left the queue at or before this instant is no longer waiting.
        while startCursor < startsAhead.count && startsAhead[startCursor] <= sent { startCursor += 1 }
        while giveUpCursor < giveUpsAhead.count && giveUpsAhead[giveUpCursor] <= sent { giveUpCursor += 1 }
        compact()
        let start = max(sent, freeAt)
        let outcome: XivaServerOutcome
        if start - sent > timeout {
            errors += 1
            let givenUp = SimTime.saturatingSum(sent, timeout)
            giveUpsAhead.append(givenUp)
            outcome = .timedOut(givenUpAt: givenUp)
        } else {
            freeAt = SimTime.saturatingSum(start, service)
            if start < end {
                served += 1
                maxWait = max(maxWait, start - sent)
            }
            if start > sent { startsAhead.append(start) }
            outcome = .served(start: start, finish: freeAt)
        }
        maxQueue = max(maxQueue, waiting)
        return outcome
    }

    /// Re-requests waiting now (as of the last join).
    package var waiting: Int { (startsAhead.count - startCursor) + (giveUpsAhead.count - giveUpCursor) }

    /// Drops the passed part of the lists once it is most of them, so memory follows the
    /// queue's length rather than the run's re-requests.
    private mutating func compact() {
        if startCursor > 1024 && startCursor * 2 > startsAhead.count {
            startsAhead.removeFirst(startCursor); startCursor = 0
        }
        if giveUpCursor > 1024 && giveUpCursor * 2 > giveUpsAhead.count {
            giveUpsAhead.removeFirst(giveUpCursor); giveUpCursor = 0
        }
    }
}
