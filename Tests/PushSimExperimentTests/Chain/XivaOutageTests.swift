// XIVA outages on hand-built letters: held letters numbered at the end, drops, re-requests during an outage.
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
@testable import PushSimExperiment
import PushSimTestSupport

@Suite struct XivaOutageTests {
    private func withOutage(_ start: Int64, _ end: Int64, mode: XivaOutageMode = .delay) -> Scenario {
        var s = tinyScenario()
        s.xiva.outages = [XivaOutage(start: span(start), end: span(end))]
        s.xiva.outageMode = mode
        return s
    }

    /// A letter during a `delay` outage is numbered at its end: its push is sent then (latency
    /// counted from the letter), positions stay in letter order.
    @Test func aHeldLetterIsNumberedAndSentAtTheOutagesEnd() {
        var w = ScriptedWorld(withOutage(1 * hour, 2 * hour), letters: [
            ScriptedLetter(time: 30 * minute), ScriptedLetter(time: 70 * minute), ScriptedLetter(time: 80 * minute),
            ScriptedLetter(time: 2 * hour), ScriptedLetter(time: 3 * hour),
        ])
        for arm in Arm.allCases {
            let ledger = w.run(arm)
            expectEqual(w.world.letterStates.elements.map(\.position), [1, 2, 3, 4, 5])
            expectEqual(w.fate(0), .delivered(latency: 350 * ms))
            expectEqual(w.fate(1), .delivered(latency: 50 * minute + 350 * ms))
            expectEqual(w.fate(2), .delivered(latency: 40 * minute + 350 * ms))
            // The end itself is outside the outage (windows are half-open).
            expectEqual(w.fate(3), .delivered(latency: 350 * ms))
            expectEqual(ledger.delivered, 5)
            expectEqual(ledger.count(of: .xivaOutage), 0)
            expectEqual(ledger.reRequests, 0)
        }
    }

    /// A held letter is retained from the outage's end, not from its own time.
    @Test func aHeldLetterIsRetainedFromTheOutagesEnd() {
        var s = withOutage(1 * hour, 2 * hour)
        s.xiva.retention = span(30 * minute)
        var w = ScriptedWorld(s, letters: [
            ScriptedLetter(time: 0), ScriptedLetter(time: 70 * minute, lost: true), ScriptedLetter(time: 2 * hour + 5 * minute),
        ])
        let on = w.run(.on)
        // Answered at 2h5m + 650 ms: past 70m + 30m, but before 2h + 30m.
        expectEqual(on.reRequests, 1)
        expectEqual(on.resent, 1)
        expectEqual(on.xivaServed, 1)
        expectEqual(on.xivaErrors, 0)
        expectEqual(w.fate(1), .delivered(latency: 2 * hour + 5 * minute + 650 * ms + 500 * ms - 70 * minute))
    }

    /// With `drop`, a letter during an outage is lost with the cause `xiva_outage` and gets no
    /// position (so no gap reveals it); `xiva.drop` is decided first.
    @Test func dropModeLosesTheLetterWithItsOwnCause() {
        var w = ScriptedWorld(withOutage(1 * hour, 2 * hour, mode: .drop), letters: [
            ScriptedLetter(time: 30 * minute), ScriptedLetter(time: 70 * minute), ScriptedLetter(time: 80 * minute, dropped: true),
            ScriptedLetter(time: 3 * hour),
        ])
        for arm in Arm.allCases {
            let ledger = w.run(arm)
            expectEqual(w.world.letterStates.elements.map(\.position), [1, 0, 0, 2])
            expectEqual(w.fate(1), .lost(.xivaOutage))
            expectEqual(w.fate(2), .lost(.xivaDrop))
            expectEqual(ledger.count(of: .xivaOutage), 1)
            expectEqual(ledger.count(of: .xivaDrop), 1)
            expectEqual(ledger.delivered, 2)
            expectEqual(ledger.gapsDetected, 0)
        }
    }

