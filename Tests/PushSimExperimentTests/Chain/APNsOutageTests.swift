// APNs outages on hand-built letters: every request refused in the window, XIVA's retries deliver after it; shares, segments, the file's keys.
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
@testable import PushSimExperiment
import PushSimTestSupport

/// A letter written at t whose push takes 50 ms to XIVA and 100 ms to the phone, and 200 ms
/// in its extension: shown 350 ms after it was written when nothing holds it.
func letterAt(_ t: Int64) -> ScriptedLetter {
    ScriptedLetter(time: t, xivaLatency: 50 * ms, apnsLatency: 100 * ms, processing: 200 * ms)
}

/// The number of sends refused before the first that reaches APNs at or after `end`, for a
/// push first reaching APNs at `a`, retried every `backoff`: ⌈(end − a) / backoff⌉ when a is
/// inside [start, end), none otherwise (an APNs outage, a token's lockout).
func refusals(arrival a: Int64, start: Int64, end: Int64, backoff: Int64) -> Int64 {
    a < start || a >= end ? 0 : (end - a + backoff - 1) / backoff
}

@Suite struct APNsOutageTests {
    private func withOutage(_ start: Int64, _ end: Int64, answer: APNsOutageAnswer = .refused, share: Double = 1,
                            attempts: Int = 1, backoff: Int64 = 10 * minute) -> Scenario {
        var s = tinyScenario()
        s.xiva.requestError = 0
        s.apns.outages = [APNsOutage(window: XivaOutage(start: span(start), end: span(end)), share: share, answer: answer)]
        if attempts > 1 { s.xiva.retry = XivaRetry(attempts: attempts, backoff: constant(backoff)) }
        return s
    }

