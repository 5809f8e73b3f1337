// docs/model.md §8, The extension's memory limit, pinned: an attachment whose decoded size passes the limit kills the run, which shows the original; its gap's recovery is lost with cause memory_kill.
import Testing
@testable import PushSimCore
import PushSimTestSupport

@Suite struct MemoryLimitRulesTests {
    private let megabyte: Int64 = 1_048_576

    private func at(_ t: Int64, lost: Bool = false) -> ScriptedLetter {
        ScriptedLetter(time: t, lost: lost, xivaLatency: 50 * ms, apnsLatency: 100 * ms, processing: 200 * ms)
    }

    /// 24 MB, a decode factor of 10, 8 Mbit/s (1 MB takes 1.048576 s).
    private func limited() -> Scenario {
        var s = tinyScenario()
        s.xiva.requestError = 0
        s.extension.media = MediaAttachments(share: 1, size: constant(1), bandwidth: constant(8_000_000),
                                             memoryLimit: 24 * megabyte, decodeFactor: 10)
        return s
    }

    private func world(_ letters: [ScriptedLetter], bytes: [Int64]) -> ScriptedWorld {
        var w = ScriptedWorld(limited(), letters: letters)
        w.world.draws.mediaBytes = bytes
        return w
    }

    /// 3 MB decodes to 30 MB, past 24 MB: the run is killed when its download ends (3.145728 s
    /// after the push is due), and the push is shown as it came. 2 MB (20 MB) is shown with its
    /// attachment after processing and download (200 ms + 2.097152 s).
    @Test func anAttachmentOverTheLimitKillsTheRunAndShowsTheOriginal() {
        for arm in [Arm.off, .on] {
            var w = world([at(0), at(1 * hour)], bytes: [3 * megabyte, 2 * megabyte])
            let l = w.run(arm)
            #expect(w.fates() == [.delivered(latency: 150 * ms + 3_145_728 * us), .delivered(latency: 350 * ms + 2_097_152 * us)],
                    "\(arm)\n\(w.traceText)")
            expectEqual(l.media.memoryKills, 1)
            expectEqual(l.media.downloads, 2)
            expectEqual(l.extensionTimeouts, 0)
        }
    }

    /// The queue arm: letter 1's push is lost; letter 2's run finds the gap and saves position 3
    /// at its start, but is killed before its re-request: letter 1 is lost with `memory_kill`, a
    /// recovery lost. The save stands, so letter 3 finds no gap.
    @Test func aKilledRunLosesItsGapsRecovery() {
        var w = world([at(0), at(10 * minute, lost: true), at(20 * minute), at(30 * minute)], bytes: [0, 0, 3 * megabyte, 0])
        let l = w.run(.on)
        expectEqual(w.fate(1), .lost(.memoryKill), "\(w.traceText)")
        expectEqual(l.count(of: .memoryKill), 1)
        expectEqual(l.media.recoveriesLost, 1)
        expectEqual(l.reRequests, 0)
        expectEqual(l.gapsDetected, 1)
        expectEqual(w.fate(3), .delivered(latency: 350 * ms))
    }

    /// Past the deadline the deadline comes first: a 30 s deadline and a 40 MB download (about
    /// 42 s) time the run out at 30 s; the kill never comes.
    @Test func theDeadlineBeforeTheDecodeWins() {
        var w = world([at(0)], bytes: [40 * megabyte])
        let l = w.run(.off)
        expectEqual(l.media.memoryKills, 0)
        expectEqual(l.extensionTimeouts, 1)
        expectEqual(w.fate(0), .delivered(latency: 150 * ms + 30 * sec), "\(w.traceText)")
    }

    /// A cached attachment is decoded all the same: the kill comes at once.
    @Test func aCachedAttachmentIsDecodedToo() {
        var s = limited()
        s.extension.media?.cacheHit = 1
        var w = ScriptedWorld(s, letters: [at(0)])
        w.world.draws.mediaBytes = [3 * megabyte]
        let l = w.run(.off)
        expectEqual(l.media.memoryKills, 1)
        expectEqual(w.fate(0), .delivered(latency: 150 * ms))
    }
}
