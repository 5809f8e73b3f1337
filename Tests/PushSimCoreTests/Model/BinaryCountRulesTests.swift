// docs/model.md §11, The legacy binary interface, pinned: which writes count in `written`, and the resend buffer after an uninstall (rewrites only until XIVA reads the feedback list).
import Testing
@testable import PushSimCore
import PushSimTestSupport

@Suite struct BinaryCountRulesTests {
    /// `binaryScenario` with a buffer of 4, and uninstalls switched on (the tests that need one
    /// set its instant).
    private func binary() -> Scenario {
        binaryScenario(buffer: 4) { $0.device.uninstallRatePerMicrosecond = 1e-12 }
    }

    /// `written` counts every write that ends before the end of the run, whatever became of it:
    /// accepted, rejected, discarded, and each rewrite from the buffer as a write of its own.
    @Test func writtenCountsEveryWriteRewritesIncluded() {
        var w = ScriptedWorld(binary(), letters: sixBinaryLetters)
        let l = w.run(.off)
        expectEqual(l.binary.written, 6 + 4, "\(w.traceText)")
        expectEqual(l.binary.errors, 1, "\(w.traceText)")
        expectEqual(l.binary.discarded, 4, "\(w.traceText)")
        expectEqual(l.binary.rewritten, 4, "\(w.traceText)")
    }

    /// After an uninstall at U XIVA still writes (and rewrites) until it reads the token from
    /// the feedback list at U + feedback_delay; a buffer check that falls at or after that is
    /// never made. Either way the letters are undeliverable.
    @Test func rewritesStopWhenXivaReadsTheFeedbackList() {
        // U = 1h + 1 s, after the first letter was shown (1h + 400 ms), before e.
        let u = 1 * hour + 1 * sec
        var reading = ScriptedWorld(binary(), letters: sixBinaryLetters)
        reading.world.clock.end = u
        reading.world.clock.horizon = u + 1 * sec  // e = 1h + 1.2 s comes before the feedback list
        let before = reading.run(.off)
        expectEqual(before.binary.rewritten, 4, "\(reading.traceText)")
        expectEqual(before.binary.written, 10, "\(reading.traceText)")
        expectEqual(reading.fates(), [.delivered(latency: 400 * ms), .lost(.payloadTooLarge)] + Array(repeating: .undeliverable, count: 4))
        var gone = ScriptedWorld(binary(), letters: sixBinaryLetters)
        gone.world.clock.end = u
        gone.world.clock.horizon = u + 100 * ms  // the feedback list is read before e
        let after = gone.run(.off)
        expectEqual(after.binary.rewritten, 0, "\(gone.traceText)")
        expectEqual(after.binary.written, 6, "\(gone.traceText)")
        expectEqual(gone.fates(), [.delivered(latency: 400 * ms), .lost(.payloadTooLarge)] + Array(repeating: .undeliverable, count: 4))
    }
}
