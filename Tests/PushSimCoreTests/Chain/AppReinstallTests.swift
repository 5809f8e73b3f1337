// App reinstalls (device.reinstall) on hand-built cases: drops before XIVA knows the new token, missed gaps, foreign pushes.
import Testing
@testable import PushSimCore
import PushSimTestSupport

@Suite struct AppReinstallTests {
    /// A scenario with reinstalls at `rate` per day and a constant delay, and the instants of its
    /// device's first two reinstalls, worked out from the stream exactly as the world draws them
    /// (a constant delay draws nothing).
    private func reinstallScenario(perDays days: Int64, delay: Int64) -> (Scenario, first: Int64, second: Int64) {
        var s = tinyScenario()
        s.device.reinstallRatePerMicrosecond = 1.0 / Double(days * day)
        s.device.reinstallDelay = .constant(span(delay))
        var rng = RandomStream(seed: s.seed, device: 0, purpose: .reinstalls)
        let first = SimTime.rounding(rng.nextExponential() / s.device.reinstallRatePerMicrosecond).microseconds
        let second = first + SimTime.rounding(rng.nextExponential() / s.device.reinstallRatePerMicrosecond).microseconds
        return (s, first, second)
    }

    /// The run ends four hours after the first reinstall, before the second one.
    private func lastingPast(_ s: Scenario, _ first: Int64, _ second: Int64) throws -> Scenario {
        var s = s
        s.duration = span(first + 4 * hour)
        s.drain = span(2 * hour)
        try #require(second > s.end.microseconds && first > 4 * hour, "the seed's reinstalls do not fit this case")
        return s
    }

