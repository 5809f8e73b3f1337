// Trace lines are typed events: flips, clear times and fates are cases, and the text comes from the case.
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
@testable import PushSimExperiment
@testable import PushSimReport
import PushSimTestSupport

@Suite struct TraceEventTests {
    @Test func flipsFatesAndClearTimesAreCases() throws {
        // The golden trace's device (an offline window: two flips), with collapse ids so clear
        // times are drawn.
        let scenario = try ScenarioLoader.parse(text: TraceFixture.text, file: "t.yaml", overrides: ["queue.collapse_id=true"])
        let (entries, ledger) = Simulator.trace(scenario, device: 0, arm: .on)
        let flips = entries.compactMap { entry -> Bool? in
            guard case .connectivity(let online) = entry.event else { return nil }
            #expect(entry.text == (online ? "online" : "offline") && entry.lane == .device && entry.letter == nil)
            return online
        }
        #expect(!flips.isEmpty)
        for (a, b) in zip(flips, flips.dropFirst()) { #expect(a != b, "flips alternate") }
        let fates = entries.filter { if case .endOfRun = $0.event { true } else { false } }
        #expect(fates.count == ledger.letters && fates.allSatisfy { $0.text.hasPrefix("end of run: ") })
        let clears = entries.filter { if case .willClear = $0.event { true } else { false } }
        #expect(!clears.isEmpty && clears.allSatisfy { $0.text.hasPrefix("will clear at ") && $0.letter == nil })
        // Every step of the bundled chain has its own case: none is left in words.
        #expect(!entries.contains { if case .unclassified = $0.event { true } else { false } })
    }

    @Test func theTextIsDerivedFromTheCase() {
        let cases: [(TraceEvent, String)] = [
            (.numbered(position: 7), "numbered position 7, sent"),
            (.held(until: SimTime(microseconds: 2 * SimTime.hour)), "held: XIVA is out until 2h"),
            (.copyLost(.first, .apnsReplaced), "push apns_replaced"),
            (.copyLost(.resend, .networkLoss), "re-sent copy network_loss"),
            (.copyLost(.second, .apnsExpired), "second copy apns_expired"),
            (.extensionStarted(.second, processing: SimTime(microseconds: 3 * SimTime.second), overDeadline: SimTime(microseconds: 2 * SimTime.second)),
             "extension started (second copy), processing 3s > deadline 2s"),
            (.foundGap(low: 3, high: 5, summary: false), "extension found gap 3...5 (3 missed): re-request"),
            (.reRequestSent(low: 3, high: 5, answerIn: SimTime(microseconds: SimTime.second), lateDeadline: nil),
             "re-request sent for positions 3...5, answer in 1s"),
            (.deadlineHit(waitingForAnswer: true), "extension deadline hit waiting for the re-request's answer"),
            (.caughtUp(fetched: 4, notShown: 1), "opened the app: catch-up fetched 4 letter(s), 1 not shown: summary"),
            (.endOfRun(.lost(.undetectedGap)), "end of run: lost (undetected_gap)"),
            (.endOfRun(.summarized), "end of run: summarized"),
            (.unclassified("a new step"), "a new step"),
        ]
        for (event, text) in cases { expectEqual(event.text, text) }
    }
}
