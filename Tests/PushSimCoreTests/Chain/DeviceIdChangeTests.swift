// Device id changes (device.id_change) on hand-built cases: the saved position forgotten hides a gap.
import Testing
@testable import PushSimCore
import PushSimTestSupport

@Suite struct DeviceIdChangeTests {
    private let script = [ScriptedLetter(time: 1 * day), ScriptedLetter(time: 3 * day, lost: true), ScriptedLetter(time: 5 * day)]

    /// With changes far more frequent than pushes, every run finds the id changed: the lost
    /// letter's gap is never seen (undetected), and its one position is counted as forgotten.
    @Test func aChangeBetweenPushesHidesTheGap() {
        var s = tinyScenario(duration: 6 * day)
        s.device.idChangeRatePerMicrosecond = 1.0 / Double(hour)
        var w = ScriptedWorld(s, letters: script)
        let on = w.run(.on)
        expectEqual(w.fate(1), .lost(.undetectedGap), "\(w.traceText)")
        expectEqual(on.gapsDetected, 0)
        expectEqual(on.reRequests, 0)
        expectEqual(on.deviceIdChange.positionsInForgottenGaps, 1)
        // Changes up to the last run (about 5 days at 1/h): a Poisson count, within 4 standard errors.
        let expected = 5.0 * 24
        #expect(abs(Double(on.deviceIdChange.changes) - expected) <= 4 * expected.squareRoot())
        // The off arm has no saved position: nothing to forget, nothing drawn.
        let off = w.run(.off)
        expectEqual(off.deviceIdChange.changes, 0)
        expectEqual(w.fate(1), .lost(.networkLoss))
    }

    /// Without changes the same script finds the gap and re-requests it.
    @Test func withoutChangesTheGapIsRecovered() {
        var w = ScriptedWorld(tinyScenario(duration: 6 * day), letters: script)
        let on = w.run(.on)
        expectEqual(on.gapsDetected, 1)
        expectEqual(on.deviceIdChange.changes, 0)
        #expect(w.fate(1) != .lost(.undetectedGap))
    }
}