    /// An outage from 1 h to 3 h refuses every request that reaches APNs then; XIVA's retries
    /// (every 10 minutes, enough attempts) deliver each push with the first send after 3 h.
    @Test func anOutageRefusesEverythingAndRetriesDeliverAfterIt() {
        let backoff = 10 * minute
        let times = [30 * minute, 1 * hour + 1 * minute, 2 * hour, 2 * hour + 59 * minute + 59 * sec, 3 * hour, 4 * hour]
        var w = ScriptedWorld(withOutage(1 * hour, 3 * hour, attempts: 100, backoff: backoff), letters: times.map(letterAt))
        let met = times.map { refusals(arrival: $0 + 50 * ms, start: 1 * hour, end: 3 * hour, backoff: backoff) }
        let refused = Int(met.reduce(0, +))
        // Without the queue only XIVA's retries bring them: each after its refusals.
        let off = w.run(.off)
        expectEqual(w.fates(), met.map { .delivered(latency: $0 * backoff + 350 * ms) }, "\(w.traceText)")
        expectEqual(off.apnsOutages.refused, refused)
        expectEqual(off.provider.retries, refused)
        expectEqual(off.apns.refused, refused)
        #expect(off.apnsOutages.unanswered == 0 && off.count(of: .apnsOutage) == 0 && off.identitiesHold)
        // With it, a letter after the outage reveals the gaps and a re-sent copy may come first;
        // the requests refused are the same (every re-send goes out after the outage).
        let on = w.run(.on)
        #expect(on.delivered == times.count && on.apnsOutages.refused == refused && on.identitiesHold)
        for (i, k) in met.enumerated() where k > 0 { #expect(w.firstDelivery(i) >= 3 * hour, "letter \(i): \(w.traceText)") }
    }

    /// Without retries a push refused in the outage is lost with its own cause; before and after it nothing changes.
    @Test func withoutRetriesARefusedPushIsLostAsApnsOutage() {
        var w = ScriptedWorld(withOutage(1 * hour, 3 * hour), letters: [letterAt(30 * minute), letterAt(2 * hour), letterAt(3 * hour)])
        let off = w.run(.off)
        expectEqual(w.fates(), [.delivered(latency: 350 * ms), .lost(.apnsOutage), .delivered(latency: 350 * ms)])
        expectEqual(off.apnsOutages.refused, 1)
        expectEqual(off.provider.retries, 0)
        expectEqual(off.count(of: .apnsOutage), 1)
        // The queue arm finds the gap at 3 h; the re-sent copy reaches APNs after the outage.
        let on = w.run(.on)
        #expect(on.reRequests == 1 && on.resent == 1 && w.fate(1) != .lost(.apnsOutage), "\(w.traceText)")
    }

    /// Unreachable: nothing answers, counted apart; the console never saw the request.
    @Test func anUnreachableAPNsLeavesRequestsUnanswered() {
        var w = ScriptedWorld(withOutage(1 * hour, 3 * hour, answer: .unreachable, attempts: 3, backoff: 5 * minute),
                              letters: [letterAt(2 * hour), letterAt(2 * hour + 58 * minute)])
        let l = w.run(.off)
        // The first: three sends inside the outage, lost; the second: its second send (3h3m) gets through.
        expectEqual(w.fates(), [.lost(.apnsOutage), .delivered(latency: 5 * minute + 350 * ms)], "\(w.traceText)")
        expectEqual(l.apnsOutages.unanswered, 4)
        expectEqual(l.apnsOutages.refused, 0)
        expectEqual(l.provider.retries, 3)
        expectEqual(l.apns.notReachingAPNs, 4)
        expectEqual(l.apns.refused, 0)
        #expect(w.traceText.contains("APNs unreachable (outage)"))
    }

    /// An outage for a share of the phones concerns about that share (each phone draws once, so
    /// a phone is in or out for the whole outage); a phone it concerns loses the letter.
    @Test func anOutageForAShareConcernsAboutThatShare() throws {
        let n = 4000, share = 0.3
        let s = try ScenarioLoader.parse(text: """
            name: share
            duration: 4h
            drain: 1h
            devices: \(n)
            mail: {rate: 0/h}
            apns:
              outages:
                - {start: 1h, end: 3h, share: 30%}
            queue: {mode: off}
            """, file: "t.yaml")
        let p = ChainParameters(s)
        var hit = 0
        for d in 0..<n {
            var w = DeviceWorld(scenario: s)
            w.prepare(device: d)
            if w.apnsOutage(at: 2 * hour) != nil {
                hit += 1
                // The same phone is in for the whole outage, and out after it.
                #expect(w.apnsOutage(at: 1 * hour) != nil && w.apnsOutage(at: 3 * hour) == nil)
            }
        }
        #expect(p.hasAPNsOutages)
        let sd = (share * (1 - share) / Double(n)).squareRoot()
        #expect(abs(Double(hit) / Double(n) - share) < 4 * sd)
    }

    /// Outages naming a segment concern that segment's phones only.
    @Test func aSegmentsOutageConcernsOnlyItsPhones() throws {
        let s = try ScenarioLoader.parse(text: """
            name: seg
            duration: 1d
            devices: 10
            apns:
              outages:
                - {start: 1h, end: 2h, segment: night}
                - {start: 5h, end: 6h}
            segments:
              - {name: day, share: 50%}
              - {name: night, share: 50%}
            """, file: "t.yaml")
        expectEqual(s.apns.outages.map(\.segment), ["night", nil])
        expectEqual(s.scenario(forSegment: 0).apns.outages.count, 1)
        expectEqual(s.scenario(forSegment: 1).apns.outages.count, 2)
        expectEqual(ChainParameters(s.scenario(forSegment: 1)).apnsOutages.count, 2)
        expectEqual(ChainParameters(s.scenario(forSegment: 0)).apnsOutages.map(\.interval), [5 * hour ..< 6 * hour])
    }

    /// The keys: read, printed back, and each mistake a located error.
    @Test func theKeysAreReadPrintedBackAndCheckedWhereWritten() throws {
        let text = minimalScenario + "apns:\n  outages:\n    - {start: 1h, end: 3h, share: 20%, answer: unreachable}\n    - {start: 5h, length: 2h, every: 1d}\n"
        let sc = try ScenarioLoader.parse(text: text, file: "t.yaml")
        #expect(sc.apns.outages == [
            APNsOutage(window: XivaOutage(start: span(1 * hour), end: span(3 * hour)), share: 0.2, answer: .unreachable),
            APNsOutage(window: XivaOutage(start: span(5 * hour), end: span(7 * hour), every: span(day))),
        ])
        try expectEqual(ScenarioLoader.parse(text: ScenarioPrinter.yaml(sc), file: "t.yaml").apns.outages, sc.apns.outages)
        #expect(!ScenarioPrinter.yaml(try ScenarioLoader.parse(text: minimalScenario, file: "t.yaml")).contains("outages"))

