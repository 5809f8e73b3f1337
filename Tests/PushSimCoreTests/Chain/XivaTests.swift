// XIVA rules: drops before numbering, retention of numbered payloads, answers to re-requests.
import Testing
@testable import PushSimCore
import PushSimTestSupport

@Suite struct XivaTests {
    /// Rule 1: a dropped letter gets no position, so no gap can reveal it, in either arm.
    @Test func xivaDropIsNeverNumberedAndCountsAsXivaDrop() {
        var w = ScriptedWorld(tinyScenario(), letters: [
            ScriptedLetter(time: 1 * hour), ScriptedLetter(time: 2 * hour, dropped: true), ScriptedLetter(time: 3 * hour),
        ])
        for arm in Arm.allCases {
            let ledger = w.run(arm)
            expectEqual(w.fate(1), .lost(.xivaDrop))
            expectEqual(ledger.count(of: .xivaDrop), 1)
            expectEqual(ledger.delivered, 2)
            expectEqual(ledger.reRequests, 0)
            expectEqual(ledger.gapsDetected, 0)
            expectEqual(w.world.letterStates.elements.map(\.position), [1, 0, 2])
        }
    }

    /// Rule 7: positions no longer retained when the answer comes are not re-sent.
    @Test func retentionExpiredGapIsNotResent() {
        var s = tinyScenario()
        s.xiva.retention = span(1 * hour)
        var w = ScriptedWorld(s, letters: [
            ScriptedLetter(time: 0), ScriptedLetter(time: 1 * minute, lost: true),
            ScriptedLetter(time: 59 * minute, lost: true), ScriptedLetter(time: 2 * hour),
        ])
        let on = w.run(.on)
        expectEqual(on.reRequests, 1)
        expectEqual(on.resent, 0)
        expectEqual(w.fate(1), .lost(.retentionExpired))
        expectEqual(w.fate(2), .lost(.retentionExpired))
        expectEqual(w.fate(3), .delivered(latency: 650 * ms))
    }

    /// Rule 7: retained while r < t + retention, where r is the answer's time.
    @Test func retentionEndsExactlyAtTheLetterPlusRetention() {
        // Letter 1 at 10 s (lost); letter 2 at 20 s reaches the device at 20.15 s, the
        // re-request leaves at 20.35 s and is answered at r = 20.65 s.
        let script = [ScriptedLetter(time: 0), ScriptedLetter(time: 10 * sec, lost: true), ScriptedLetter(time: 20 * sec)]
        var s = tinyScenario()
        s.xiva.retention = span(10 * sec + 650 * ms)
        var w = ScriptedWorld(s, letters: script)
        var on = w.run(.on)
        expectEqual(on.resent, 0)
        expectEqual(w.fate(1), .lost(.retentionExpired))
        s.xiva.retention = span(10 * sec + 650 * ms + 1)
        w = ScriptedWorld(s, letters: script)
        on = w.run(.on)
        expectEqual(on.resent, 1)
        expectEqual(w.fate(1), .delivered(latency: 20 * sec + 650 * ms + 500 * ms - 10 * sec))
    }

    /// Rule 5: on an error answer the revealing push is shown as the summary, covering the gap.
    @Test func requestErrorShowsSummary() {
        var s = tinyScenario()
        s.xiva.requestError = 1
        var w = ScriptedWorld(s, letters: [
            ScriptedLetter(time: 1 * hour), ScriptedLetter(time: 2 * hour, lost: true), ScriptedLetter(time: 3 * hour),
        ])
        let on = w.run(.on)
        expectEqual(on.reRequests, 1)
        expectEqual(on.resent, 0)
        expectEqual(on.summaries, 1)
        expectEqual(w.fate(1), .summarized)
        expectEqual(w.fate(2), .summarized)
        expectEqual(on.summarized, 2)
        expectEqual(on.delivered, 1)
        expectEqual(on.lost, 0)
    }

    /// Rule 7: one re-send latency draw per answer, copies in position order.
    @Test func resentCopiesReachAPNsInPositionOrder() {
        var w = ScriptedWorld(tinyScenario(), letters: [
            ScriptedLetter(time: 0), ScriptedLetter(time: 1 * minute, lost: true),
            ScriptedLetter(time: 2 * minute, lost: true), ScriptedLetter(time: 3 * minute, lost: true),
            ScriptedLetter(time: 4 * minute),
        ])
        w.run(.on)
        let resent = w.trace.filter { $0.text.hasPrefix("re-sent position") }
        expectEqual(resent.map(\.letter), [1, 2, 3])
        let reachedAPNs = w.trace.filter { $0.text == "reached APNs" && ($0.letter ?? 0) >= 1 && ($0.letter ?? 0) <= 3 }
        expectEqual(reachedAPNs.map(\.letter), [1, 2, 3])
        expectEqual(Set(reachedAPNs.map(\.time)), [4 * minute + 150 * ms + 200 * ms + 300 * ms + 200 * ms])
    }

    /// Rule 7: re-requests ignore connectivity, but re-sent copies travel on as any push: to a
    /// device gone offline they enter the one-slot store, and only the last one survives.
    @Test func resentCopiesToAnOfflineDeviceUseTheStore() {
        var w = ScriptedWorld(tinyScenario(), letters: [
            ScriptedLetter(time: 0), ScriptedLetter(time: 1 * minute, lost: true),
            ScriptedLetter(time: 2 * minute, lost: true), ScriptedLetter(time: 3 * minute),
        ], offline: [3 * minute + 300 * ms..<1 * hour])
        let on = w.run(.on)
        expectEqual(on.reRequests, 1)
        expectEqual(on.resent, 2)
        // The answer comes back while offline and the revealing push is shown at once.
        expectEqual(w.fate(3), .delivered(latency: 650 * ms), "\(w.traceText)")
        expectEqual(w.fate(1), .lost(.apnsReplaced))
        expectEqual(w.firstDelivery(2), 1 * hour + 300 * ms)
    }
}
