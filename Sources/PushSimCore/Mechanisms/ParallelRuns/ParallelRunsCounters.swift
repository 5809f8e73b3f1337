// What `extension.concurrency: parallel` counted (queue arm), declared once.

/// Runs that read a saved position older than a serial run would have read; gaps a serial run
/// would have re-requested that the stale read did not; re-requests a serial run would not
/// have sent; positions re-requested that had already reached the extension (each one re-sent
/// is shown twice).
package struct ParallelRunsCounters: CounterSet {
    package var staleReads = 0
    package var missedGaps = 0
    package var needlessReRequests = 0
    package var needlessPositions = 0
    package init() {}
}

extension CounterGroup {
    /// Runs that read a saved position older than a serial run would have, and what that changed.
    static let parallelRuns = CounterGroup("extension.concurrency", json: "parallel_runs", place: .queueBlock, arms: .queueArm,
                                           shown: { $0.parallelRuns.staleReads > 0 }, isEmpty: { $0.parallelRuns == ParallelRunsCounters() }, [
        Counter("stale_reads", \.parallelRuns.staleReads, json: "stale_reads", label: "  parallel runs: stale reads"),
        Counter("missed_gaps", \.parallelRuns.missedGaps, json: "missed_gaps", label: "  parallel runs: missed gaps"),
        Counter("needless_re_requests", \.parallelRuns.needlessReRequests, json: "needless_re_requests", label: "  parallel runs: needless re-requests"),
        Counter("needless_positions", \.parallelRuns.needlessPositions, json: "needless_positions", label: "  parallel runs: needless positions"),
    ])
}