        func failure(_ item: String, _ extra: String = "") -> (String, String) {
            let error = scenarioError(minimalScenario + "apns:\n  outages:\n    - " + item + "\n" + extra)
            return (place(error), error?.message ?? "no error")
        }
        let (sharePlace, share) = failure("{start: 1h, end: 2h, share: 0}")
        #expect(sharePlace == "t.yaml:6:35" && share.contains("`apns.outages[0].share`") && share.contains("greater than 0"))
        let (answerPlace, answer) = failure("{start: 1h, end: 2h, answer: refuse}")
        #expect(answerPlace == "t.yaml:6:36" && answer.contains("did you mean `refused`?"))
        let (segmentPlace, segment) = failure("{start: 1h, end: 2h, segment: night}")
        #expect(segmentPlace == "t.yaml:6:37" && segment.contains("`apns.outages[0].segment`: the scenario has no segments"))
        let (overlapPlace, overlap) = failure("{start: 1h, end: 2h}\n    - {start: 90m, end: 3h}")
        #expect(overlapPlace == "t.yaml:7:15" && overlap.contains("`apns.outages[1]` overlaps or touches `apns.outages[0]`"))
        #expect(failure("{start: 1h}").1.contains("missing required key `end` in `apns.outages[0]`"))
        #expect(failure("{start: 1h, end: 2h, sahre: 1}").1.contains("did you mean `share`?"))
        let (binaryPlace, binary) = failure("{start: 1h, end: 2h}", "  interface: binary\n")
        #expect(binaryPlace == "t.yaml:5:3" && binary.contains("`apns.outages`: the binary interface answers only errors"))
        let named = scenarioError(minimalScenario + "apns:\n  outages:\n    - {start: 1h, end: 2h, segment: nigth}\n"
                                  + "segments:\n  - {name: day, share: 50%}\n  - {name: night, share: 50%}\n")
        expectEqual(named?.message.contains("expected the name of a segment (`day`, `night`), found \"nigth\"; did you mean `night`?"), true)
    }

    /// The shortcuts' invariants still hold with an outage: every step as an event gives the same ledgers.
    @Test func shortcutsChangeNothingWithAPNsOutages() throws {
        let s = try ScenarioLoader.parse(text: """
            name: outages
            duration: 2d
            devices: 12
            mail: {rate: 60/d}
            connectivity: {online: exponential(3h), offline: exponential(40m)}
            apns:
              loss: 5%
              latency: lognormal(100ms, 5s)
              outages:
                - {start: 10h, end: 12h, every: 1d, share: 50%}
                - {start: 1d20h, length: 30m, answer: unreachable}
            xiva: {retry: {attempts: 4, backoff: exponential(20m)}}
            """, file: "t.yaml")
        #expect(ShortcutsPerMechanismTests.disagreement(s) == nil)
        let run = Simulator.simulateSegments(s, devices: 0..<s.devices, arms: s.arms, shortcuts: .taken)
        for ledger in run.totals {
            #expect(ledger.identitiesHold && ledger.apnsOutages.refused > 0 && ledger.apnsOutages.unanswered > 0)
        }
    }
}
