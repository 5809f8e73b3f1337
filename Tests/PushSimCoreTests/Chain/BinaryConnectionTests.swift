// The binary interface's connection on hand-built writes: what an error discards, and what the resend buffer writes again.
import Testing
@testable import PushSimCore
import PushSimTestSupport

@Suite struct BinaryConnectionTests {
    private let ms: Int64 = 1_000

    /// Writes one notification every `gap` from `first`, the k-th (0-based) malformed.
    private func writes(_ connection: inout BinaryConnection, count: Int, first: Int64, gap: Int64,
                        malformedAt bad: Int, errorDelay: Int64) -> [BinaryWriteOutcome] {
        (0..<count).map { i in
            connection.write(joiningAt: first + Int64(i) * gap, malformed: i == bad) { errorDelay }
        }
    }

    /// A malformed notification at position k closes the connection at its arrival w; the ones
    /// that arrive in (w, w + error_delay) are discarded, and the ones after that are accepted
    /// on the new connection. Without a buffer none is written again.
    @Test func anErrorDiscardsWhatFollowsUntilItsRoundTrip() {
        var c = BinaryConnection(writeTime: 0, bufferSize: 0)
        // One write every 10 ms, the 4th malformed, its error heard 35 ms later: the writes at
        // +10, +20, +30 ms are discarded (3 of them); +40 ms is on the new connection.
        let k = 3
        let outcomes = writes(&c, count: 10, first: 0, gap: 10 * ms, malformedAt: k, errorDelay: 35 * ms)
        let w = Int64(k) * 10 * ms, e = w + 35 * ms
        for (i, outcome) in outcomes.enumerated() {
            let arrival = Int64(i) * 10 * ms
            switch i {
            case k: expectEqual(outcome, .rejected(arrival: w, errorHeardAt: e))
            case (k + 1)...(k + 3):
                expectEqual(outcome, .discarded(arrival: arrival, checkAt: e, write: BinaryWrite(closure: 0, sequence: i)))
            default: expectEqual(outcome, .accepted(arrival: arrival))
            }
        }
        expectEqual(c.written, 10)
        expectEqual(c.errors, 1)
        expectEqual(c.discarded, 3)
        for i in (k + 1)...(k + 3) {
            let again = c.isStillBuffered(BinaryWrite(closure: 0, sequence: i))
            #expect(!again)
        }
        expectEqual(c.rewritten, 0)
    }

    /// With resend_buffer N at least the number discarded, every discarded write is written
    /// again; with fewer, only the last N discarded are (the earlier ones left the buffer).
    @Test func theBufferKeepsTheLastNWritten() {
        for n in 0...6 {
            var c = BinaryConnection(writeTime: 0, bufferSize: n)
            // Bad write at 0; error heard 45 ms later; writes every 10 ms: 4 discarded (10–40 ms).
            let outcomes = writes(&c, count: 8, first: 0, gap: 10 * ms, malformedAt: 0, errorDelay: 45 * ms)
            var again: [Int] = []
            for case .discarded(_, let checkAt, let write) in outcomes {
                expectEqual(checkAt, 45 * ms)
                if c.isStillBuffered(write) { again.append(write.sequence) }
            }
            let discardedCount = 4
            let expected = Array((1...discardedCount).suffix(min(n, discardedCount)))
            expectEqual(again, expected, "N = \(n)")
            expectEqual(c.rewritten, min(n, discardedCount))
        }
    }

    /// A finite connection rate queues the writes: a burst of B at one instant ends one write
    /// apart, and the error's window counts arrivals (write ends), not joins.
    @Test func aFiniteRateQueuesWritesAndTheWindowCountsArrivals() {
        expectEqual(BinaryConnection.writeTime(ratePerMicrosecond: 1.0 / 3_000), 3_000)
        expectEqual(BinaryConnection.writeTime(ratePerMicrosecond: nil), 0)
        var c = BinaryConnection(writeTime: 3 * ms, bufferSize: 0)
        // Ten at instant 0: they end at 3, 6, …, 30 ms; the second is malformed (arrival 6 ms),
        // its error heard at 16 ms: ends 9, 12, 15 ms are discarded; 18 ms on is accepted.
        var outcomes: [BinaryWriteOutcome] = []
        for i in 0..<10 { outcomes.append(c.write(joiningAt: 0, malformed: i == 1) { 10 * ms }) }
        expectEqual(outcomes[0], .accepted(arrival: 3 * ms))
        expectEqual(outcomes[1], .rejected(arrival: 6 * ms, errorHeardAt: 16 * ms))
        for i in 2...4 {
            #expect(outcomes[i] == .discarded(arrival: Int64(i + 1) * 3 * ms, checkAt: 16 * ms,
                                              write: BinaryWrite(closure: 0, sequence: i)))
        }
        for i in 5..<10 { expectEqual(outcomes[i], .accepted(arrival: Int64(i + 1) * 3 * ms)) }
    }

    /// With an infinite rate the writes after the bad one at its own instant reach the closed
    /// connection too; a malformed draw on a discarded write opens no second error; a write
    /// ending exactly when the error is heard goes on the new connection.
    @Test func sameInstantWritesAndTheWindowsEdges() {
        var c = BinaryConnection(writeTime: 0, bufferSize: 1)
        let before = c.write(joiningAt: 5, malformed: false) { 0 }
        let bad = c.write(joiningAt: 5, malformed: true) { 20 }
        let same = c.write(joiningAt: 5, malformed: true) { 999 }
        let edge = c.write(joiningAt: 25, malformed: false) { 0 }
        expectEqual(before, .accepted(arrival: 5))
        expectEqual(bad, .rejected(arrival: 5, errorHeardAt: 25))
        expectEqual(same, .discarded(arrival: 5, checkAt: 25, write: BinaryWrite(closure: 0, sequence: 2)))
        expectEqual(edge, .accepted(arrival: 25))
        expectEqual(c.errors, 1)
        expectEqual(c.discarded, 1)
        let kept = c.isStillBuffered(BinaryWrite(closure: 0, sequence: 2))
        #expect(kept)
        // A second error gets its own window.
        let second = c.write(joiningAt: 30, malformed: true) { 10 }
        let inSecond = c.write(joiningAt: 35, malformed: false) { 0 }
        expectEqual(second, .rejected(arrival: 30, errorHeardAt: 40))
        expectEqual(inSecond, .discarded(arrival: 35, checkAt: 40, write: BinaryWrite(closure: 1, sequence: 5)))
        expectEqual(c.errors, 2)
        expectEqual(c.rewritten, 1)
    }
}
