// Time at its edges: durations near Int64.max microseconds, `forever` added to instants, delays that would pass the clock's end.
import Foundation
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
@testable import PushSimExperiment
import PushSimTestSupport

private func parse(_ text: String) throws -> Scenario { try ScenarioLoader.parse(text: text, file: "t.yaml") }

private func parseError(_ text: String) -> ScenarioError? {
    do { _ = try parse(text); return nil } catch { return error as? ScenarioError }
}

/// The ledger of every arm adds up, and no latency is negative (a wrapped clock would show as one).
private func expectConsistent(_ result: RunResult, _ note: String) {
    for arm in result.arms {
        let l = arm.ledger
        expectEqual(l.delivered + l.summarized + l.lost, l.letters, "\(note)")
        expectEqual(l.causes.reduce(0, +), l.lost, "\(note)")
        #expect(l.latency.maximum >= 0, "\(note)")
    }
}

@Suite struct TimeEdgeTests {
    @Test func theLongestDurationsParseAndTheNextOnesAreRefused() throws {
        // Int64.max µs is 106751991 days 4 h 0 min 54.775807 s; `forever` is Int64.max itself.
        let longest = try ValueParsers.duration("106751991d4h54s775ms806us")
        expectEqual(longest.microseconds, Int64.max - 1)
        #expect(throws: ValueParsers.Failure.self) { try ValueParsers.duration("106751991d4h54s775ms807us") }
        #expect(throws: ValueParsers.Failure.self) { try ValueParsers.duration("106751991d5h") }
        #expect(throws: ValueParsers.Failure.self) { try ValueParsers.duration("9223372036854775808us") }
        // Fractions round to the microsecond and still cannot pass the end.
        #expect(throws: ValueParsers.Failure.self) { try ValueParsers.duration("106751991d4h54s775ms806.9us") }
        try expectEqual(ValueParsers.duration("0.4us"), .zero)
    }

    @Test func durationPlusDrainMustFitTheClock() {
        // The default drain (1 d) pushes the end past the clock: the error names `duration`.
        let alone = parseError("name: t\nduration: 106751991d\ndevices: 1\n")
        expectEqual(alone?.location, SourceLocation(file: "t.yaml", line: 2, column: 11))
        expectEqual(alone?.message.contains("past the last instant"), true)
        // With a drain written, the drain is named.
        let both = parseError("name: t\nduration: 106751000d\ndrain: 1000d\ndevices: 1\n")
        expectEqual(both?.location?.line, 3)
        expectEqual(both?.message.hasPrefix("`drain`"), true)
        // Exactly at Int64.max the end would be `forever`: refused too.
        let exact = parseError("name: t\nduration: 106751991d4h54s775ms806us\ndrain: 1us\ndevices: 1\n")
        expectEqual(exact?.location?.line, 3)
    }

    @Test func delaysThatWouldPassTheClockMeanNeverArriving() throws {
        // The chain adds delays with saturation: a draw past the clock's end is an event that
        // never comes, so such a copy is unfinished at the end, never a wrapped, negative time.
        let sc = try parse("""
        name: t
        duration: 106751991d
        drain: 0
        devices: 2
        mail:
          rate: 3/106751991d
        apns:
          latency: uniform(0, 106751990d)
        extension:
          processing: lognormal(1s, 100000d)
        """)
        let result = Simulator.run(sc, jobs: 1)
        expectConsistent(result, "late delays")
        #expect(result.arms[0].ledger.letters > 0)
    }

    @Test func repeatingWindowsMustStayInsideTheClock() {
        // Laying these out would multiply past Int64.max (a trap in the simulator): refused where written.
        let base = "name: t\nduration: 1d\ndevices: 1\nconnectivity:\n  windows:\n"
        let far = parseError(base + "    - {start: 73000000d, end: 73000001d, every: 36500000d}\n")
        expectEqual(far?.location, SourceLocation(file: "t.yaml", line: 6, column: 49))
        expectEqual(far?.message.contains("`connectivity.windows[0].every`"), true)
        let late = parseError("name: t\nduration: 106751989d\ndevices: 1\nconnectivity:\n  windows:\n    - {start: 0, end: 1h, every: 10000000d}\n")
        expectEqual(late?.location?.line, 6)
        // A window longer than its period covers everything and is never multiplied out.
        #expect(parseError(base + "    - {start: 0, end: 106751990d, every: 1us}\n") == nil)
        #expect(parseError(base + "    - {start: 8h, end: 9h, every: 1d}\n") == nil)
    }

    @Test func foreverAddedToAnyInstantStaysForever() {
        let instants: [Int64] = [0, 1, SimTime.day, Int64.max / 2, Int64.max - 1]
        for t in instants {
            expectEqual(SimTime(microseconds: t) + .forever, .forever)
            expectEqual(SimTime.forever + SimTime(microseconds: t), .forever)
        }
        expectEqual(SimTime(microseconds: Int64.max - 5) + SimTime(microseconds: 5), .forever)
        expectEqual(SimTime(microseconds: Int64.min) - SimTime(microseconds: 1), SimTime(microseconds: Int64.min))
        expectEqual(SimTime.rounding(.infinity), .forever)
        expectEqual(SimTime.rounding(.nan), .zero)
        expectEqual(SimTime.rounding(-1), .zero)
        expectEqual(SimTime.rounding(9.3e18), .forever)
    }

    @Test func retentionExpirationDeadlineAndClearingForeverRun() throws {
        let sc = try parse("""
        name: forever
        duration: 3d
        drain: 0
        devices: 6
        mail:
          rate: 20/d
        connectivity:
          online: exponential(1h)
          offline: exponential(2h)
        xiva:
          retention: forever
        apns:
          loss: 10%
          expiration: forever
        device:
          clear_after: forever
        extension:
          deadline: forever
        queue:
          mode: both
          repeat_max_count: 9223372036854775807
        """)
        #expect(sc.xiva.retention.isForever && sc.apns.expiration.isForever && sc.extension.deadline.isForever)
        #expect(sc.device.clearAfter == nil)
        let result = Simulator.run(sc, jobs: 1)
        expectConsistent(result, "forever")
        #expect(result.arms[1].ledger.reRequests > 0)
    }

    @Test func aRunEndingNearTheClocksLimitWorks() throws {
        // About one letter per device over 292 000 years; every instant is close to Int64.max.
        let sc = try parse("""
        name: ancient
        duration: 106751989d
        drain: 1d
        devices: 4
        mail:
          rate: 2/106751989d
        connectivity:
          windows:
            - {start: 106751000d, end: 106751001d}
            - {start: 0, end: 1h}
        apns:
          expiration: forever
        xiva:
          retention: forever
        """)
        let estimate = ResourceEstimate(sc, jobs: 1)
        try #require(estimate.refusal(under: .init(maxEvents: 1e6, maxMemoryBytes: 1e9), name: sc.name) == nil)
        let result = Simulator.run(sc, jobs: 1)
        expectConsistent(result, "ancient")
        #expect(result.arms[0].ledger.letters > 0)
        // Latencies are what the chain adds (≈ 150 ms), not a clock that wrapped.
        #expect(result.arms[0].ledger.latency.maximum < SimTime.day || result.arms[0].ledger.delivered == 0)
    }
}
