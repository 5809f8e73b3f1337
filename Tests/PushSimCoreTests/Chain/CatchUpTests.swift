// The client catch-up (recovery: catch_up) on hand-built cases: what an opening fetches and summarizes.
import Testing
@testable import PushSimCore
import PushSimTestSupport

@Suite struct CatchUpTests {
    private func openings(_ trace: [TraceEntry]) -> [Int64] {
        trace.filter { $0.text.hasPrefix("opened the app") }.map(\.time)
    }

    /// A letter lost on the way is summarized at the first online opening after it; letters
    /// shown as pushes are not fetched again; one summary, one fetch per online opening.
    @Test func aLostLetterIsSummarizedAtTheNextOpening() {
        var w = ScriptedWorld(catchUpScenario(every: 6 * hour), letters: [
            ScriptedLetter(time: 1 * hour), ScriptedLetter(time: 2 * hour, lost: true), ScriptedLetter(time: 3 * hour),
        ])
        let on = w.run(.on)
        let opens = openings(w.trace)
        // A constant gap of 6h from a first opening uniform in [0, 6h): 8 openings in 48h.
        expectEqual(opens.count, 8, "\(w.traceText)")
        expectEqual(on.catchUp.fetches, 8)
        expectEqual(w.fate(0), .delivered(latency: w.firstDelivery(0) - 1 * hour))
        expectEqual(w.fate(1), .summarized)
        #expect(w.fate(2) != .summarized)
        expectEqual(on.summaries, 1)
        expectEqual(on.summarized, 1)
        expectEqual(on.lost, 0)
        // No gap check in this design: no re-requests, nothing seen by the queue's telemetry.
        expectEqual(on.reRequests, 0)
        expectEqual(on.gapsDetected, 0)
        // The off arm is untouched: the letter is lost to the network, nothing is fetched.
        let off = w.run(.off)
        expectEqual(w.fate(1), .lost(.networkLoss))
        expectEqual(off.catchUp.fetches, 0)
        expectEqual(off.summaries, 0)
    }

    /// Offline, an opening cannot reach the server: nothing is fetched and the letter stays lost.
    @Test func anOpeningWhileOfflineFetchesNothing() {
        let s = catchUpScenario(every: 6 * hour)
        var w = ScriptedWorld(s, letters: [ScriptedLetter(time: 1 * hour, lost: true)],
                              offline: [0..<s.end.microseconds])
        let on = w.run(.on)
        expectEqual(openings(w.trace).count, 8)
        expectEqual(on.catchUp.fetches, 0)
        expectEqual(on.summaries, 0)
        expectEqual(w.fate(0), .lost(.networkLoss))
    }

    /// `recovery: none` is the off arm under another name: the same fates and counts.
    @Test func noRecoveryIsTheOffArm() {
        var s = tinyScenario()
        s.recovery = .none
        let script = [ScriptedLetter(time: 1 * hour), ScriptedLetter(time: 2 * hour, lost: true)]
        var w = ScriptedWorld(s, letters: script)
        let on = w.run(.on)
        let onFates = w.fates()
        let off = w.run(.off)
        expectEqual(on, off)
        expectEqual(onFates, w.fates())
    }

    /// The letters an opening can fetch: those made by its instant, in time order.
    @Test func lettersMadeByAnInstant() {
        let times: [Int64] = [10, 20, 20, 30]
        expectEqual(CatchUp.lettersMade(by: 20, from: 0, count: 4) { times[$0] }, 3)
        expectEqual(CatchUp.lettersMade(by: 5, from: 0, count: 4) { times[$0] }, 0)
        expectEqual(CatchUp.lettersMade(by: 99, from: 3, count: 4) { times[$0] }, 4)
    }
}
