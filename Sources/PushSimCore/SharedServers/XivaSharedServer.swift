// XIVA's re-request queue shared by a partition's devices (finite capacity): joins, answers, and what the results count.

/// A re-request waiting to join its partition's queue: the request, when it was sent, and its
/// `request_latency` (drawn when it was sent, so the streams stay in step with capacity forever).
struct XivaJoin {
    // Ordered by size, so that a count fits in the tail padding of the one a world holds inline (MechanismStates).
    var sentAt: Int64
    var latency: Int64
    var request: RequestIndex

    init(request: RequestIndex, sentAt: Int64, latency: Int64) {
        self.request = request
        self.sentAt = sentAt
        self.latency = latency
    }
}

/// One partition's server as the worlds of the partition share it (docs/model.md §6): the
/// first-come-first-served ``XivaServer`` and the ``XivaQueueWatch`` that counts its queue.
package struct XivaPartitionServer: SharedServer {
    package private(set) var server: XivaServer
    package private(set) var watch: XivaQueueWatch
    /// The segment of each world of the partition (by its index there); empty or nils without segments.
    private let segments: [Int?]

    /// The server of a partition of `scenario`'s run, whose worlds are of the segments `segments`.
    package init(scenario: Scenario, segments: [Int?], seriesWanted: Bool) {
        self.init(parameters: ChainParameters(scenario), end: scenario.end.microseconds, segments: segments, seriesWanted: seriesWanted)
    }

    init(parameters: ChainParameters, end: Int64, segments: [Int?], seriesWanted: Bool) {
        server = XivaServer(service: parameters.xivaService, timeout: parameters.queueTimeout, end: end)
        let segmentCount = (segments.compactMap { $0 }.max() ?? -1) + 1
        watch = XivaQueueWatch(segments: segmentCount, series: seriesWanted)
        self.segments = segments
    }

    /// The re-requests world `device` sent at `now` join the queue, in sending order.
    package mutating func collect(from world: inout DeviceWorld, device: Int, at now: Int64) {
        let count = world.mechanisms.joiningCount
        guard count > 0 else { return }
        for k in 0..<count {
            let join = world.mechanisms.join(at: k)
            let outcome = server.join(sentAt: join.sentAt)
            let counts = world.xivaQueueAnswers(join, outcome)
            // Tagged with the device's segment (0 without segments); untagged when its letter is not counted.
            let segment = segments.indices.contains(device) ? segments[device] : nil
            let tag: Int? = counts ? segment ?? 0 : nil
            switch outcome {
            case .served(let start, _): watch.joined(sentAt: join.sentAt, leavesAt: start, tag: tag, timedOut: false)
            case .timedOut(let givenUp): watch.joined(sentAt: join.sentAt, leavesAt: givenUp, tag: tag, timedOut: true)
            }
        }
        world.mechanisms.removeJoining()
    }
}

extension DeviceWorld {
    /// The partition's queue has taken re-request `join` (docs/model.md §6): its answer is back
    /// `request_latency` after its service ends, or, when it would wait past the queue time-out,
    /// an error `request_latency` after it gives up; rule 6 on that answer time. Returns whether
    /// it counts (its letter is counted), for the queue's own figures.
    mutating func xivaQueueAnswers(_ join: XivaJoin, _ outcome: XivaServerOutcome) -> Bool {
        let run = ext.runs[ext.requests[join.request].run]
        let counts = counted(copies[run.copy].letter.offset)
        switch outcome {
        case .served(let start, let finish):
            if start < clock.end {
                ledger.xivaServed += counts
                if counts == 1 { ledger.xivaMaxWaitMicroseconds = max(ledger.xivaMaxWaitMicroseconds, Int(start - join.sentAt)) }
            }
            let answerAt = later(finish, join.latency)
            scheduleAnswer(request: join.request, at: answerAt) { late in
                .reRequestServed(low: run.gapLow, high: run.gapHigh, waited: SimTime(microseconds: start - join.sentAt),
                                 answerIn: SimTime(microseconds: answerAt - join.sentAt), lateDeadline: late)
            }
        case .timedOut(let givenUp):
            ext.requests[join.request].failed = true
            if givenUp < clock.end { ledger.xivaErrors += counts }
            let answerAt = later(givenUp, join.latency)
            scheduleAnswer(request: join.request, at: answerAt) { late in
                .reRequestTimedOut(low: run.gapLow, high: run.gapHigh, answerIn: SimTime(microseconds: answerAt - join.sentAt),
                                   lateDeadline: late)
            }
        }
        return counts == 1
    }
}
