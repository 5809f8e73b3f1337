// Parallel extension runs (extension.concurrency: parallel) on a hand-built case, compared with serial runs.
import Testing
@testable import PushSimCore
import PushSimTestSupport

@Suite struct ParallelRunsTests {
    /// Two close pairs of pushes. The first pair starts before any save is written, so the
    /// second run takes its position for the first and misses the lost letter between them;
    /// in the second pair the later run reads the position before the earlier run's save, and
    /// re-requests a letter already shown.
    private func script(_ s: Scenario) -> ScriptedWorld {
        func at(_ t: Int64, lost: Bool = false) -> ScriptedLetter {
            ScriptedLetter(time: t, lost: lost, xivaLatency: 50 * ms, apnsLatency: 100 * ms, processing: 200 * ms)
        }
        return ScriptedWorld(s, letters: [at(1 * hour), at(1 * hour + 500 * ms, lost: true), at(1 * hour + 1 * sec),
                                          at(3 * hour), at(3 * hour + 1 * sec)])
    }

    private func scenario(_ concurrency: ExtensionConcurrency, saveDelay: Int64?) -> Scenario {
        var s = tinyScenario()
        s.apns.loss = 0
        s.xiva.requestError = 0
        s.queue.collapseId = false  // so the needless re-send shows a second notification
        s.extension.concurrency = concurrency
        s.extension.saveDelay = saveDelay.map { .constant(SimTime(microseconds: $0)) }
        return s
    }

    @Test func staleReadsMissAGapAndReRequestAShownLetter() {
        var serialWorld = script(scenario(.serial, saveDelay: 10 * sec))
        let serial = serialWorld.run(.on)
        expectEqual(serial.gapsDetected, 1)
        expectEqual(serial.reRequests, 1)
        expectEqual(serial.parallelRuns.staleReads, 0)
        var parallelWorld = script(scenario(.parallel, saveDelay: 10 * sec))
        let parallel = parallelWorld.run(.on)
        // The third: the re-sent copy, read before the saves of 4 and 5 were written (same outcome).
        expectEqual(parallel.parallelRuns.staleReads, 3)
        expectEqual(parallel.parallelRuns.missedGaps, 1)
        expectEqual(parallelWorld.fate(1), .lost(.undetectedGap))
        expectEqual(parallel.parallelRuns.needlessReRequests, 1)
        expectEqual(parallel.parallelRuns.needlessPositions, 1)
        expectEqual(parallel.gapsDetected, 1)
        expectEqual(parallel.reRequests, 1)
        expectEqual(parallel.duplicates, serial.duplicates + 1)
    }

    /// A save written at once is the serial check: the same ledger, nothing stale.
    @Test func aSaveWrittenAtOnceIsSerial() {
        var serialWorld = script(scenario(.serial, saveDelay: nil))
        var parallelWorld = script(scenario(.parallel, saveDelay: 0))
        expectEqual(serialWorld.run(.on), parallelWorld.run(.on))
    }

    /// Saves written before the next push arrives leave nothing stale: the gap is found as by a serial run.
    @Test func farApartPushesReadNothingStale() {
        var w = script(scenario(.parallel, saveDelay: 100 * ms))
        let l = w.run(.on)
        expectEqual(l.parallelRuns.staleReads, 0)
        expectEqual(l.gapsDetected, 1)
        expectEqual(l.reRequests, 1)
    }
}
