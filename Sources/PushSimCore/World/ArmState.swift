// Which arm a device's world is running, and what that arm fixes for the whole run.

/// The arm being run: the device, whether the arm runs the gap check, its random streams, and
/// the first letter it counts.
struct ArmState: ~Copyable {
    var device = 0
    /// Whether this arm runs the gap check: the queue arm of the queue design (`recovery: queue`).
    var checksGaps = false
    /// Whether this arm counts into its part's ledger (the cell of the ``SettledLetters`` it was
    /// given) rather than its own: the run then adds nothing at the world's end. Kept beside the
    /// other flags, in their padding.
    var countsIntoPart = false
    /// The most letters this arm's world held since it last gave back room (WorldRoomTrim.swift);
    /// 16 bits, so it fits the flags' padding.
    var mostHeld: UInt16 = 0
    /// Warm-up letters with a position that this arm settled in flight (WorldSettlement.swift):
    /// the telemetry takes the warm-up's positions off, and those letters are no longer held.
    var settledWarmupPositions: Int32 = 0
    var streams = ArmStreams()
    /// The first letter counted (docs/model.md §5, Warm-up): letters are in time order, so those before it are the
    /// warm-up's. Every per-letter count adds `counted(i)`.
    var firstCounted = 0
    /// Where this arm settles letters in flight, when it may (WorldSettlement.swift); nil: it
    /// keeps every letter until its accounts close.
    var settled: SettledLetters? = nil
}
