// The extension killed early (extension.early_kill) on hand-built cases: shown as is, nothing else done.
import Testing
@testable import PushSimCore
import PushSimTestSupport

@Suite struct EarlyKillTests {
    /// A killed run shows the original content at arrival and does nothing else: no gap check,
    /// so a lost letter before it stays undetected; no logging; the off arm shows it the same way.
    @Test func aKilledRunShowsThePushAsIsAndFindsNoGap() {
        var s = tinyScenario()
        s.extension.earlyKill = 1
        var w = ScriptedWorld(s, letters: [
            ScriptedLetter(time: 1 * hour, xivaLatency: 50 * ms, apnsLatency: 100 * ms, processing: 5 * sec),
            ScriptedLetter(time: 2 * hour, lost: true),
            ScriptedLetter(time: 3 * hour, xivaLatency: 50 * ms, apnsLatency: 100 * ms, processing: 5 * sec),
        ])
        let on = w.run(.on)
        expectEqual(w.fate(0), .delivered(latency: 150 * ms))   // no processing: shown at arrival
        expectEqual(w.fate(1), .lost(.undetectedGap))
        expectEqual(w.fate(2), .delivered(latency: 150 * ms))
        expectEqual(on.earlyKill.kills, 2)
        expectEqual(on.pushesSeenByExtensions, 0)
        expectEqual(on.gapsDetected, 0)
        expectEqual(on.reRequests, 0)
        let off = w.run(.off)
        expectEqual(w.fate(1), .lost(.networkLoss))
        expectEqual(off.earlyKill.kills, 2)
    }

    /// Without kills the same script runs the extension: the gap is found and re-requested.
    @Test func withoutKillsTheGapIsFound() {
        var w = ScriptedWorld(tinyScenario(), letters: [
            ScriptedLetter(time: 1 * hour), ScriptedLetter(time: 2 * hour, lost: true), ScriptedLetter(time: 3 * hour),
        ])
        let on = w.run(.on)
        expectEqual(on.earlyKill.kills, 0)
        expectEqual(on.gapsDetected, 1)
        expectEqual(on.reRequests, 1)
    }

    /// Each run is killed with the given probability, independently.
    @Test func killsFollowTheProbability() {
        var s = tinyScenario(duration: 30 * day)
        s.extension.earlyKill = 0.3
        let n = 2_000
        var w = ScriptedWorld(s, letters: (0..<n).map { ScriptedLetter(time: Int64($0) * 10 * 60 * sec) })
        let off = w.run(.off)
        expectEqual(off.earlyKill.kills + off.pushesSeenByExtensions, n)
        #expect(within(Double(off.earlyKill.kills) / Double(n), 0.3, se: binomialStandardError(0.3, n)))
    }
}
