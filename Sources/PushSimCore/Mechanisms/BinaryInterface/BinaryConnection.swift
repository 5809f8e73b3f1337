// One XIVA partition's connection over APNs' legacy binary interface: ordered writes, error packets, discards and the resend buffer (docs/model.md §11).

/// What became of one notification written on the connection.
package enum BinaryWriteOutcome: Equatable, Sendable {
    /// It reached APNs at `arrival` (its write's end) and was taken: no answer comes back.
    case accepted(arrival: Int64)
    /// It was malformed: APNs rejects it at `arrival` and closes the connection; XIVA hears of
    /// it at `errorHeardAt` and opens a new connection then.
    case rejected(arrival: Int64, errorHeardAt: Int64)
    /// It reached a connection already closed by an earlier error and was dropped silently.
    /// Whether XIVA can write it again is only known at `checkAt` (the error's instant): ask
    /// ``BinaryConnection/isStillBuffered(_:)`` with `write` then.
    case discarded(arrival: Int64, checkAt: Int64, write: BinaryWrite)
}

/// A discarded write, as the buffer check at the error's instant names it.
package struct BinaryWrite: Equatable, Sendable {
    /// Which error closed the connection it reached (0, 1, … in the order of the errors).
    package var closure: Int
    /// Its place among every write on the connection (0, 1, …).
    package var sequence: Int
}

/// The connection of one partition. Writes are offered in the order they join (instant, then
/// device, then sending order — docs/model.md §11 rule 1); since writes are first come first
/// served and each takes the same time, each one's end is known when it joins, and so is
/// whether an earlier error has closed the connection by then. The one open question, whether
/// a discarded write is still among the last N written when XIVA hears of the error, is
/// answered at that instant, when every write that ended before it is known.
package struct BinaryConnection: Sendable {
    /// One write: `1/connection_rate`, rounded half up to a microsecond (0 for `forever`).
    package let writeTime: Int64
    /// How many of the latest writes XIVA keeps to write again after an error.
    package let bufferSize: Int

    package private(set) var written = 0
    package private(set) var errors = 0
    package private(set) var discarded = 0
    package private(set) var rewritten = 0

    /// When the writes accepted so far are all written.
    private var freeAt = Int64.min
    /// The latest error: its notification's arrival `w` (the close) and when XIVA hears of it
    /// `e`. Writes ending in `(w, e)` — or at `w` after the bad one — reach a closed connection.
    private var closedAt = Int64.min
    private var reopensAt = Int64.min
    /// The sequence of the last write that each error's closed connection received.
    private var lastDiscardedSequence: [Int] = []

    package init(writeTime: Int64, bufferSize: Int) {
        self.writeTime = max(0, writeTime)
        self.bufferSize = max(0, bufferSize)
    }

    /// One write at `rate` notifications per microsecond: `1/rate` rounded half up; none for
    /// an infinite rate (`forever`).
    package static func writeTime(ratePerMicrosecond rate: Double?) -> Int64 {
        guard let rate, rate > 0, rate.isFinite else { return 0 }
        return SimTime.rounding(1 / rate).microseconds
    }

    /// A notification joins the write queue at `join` (not before an earlier join). `malformed`
    /// is its draw; `errorDelay` is called only when it is rejected, for the error's round trip.
    package mutating func write(joiningAt join: Int64, malformed: Bool, errorDelay: () -> Int64) -> BinaryWriteOutcome {
        let start = max(join, freeAt)
        let arrival = SimTime.saturatingSum(start, writeTime)
        freeAt = arrival
        let sequence = written
        written += 1
        // Ends are nondecreasing, so an error before this write is the latest one; a write
        // ending at the error's instant goes on the new connection.
        if arrival >= closedAt && arrival < reopensAt {
            discarded += 1
            let closure = lastDiscardedSequence.count - 1
            lastDiscardedSequence[closure] = sequence
            return .discarded(arrival: arrival, checkAt: reopensAt, write: BinaryWrite(closure: closure, sequence: sequence))
        }
        guard malformed else { return .accepted(arrival: arrival) }
        errors += 1
        let heard = max(arrival, SimTime.saturatingSum(arrival, errorDelay()))
        closedAt = arrival
        reopensAt = heard
        lastDiscardedSequence.append(sequence)
        return .rejected(arrival: arrival, errorHeardAt: heard)
    }

    /// What a write joining at `join` comes to on an idle, open connection: accepted when its
    /// write ends. The outcome a forecast assumes most often and a replay assumes unrecorded.
    package func plainOutcome(joiningAt join: Int64) -> BinaryWriteOutcome {
        .accepted(arrival: SimTime.saturatingSum(join, writeTime))
    }

    /// Writes a notification that is not malformed if it is accepted the moment it joins (the
    /// connection idle then, and open when the write ends), as ``write(joiningAt:malformed:errorDelay:)``
    /// would; otherwise changes nothing. Returns whether it wrote: the check of a forecast that
    /// most writes are (BinarySpeculation.swift), without copying the connection.
    package mutating func writeIfAcceptedAtOnce(joiningAt join: Int64) -> Bool {
        guard freeAt <= join else { return false }
        let arrival = SimTime.saturatingSum(join, writeTime)
        guard arrival < closedAt || arrival >= reopensAt else { return false }
        freeAt = arrival
        written += 1
        return true
    }

    /// At its error's instant: whether discarded `write` is still among the last `bufferSize`
    /// written on its connection, so XIVA writes it again (counted `rewritten`). Every write
    /// that reached that connection ended before this instant, so the count is final.
    package mutating func isStillBuffered(_ write: BinaryWrite) -> Bool {
        guard lastDiscardedSequence.indices.contains(write.closure) else { return false }
        let writtenAfter = lastDiscardedSequence[write.closure] - write.sequence
        guard writtenAfter < bufferSize else { return false }
        rewritten += 1
        return true
    }
}