    /// A letter held by an outage that ends after the run is unfinished.
    @Test func aLetterHeldPastTheEndOfTheRunIsUnfinished() {
        var w = ScriptedWorld(withOutage(20 * hour, 3 * day), letters: [ScriptedLetter(time: 1 * hour), ScriptedLetter(time: 21 * hour)])
        for arm in Arm.allCases {
            let ledger = w.run(arm)
            expectEqual(w.fate(1), .lost(.unfinished))
            expectEqual(ledger.delivered, 1)
        }
    }

    /// A re-request sent during an outage is answered with an error after request_latency:
    /// the summary is shown; it counts as an error, not as served.
    @Test func aReRequestSentDuringAnOutageIsAnsweredWithAnError() {
        // The revealing letter at 2h reaches the device at 2h + 150 ms; the re-request leaves at
        // 2h + 350 ms, inside the outage that starts at 2h + 300 ms.
        var w = ScriptedWorld(withOutage(2 * hour + 300 * ms, 3 * hour), letters: [
            ScriptedLetter(time: 0), ScriptedLetter(time: 1 * hour, lost: true), ScriptedLetter(time: 2 * hour),
        ])
        let on = w.run(.on)
        expectEqual(on.reRequests, 1)
        expectEqual(on.resent, 0)
        expectEqual(on.summaries, 1)
        expectEqual(on.xivaErrors, 1)
        expectEqual(on.xivaServed, 0)
        expectEqual(w.fate(1), .summarized)
        expectEqual(w.fate(2), .summarized)
    }

    /// Every letter reaching XIVA in a `drop` outage is lost to it: a Poisson count with mean
    /// devices × rate × length, here 500 × 96/d × 1h = 2000, within four standard errors
    /// (√2000 ≈ 45); in `delay` mode the same letters are all delivered and none is lost to it.
    @Test func dropOutageLosesTheExpectedShareOfLetters() throws {
        let text = """
            name: dropped
            duration: 1d
            devices: 500
            mail: {rate: 96/d}
            xiva:
              outages:
                - {start: 10h, length: 1h}
              outage_mode: drop
            """
        let drop = Simulator.run(try ScenarioLoader.parse(text: text, file: "t.yaml"))
        for arm in drop.arms {
            let lost = Double(arm.ledger.count(of: .xivaOutage))
            #expect(abs(lost - 2000) < 4 * 2000.0.squareRoot(), "\(arm.name): \(lost)")
            expectEqual(arm.ledger.lost, arm.ledger.count(of: .xivaOutage))
        }
        let delay = Simulator.run(try ScenarioLoader.parse(text: text, file: "t.yaml", overrides: ["xiva.outage_mode=delay"]))
        for arm in delay.arms { #expect(arm.ledger.lost == 0 && arm.ledger.delivered == arm.ledger.letters) }
    }

    /// The shortcuts' invariants still hold when letters are held: every step as an event
    /// gives the same ledgers.
    @Test(arguments: [XivaOutageMode.delay, .drop])
    func shortcutsChangeNothingWithOutages(_ mode: XivaOutageMode) throws {
        var s = try ScenarioLoader.parse(text: """
            name: outages
            duration: 2d
            devices: 12
            mail: {rate: 60/d}
            connectivity: {online: exponential(3h), offline: exponential(40m)}
            apns: {loss: 5%, latency: lognormal(100ms, 5s)}
            xiva:
              outages:
                - {start: 10h, end: 12h, every: 1d}
                - {start: 1d20h, length: 30m}
            """, file: "t.yaml")
        s.xiva.outageMode = mode
        let taken = Simulator.simulateSegments(s, devices: 0..<s.devices, arms: s.arms, shortcuts: .taken)
        let scheduled = Simulator.simulateSegments(s, devices: 0..<s.devices, arms: s.arms, shortcuts: .scheduled)
        for a in s.arms.indices {
            var fast = taken.totals[a], slow = scheduled.totals[a]
            fast.events = 0; slow.events = 0
            expectEqual(fast, slow)
            #expect(fast.identitiesHold)
        }
        let on = taken.totals[1]
        #expect(mode == .drop ? on.count(of: .xivaOutage) > 0 : on.count(of: .xivaOutage) == 0)
        expectEqual(on.xivaServed + on.xivaErrors, on.reRequests)
    }
}
