// The warm-up (§6.1): letters before it are simulated but not counted.
import Testing
@testable import PushSimCore
@testable import PushSimExperiment
import PushSimTestSupport

@Suite struct WarmupTests {
    /// Only letters at or after the warm-up count, and counters follow their letter: a
    /// re-request made for a warm-up letter's push is not counted, one for a later push is.
    @Test func earlyLettersAreNotCounted() {
        var s = tinyScenario()
        s.warmup = span(2 * hour)
        // #2 is lost, so #3 (still in the warm-up) re-requests it; #5 is lost, so #6 does.
        let letters = [ScriptedLetter(time: 1 * hour), ScriptedLetter(time: 1 * hour + 1 * minute, lost: true),
                       ScriptedLetter(time: 1 * hour + 2 * minute), ScriptedLetter(time: 2 * hour),
                       ScriptedLetter(time: 3 * hour, lost: true), ScriptedLetter(time: 4 * hour)]
        var w = ScriptedWorld(s, letters: letters)
        let on = w.run(.on)
        expectEqual(on.letters, 3)
        expectEqual(on.delivered, 3)
        expectEqual(on.reRequests, 1, "\(w.traceText)")
        expectEqual(on.resent, 1, "\(w.traceText)")
        expectEqual(on.pushesSeenByExtensions, 3)  // #4, #6 and the re-sent #5
        #expect(on.events > 6)
        let off = w.run(.off)
        expectEqual(off.letters, 3)
        expectEqual(off.lost, 1)
        expectEqual(off.count(of: .networkLoss), 1)
    }

    /// Counted letters are those generated in [warmup, duration): Poisson with mean
    /// devices · rate · (duration − warmup), the count of a run that started later.
    @Test func countsMatchARunThatStartsLater() {
        var s = Scenario(name: "warm", duration: span(3 * day), devices: 200)
        s.warmup = span(1 * day)
        s.queue.mode = .on
        let l = Simulator.run(s).arms[0].ledger
        let expected = 200 * 40.0 * 2
        report("counted letters", measured: Double(l.letters), se: expected.squareRoot(), expected: expected)
        #expect(within(Double(l.letters), expected, se: expected.squareRoot()))
        #expect(l.identitiesHold)
        var all = s
        all.warmup = .zero
        let whole = Simulator.run(all).arms[0].ledger
        expectEqual(whole.events, l.events)
        #expect(whole.letters > l.letters)
    }
}