    /// A letter reaching XIVA inside the delay is dropped (unknown subscription) in both arms;
    /// after it the new token's numbering starts, and its first push is shown.
    @Test func lettersBeforeXivaKnowsTheNewTokenAreDropped() throws {
        let (base, r, second) = reinstallScenario(perDays: 30, delay: 1 * hour)
        let s = try lastingPast(base, r, second)
        var w = ScriptedWorld(s, letters: [ScriptedLetter(time: r - hour), ScriptedLetter(time: r + 10 * minute),
                                           ScriptedLetter(time: r + 2 * hour)])
        for arm in [Arm.off, .on] {
            let l = w.run(arm)
            #expect(w.fates() == [.delivered(latency: w.firstDelivery(0) - (r - hour)), .lost(.xivaDrop),
                                  .delivered(latency: w.firstDelivery(2) - (r + 2 * hour))], "\(w.traceText)")
            expectEqual(l.appReinstalls.reinstalls, 1)
            expectEqual(l.appReinstalls.droppedLetters, 1)
            expectEqual(l.gapsDetected, 0)
            expectEqual(l.reRequests, 0)
            expectEqual(l.appReinstalls.foreignPushes, 0)
        }
        // The new token's first position is the next run-wide one: the dropped letter took none.
        expectEqual(w.world.letterStates[2].position, 2)
        expectEqual(w.world.mechanisms.reinstalls.currentFirst, 2)
    }

    /// The saved position goes with the app: the old install's lost last letter is never seen
    /// as a gap (undetected), nor is the new install's lost first one; both positions are
    /// counted as missed. Without the reinstall the same script re-requests the first.
    @Test func gapsAcrossAReinstallAreMissed() throws {
        let (base, r, second) = reinstallScenario(perDays: 30, delay: 0)
        let s = try lastingPast(base, r, second)
        let script = [ScriptedLetter(time: r - 3 * hour), ScriptedLetter(time: r - 2 * hour, lost: true),
                      ScriptedLetter(time: r + 2 * hour, lost: true), ScriptedLetter(time: r + 3 * hour)]
        var w = ScriptedWorld(s, letters: script)
        let on = w.run(.on)
        expectEqual(w.fate(1), .lost(.undetectedGap), "\(w.traceText)")
        expectEqual(w.fate(2), .lost(.undetectedGap), "\(w.traceText)")
        expectEqual(on.gapsDetected, 0)
        expectEqual(on.appReinstalls.missedGapPositions, 2)
        expectEqual(on.appReinstalls.droppedLetters, 0)
        var still = s
        still.device.reinstallRatePerMicrosecond = 0
        var plain = ScriptedWorld(still, letters: script)
        let without = plain.run(.on)
        expectEqual(without.gapsDetected, 1)
        expectEqual(without.appReinstalls.missedGapPositions, 0)
        expectEqual(without.appReinstalls.reinstalls, 0)
    }

    /// A push numbered for the old install that reaches the new one after it saved a position:
    /// its device-id hash does not match, so it is shown as is. Read against the new saved
    /// position it would have looked like a gap (old position 4 after new position 1): a false
    /// gap, avoided, with no re-request.
    @Test func aPushOfTheOldInstallIsShownAsIs() throws {
        let (base, r, second) = reinstallScenario(perDays: 30, delay: 0)
        let s = try lastingPast(base, r, second)
        var w = ScriptedWorld(s, letters: [
            ScriptedLetter(time: r - 3 * hour), ScriptedLetter(time: r - 2 * hour + 1), ScriptedLetter(time: r - 2 * hour + 2),
            ScriptedLetter(time: r - 1 * minute, apnsLatency: 3 * hour),   // arrives after the reinstall
            ScriptedLetter(time: r + 1 * hour),
        ])
        let on = w.run(.on)
        #expect(w.fates().allSatisfy { if case .delivered = $0 { true } else { false } }, "\(w.traceText)")
        expectEqual(on.appReinstalls.foreignPushes, 1)
        expectEqual(on.appReinstalls.falseGaps, 1)
        expectEqual(on.gapsDetected, 0)
        expectEqual(on.reRequests, 0)
        expectEqual(on.duplicates, 0)
        expectEqual(w.world.ext.lastPosition, 5)
        let off = w.run(.off)
        expectEqual(off.appReinstalls.foreignPushes, 0)
        expectEqual(off.appReinstalls.reinstalls, 1)
    }

    /// A push of the old install that arrives before the new install saved anything is shown
    /// as is too, and is no false gap: the new install's first own push is its first saved
    /// position, so its numbering is checked from there (a lost new push after it is found).
    @Test func aForeignPushBeforeTheFirstSaveLeavesTheNewNumberingAlone() throws {
        let (base, r, second) = reinstallScenario(perDays: 30, delay: 0)
        let s = try lastingPast(base, r, second)
        var w = ScriptedWorld(s, letters: [
            ScriptedLetter(time: r - 3 * hour), ScriptedLetter(time: r - 2 * hour),
            ScriptedLetter(time: r - 1 * minute, apnsLatency: 1 * hour),   // old install, arrives at r + 59m
            ScriptedLetter(time: r + 2 * hour), ScriptedLetter(time: r + 2 * hour + minute, lost: true),
            ScriptedLetter(time: r + 3 * hour),
        ])
        let on = w.run(.on)
        expectEqual(on.appReinstalls.foreignPushes, 1, "\(w.traceText)")
        expectEqual(on.appReinstalls.falseGaps, 0, "\(w.traceText)")
        expectEqual(w.world.letterStates[3].position, 4)
        expectEqual(w.world.mechanisms.reinstalls.currentFirst, 4)
        // Without the hash check the old push (its token's position 3) would have been saved
        // first; with it, the gap at the new token's position 2 is found and re-requested.
        expectEqual(on.gapsDetected, 1)
        expectEqual(on.reRequests, 1)
        // Missed: only the old push's own position, numbered after the old install's last
        // save and past any check once the app was gone (it arrived all the same).
        expectEqual(on.appReinstalls.missedGapPositions, 1)
        #expect(w.fate(4) != .lost(.undetectedGap))
    }

    /// Reinstalls are a Poisson process: over two days at 1/h, as letters every ten minutes pass
    /// them, their count is within four standard errors of 48; the off arm sees the same ones.
    @Test func reinstallsArePoisson() {
        var s = tinyScenario(duration: 2 * day)
        s.device.reinstallRatePerMicrosecond = 1.0 / Double(hour)
        s.device.reinstallDelay = .constant(span(0))
        var w = ScriptedWorld(s, letters: (0..<288).map { ScriptedLetter(time: Int64($0) * 10 * minute) })
        let on = w.run(.on)
        let off = w.run(.off)
        let expected = 48.0
        #expect(abs(Double(on.appReinstalls.reinstalls) - expected) <= 4 * expected.squareRoot())
        expectEqual(off.appReinstalls.reinstalls, on.appReinstalls.reinstalls)
        expectEqual(on.appReinstalls.droppedLetters, 0)
    }
}
