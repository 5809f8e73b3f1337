// Tests of the shared-server keys of `xiva`: outages, outage_mode, capacity, queue_timeout, partitions.
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
import PushSimTestSupport

@Suite struct XivaKeysTests {
    private func decode(_ text: String, overrides: [String] = []) throws -> Scenario {
        try ScenarioLoader.parse(text: text, file: "t.yaml", overrides: overrides)
    }
    private let s = SimTime.second, m = SimTime.minute, h = SimTime.hour, d = SimTime.day
    private func t(_ us: Int64) -> SimTime { SimTime(microseconds: us) }
    /// A scenario whose xiva section holds `lines` (each indented under `xiva:`).
    private func xiva(_ lines: String...) -> String {
        minimalScenario + "xiva:\n" + lines.map { "  \($0)\n" }.joined()
    }
    /// The message and place of the error for `text`.
    private func failure(_ text: String) -> (String, String) {
        let error = scenarioError(text)
        return (place(error), error?.message ?? "no error")
    }

    @Test func versionOneScenarioKeepsTheDefaultsAndPrintsNoNewKey() throws {
        let sc = try decode(ContractExample.text)
        #expect(sc.xiva.outages.isEmpty && sc.xiva.outageMode == .delay)
        #expect(sc.xiva.capacityPerMicrosecond == nil && sc.xiva.queueTimeout == .forever && sc.xiva.partitions == 1)
        let printed = ScenarioPrinter.yaml(sc)
        for key in ["outages", "outage_mode", "capacity", "queue_timeout", "partitions"] { #expect(!printed.contains(key)) }
    }

    @Test func capacityQueueTimeoutAndPartitionsAreReadAndPrintedBack() throws {
        let sc = try decode(xiva("capacity: forever", "queue_timeout: 20s", "partitions: 10", "outage_mode: drop"))
        #expect(sc.xiva.capacityPerMicrosecond == nil)
        expectEqual(sc.xiva.queueTimeout, t(20 * s))
        expectEqual(sc.xiva.partitions, 10)
        expectEqual(sc.xiva.outageMode, .drop)
        let again = try decode(ScenarioPrinter.yaml(sc))
        expectEqual(again.xiva.queueTimeout, t(20 * s))
        expectEqual(again.xiva.partitions, 10)
        expectEqual(again.xiva.outageMode, .drop)
        try expectEqual(decode(minimalScenario, overrides: ["xiva.partitions=3"]).xiva.partitions, 3)
    }

    @Test func badCapacityPartitionsAndModeAreLocatedErrors() {
        let (zeroPlace, zero) = failure(xiva("capacity: 0/s"))
        #expect(zeroPlace == "t.yaml:5:13" && zero.contains("`xiva.capacity`: expected a capacity greater than 0"))
        #expect(failure(xiva("capacity: 5")).1.contains("expected a rate COUNT/DURATION"))
        #expect(failure(xiva("capacity: 1/300000y")).1.contains("`xiva.capacity`"))
        let (manyPlace, many) = failure(xiva("partitions: 11"))
        #expect(manyPlace == "t.yaml:5:15" && many.contains("at most one partition per device (devices: 10)"))
        #expect(failure(xiva("partitions: 0")).1.contains("`xiva.partitions`"))
        let (modePlace, mode) = failure(xiva("outage_mode: dely"))
        #expect(modePlace == "t.yaml:5:16" && mode.contains("expected one of delay, drop, found `dely`; did you mean `delay`?"))
        #expect(failure(xiva("queue_timeout: -1s")).1.contains("`xiva.queue_timeout`"))
        #expect(failure(xiva("capcity: 1/s")).1.contains("did you mean `capacity`?"))
    }

    @Test func outagesAreReadWithLengthsAsEndsAndNightsMoved() throws {
        let sc = try decode(xiva("outages:", "  - {start: 2h, end: 4h, every: 1d}", "  - {start: 10h, length: 30m}",
                                 "  - {start: 23h, end: 1h, every: 1d}"))
        #expect(sc.xiva.outages == [XivaOutage(start: t(2 * h), end: t(4 * h), every: t(d)),
                                    XivaOutage(start: t(10 * h), end: t(10 * h + 30 * m)),
                                    XivaOutage(start: t(23 * h), end: t(25 * h), every: t(d))])
        try expectEqual(decode(ScenarioPrinter.yaml(sc)).xiva.outages, sc.xiva.outages)
    }

    @Test func finiteCapacityIsReadAndPrintedBack() throws {
        let sc = try decode(xiva("capacity: 100/s", "queue_timeout: 20s", "partitions: 2"))
        expectEqual(sc.xiva.capacityPerMicrosecond, 100.0 / 1_000_000)
        let back = try decode(ScenarioPrinter.yaml(sc)).xiva
        #expect(back.capacityPerMicrosecond == sc.xiva.capacityPerMicrosecond && back.queueTimeout == sc.xiva.queueTimeout
                && back.partitions == 2)
    }

    @Test func outagesThatOverlapTouchOrRepeatIntoThemselvesAreRefused() {
        let touching = failure(xiva("outages:", "  - {start: 2h, end: 4h}", "  - {start: 4h, end: 5h}"))
        #expect(touching.0 == "t.yaml:7:15" && touching.1.contains("`xiva.outages[1]` overlaps or touches `xiva.outages[0]` (at 4h)"))
        // A repetition reaching the next day's one-off outage.
        let repeated = failure(xiva("outages:", "  - {start: 1d1h, length: 1h}", "  - {start: 0, end: 90m, every: 1d}"))
        #expect(repeated.0 == "t.yaml:7:15" && repeated.1.contains("overlaps or touches `xiva.outages[0]`"))
        let selfTouching = failure(xiva("outages:", "  - {start: 0, end: 1h, every: 1h}"))
        #expect(selfTouching.0 == "t.yaml:6:27" && selfTouching.1.contains("overlaps or touches its own next repetition"))
        #expect(failure(xiva("outages:", "  - {start: 2h, end: 1h}")).1.contains("expected a time after start"))
        #expect(failure(xiva("outages:", "  - {start: 2h, end: 3h, spread: 1h}")).1.contains("unknown key `spread`"))
        #expect(failure(xiva("outages:", "  - {start: 2h, length: exponential(1h)}")).1.contains("a constant duration"))
        #expect(failure(xiva("outages:", "  - {start: 2h}")).1.contains("missing required key `end`"))
        #expect(failure(xiva("outages:", "  - {start: 2h, end: 3h, length: 1h}")).1.contains("not both"))
        #expect(failure(xiva("outages:", "  - {start: 0, end: 2us, every: 3us}")).1.contains("repeat more than"))
    }

    @Test func layoutGivesTheOccurrencesThatReachIntoTheRunInTimeOrder() throws {
        // A night from 23h to 7h, every day, over a 2-day run: the one already running at 0 too.
        let night = XivaOutage(start: t(23 * h), end: t(31 * h), every: t(d))
        let once = XivaOutage(start: t(12 * h), end: t(13 * h))
        let laid = try #require(XivaOutage.layout([night, once], runEnd: t(2 * d)))
        expectEqual(laid.map(\.interval), [(-h)..<(7 * h), (12 * h)..<(13 * h), (23 * h)..<(31 * h), (47 * h)..<(55 * h)])
        expectEqual(laid.map(\.outage), [0, 1, 0, 0])
    }
}
