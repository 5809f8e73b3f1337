// The extension's log rows (`run --logs`) on hand-built devices: which pushes make a row, and each answer.
import Testing
@testable import PushSimCore
import PushSimTestSupport

@Suite struct ExtensionLogTests {
    private func at(_ t: Int64, lost: Bool = false, processing: Int64 = 200 * ms) -> ScriptedLetter {
        ScriptedLetter(time: t, lost: lost, xivaLatency: 50 * ms, apnsLatency: 100 * ms, processing: processing)
    }

    /// Runs the arm with a recorder and returns its rows and ledger.
    private func logged(_ w: inout ScriptedWorld, _ arm: Arm = .on) -> (rows: [LoggedPush], ledger: Ledger) {
        let recorder = ExtensionLogRecorder()
        w.world.extensionLog = recorder
        let ledger = w.run(arm)
        return (recorder.take(), ledger)
    }

    /// The case: the phone is offline while three pushes are sent, APNs keeps the newest;
    /// back online, that push reveals a gap of 2, whose re-request is answered, and the two
    /// re-sent pushes are logged without a gap.
    @Test func aPhoneOfflineForThreePushesLogsOneGapOfTwoAnswered() throws {
        var s = tinyScenario()
        s.queue.repeatMaxCount = 10
        var w = ScriptedWorld(s, letters: [at(0), at(1 * hour), at(70 * minute), at(80 * minute)],
                              offline: [30 * minute..<2 * hour])
        let (rows, ledger) = logged(&w)
        // Position 1 at 150 ms; position 4 from the store when the phone is back at 2 h; the
        // re-sent 2 and 3 after XIVA's answer (300 ms) and their own way (the re-send latency).
        expectEqual(rows.map(\.position), [1, 4, 2, 3], "\(w.traceText)")
        expectEqual(rows.map(\.gapSize), [0, 2, 0, 0])
        expectEqual(rows.map(\.answer), [.none, .answered, .none, .none])
        #expect(rows.allSatisfy { $0.device == 0 })
        #expect(rows[0].time == 150 * ms && (2 * hour..<2 * hour + 1 * sec).contains(rows[1].time), "\(rows)")
        #expect(zip(rows, rows.dropFirst()).allSatisfy { $0.time <= $1.time })
        // The rows are the telemetry's counts, push by push.
        expectEqual(rows.count, ledger.pushesSeenByExtensions)
        expectEqual(rows.filter(\.gapFound).count, ledger.gapsDetected)
        expectEqual(rows.reduce(0) { $0 + $1.gapSize }, ledger.missedInGaps)
        expectEqual(rows.filter(\.answer.reRequested).count, ledger.reRequests)
    }

    /// The off arm runs no client that checks positions: it logs nothing.
    @Test func theOffArmLogsNothing() {
        var w = ScriptedWorld(tinyScenario(), letters: [at(0), at(1 * hour), at(70 * minute)], offline: [30 * minute..<2 * hour])
        #expect(logged(&w, .off).rows.isEmpty)
    }

    /// A gap larger than repeat_max_count: summarized, nothing re-requested.
    @Test func aLargeGapIsSummarized() {
        var s = tinyScenario()
        s.queue.repeatMaxCount = 1
        var w = ScriptedWorld(s, letters: [at(0), at(1 * hour), at(70 * minute), at(80 * minute)],
                              offline: [30 * minute..<2 * hour])
        let rows = logged(&w).rows
        expectEqual(rows.map(\.answer), [.none, .summarized], "\(w.traceText)")
        expectEqual(rows.map(\.gapSize), [0, 2])
    }

    /// XIVA answers with an error (`request_error: 1`) while the extension waits: `error`.
    @Test func anErrorAnswerIsLoggedAsError() {
        var s = tinyScenario()
        s.xiva.requestError = 1
        var w = ScriptedWorld(s, letters: [at(0), at(1 * hour, lost: true), at(2 * hour)])
        let (rows, ledger) = logged(&w)
        expectEqual(rows.map(\.answer), [.none, .error], "\(w.traceText)")
        expectEqual(ledger.reRequests, 1)
    }

    /// The answer comes after the extension's deadline: `timeout`; with the run ending before
    /// either, `pending`.
    @Test func aLateAnswerIsATimeoutAndAnUnansweredOnePending() {
        var s = tinyScenario()
        s.xiva.requestLatency = constant(40 * sec)
        var w = ScriptedWorld(s, letters: [at(0), at(1 * hour, lost: true), at(2 * hour)])
        // XIVA still re-sends after the extension has gone: that push is logged too.
        expectEqual(logged(&w).rows.map(\.answer), [.none, .timeout, .none], "\(w.traceText)")
        // The push revealing the gap arrives 10 s before the end (1 day + 1 day of drain).
        s.xiva.requestLatency = constant(1 * hour)
        let end = 2 * day
        w = ScriptedWorld(s, letters: [at(0), at(1 * hour, lost: true), at(end - 10 * sec - 150 * ms)])
        expectEqual(logged(&w).rows.map(\.answer), [.none, .pending], "\(w.traceText)")
    }

    /// Processing past the deadline: the gap was found but the re-request never sent.
    @Test func aRunOutOfTimeLogsNotSent() {
        var w = ScriptedWorld(tinyScenario(), letters: [at(0), at(1 * minute, lost: true), at(2 * minute, processing: 40 * sec)])
        let (rows, ledger) = logged(&w)
        expectEqual(rows.map(\.answer), [.none, .notSent], "\(w.traceText)")
        expectEqual(rows.map(\.gapSize), [0, 1])
        expectEqual(ledger.reRequests, 0)
    }

    /// Warm-up letters are simulated but not counted, so not logged either (as telemetry).
    @Test func warmUpLettersAreNotLogged() {
        var s = tinyScenario()
        s.warmup = span(30 * minute)
        var w = ScriptedWorld(s, letters: [at(0), at(1 * hour, lost: true), at(2 * hour)])
        let (rows, ledger) = logged(&w)
        expectEqual(rows.map(\.position), [3, 2], "\(w.traceText)")
        expectEqual(rows.count, ledger.pushesSeenByExtensions)
    }

    /// A world without a recorder behaves the same: the log only watches.
    @Test func recordingChangesNoCount() {
        var w = ScriptedWorld(tinyScenario(), letters: [at(0), at(1 * hour), at(70 * minute), at(80 * minute)],
                              offline: [30 * minute..<2 * hour])
        let plain = w.run(.on)
        let fates = w.fates()
        let (_, withLog) = logged(&w)
        expectEqual(plain, withLog)
        expectEqual(fates, w.fates())
    }
}
