// What `extension.concurrency: parallel` counted (queue arm), declared once.

extension CounterGroup {
    /// Runs that read a saved position older than a serial run would have, and what that changed.
    static let parallelRuns = CounterGroup("extension.concurrency", json: "parallel_runs", place: .queueBlock, arms: .queueArm,
                                           shown: { $0.staleReads > 0 }, [
        Counter("stale_reads", \.staleReads, json: "stale_reads", label: "  parallel runs: stale reads"),
        Counter("missed_gaps", \.missedGaps, json: "missed_gaps", label: "  parallel runs: missed gaps"),
        Counter("needless_re_requests", \.needlessReRequests, json: "needless_re_requests", label: "  parallel runs: needless re-requests"),
        Counter("needless_positions", \.needlessPositions, json: "needless_positions", label: "  parallel runs: needless positions"),
    ])
}
