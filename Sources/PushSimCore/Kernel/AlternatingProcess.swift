// An alternating process in equilibrium at time 0: the intervals its second state covers.

enum AlternatingProcess {
    /// Appends the intervals of state B within [0, end) of a process that alternates independent
    /// periods of A and B drawn from their laws. At time 0 it is in A with probability
    /// mean(A) / (mean(A) + mean(B)), and the period under way has a residual length (the
    /// stationary start of docs/model.md §1). Connectivity (online, offline) and sleep (awake,
    /// asleep) are both such processes.
    static func intervalsOfSecondState(first a: Distribution, second b: Distribution, rng: inout RandomStream,
                                       end: Int64, into intervals: inout [Range<Int64>]) {
        let shareFirst = a.mean / (a.mean + b.mean)
        var inFirst = rng.nextUnit() < shareFirst
        // The first period is already under way at time 0: its remaining length is residual.
        var periodEnd = (inFirst ? a : b).sampleResidual(&rng).microseconds
        var periodStart: Int64 = 0
        while true {
            if !inFirst && periodEnd > periodStart {
                intervals.append(periodStart..<min(periodEnd, end))
            }
            if periodEnd >= end { break }
            inFirst.toggle()
            periodStart = periodEnd
            let length = (inFirst ? a : b).sample(&rng).microseconds
            let (next, overflow) = periodStart.addingReportingOverflow(length)
            periodEnd = overflow ? Int64.max : next
        }
    }
}
