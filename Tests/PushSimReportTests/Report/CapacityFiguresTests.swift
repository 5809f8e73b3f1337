// The capacity figures on hand-built partitions with known answers: answered in time at the deadline's edge, queue time-outs, the JSON, the sweep and check.
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
@testable import PushSimExperiment
@testable import PushSimReport
import PushSimTestSupport

@Suite struct CapacityFiguresTests {
    /// The merged ledger of `CoupledRunTests.herdAtOneInstant`: `n` devices re-requesting one
    /// gap at the same instant `s = 3h + 300 ms`, their pushes having arrived at `3h + 100 ms`.
    func herd(_ n: Int, perSecond capacity: Double, timeout: SimTime = .forever, deadline: SimTime) -> Ledger {
        let (ledgers, _, _, _) = CoupledRunTests().herdAtOneInstant(n, perSecond: capacity, timeout: timeout, deadline: deadline)
        var total = Ledger()
        for ledger in ledgers { total.merge(ledger) }
        return total
    }

    @Test func anAnswerExactlyAtTheDeadlineIsInTimeAndTheNextIsNot() {
        // Service 125 ms: device k's answer is back at s + (k+1)·125 ms + 300 ms, its deadline
        // at 3h + 100 ms + 3 s = s + 2.8 s, so k + 1 ≤ 20: devices 0…19 in time (19 exactly at
        // the deadline), 20…39 not, and each of those is an extension time-out.
        let total = herd(40, perSecond: 8, deadline: span(3 * sec))
        expectEqual(total.reRequests, 40)
        expectEqual(total.xivaCapacity.answeredInTime, 20)
        expectEqual(total.xivaCapacity.notInTime, 20)
        expectEqual(total.xivaCapacity.inTimeShare, 0.5)
        expectEqual(total.extensionTimeouts, 20)
        expectEqual(total.xivaErrors, 0)
        // A deadline one microsecond shorter loses device 19.
        let shorter = herd(40, perSecond: 8, deadline: span(3 * sec - 1))
        expectEqual(shorter.xivaCapacity.answeredInTime, 19)
        expectEqual(shorter.xivaCapacity.notInTime, 21)
    }

    @Test func aQueueTimeOutsErrorsAreNotInTime() {
        // Service 100 ms, time-out 2 s: waits 0…2 s are served (21), the other 39 are errors;
        // with a deadline of an hour every served one is in time.
        let total = herd(60, perSecond: 10, timeout: span(2 * sec), deadline: span(1 * hour))
        expectEqual(total.xivaServed, 21)
        expectEqual(total.xivaErrors, 39)
        expectEqual(total.xivaCapacity.answeredInTime, 21)
        expectEqual(total.xivaCapacity.notInTime, 39)
        expectEqual(total.xivaCapacity.reRequests, total.reRequests)
    }

    @Test func theJSONTableSweepAndCheckShowTheShare() throws {
        let total = herd(40, perSecond: 8, deadline: span(3 * sec))
        let arm = ArmResult(.on, ledger: total)
        guard case .object(let object) = arm.json(offArm: nil), case .object(let capacity)? = object["xiva_capacity"] else {
            Issue.record("no xiva_capacity object"); return
        }
        #expect(capacity["answered_in_time"] == .int(20) && capacity["not_in_time"] == .int(20))
        expectEqual(capacity["in_time_share"], .double(0.5))
        let metrics = ArmMetrics(arm).values
        expectEqual(metrics["xiva_capacity.in_time_share"], 0.5)
        expectEqual(metrics["extension_timeouts_per_re_request"], 0.5)
        expectEqual(metrics["xiva_errors_per_re_request"], 0)
        let share = try #require(CheckMetrics.catalogue(.on).first { $0.key == "xiva_capacity.in_time_share" })
        #expect(share.direction == .downIsWorse && share.absentMeansZero)
        guard case .share(let complement) = share.kind else { Issue.record("not a share"); return }
        expectEqual(CheckMetrics.countKeys[complement], "xiva_capacity.not_in_time")
        expectEqual(CheckComparison.shareTotal(share, total), 40)
        expectEqual(CheckComparison.verdict(share, baseline: 0.99, now: 0.95, tolerance: 0.01), .worse)
        expectEqual(CheckComparison.verdict(share, baseline: 0.95, now: 0.99, tolerance: 0.01), .better)
        #expect(!CheckMetrics.catalogue(.off).contains { $0.key == share.key })
    }

    @Test func withoutAFiniteCapacityNothingIsCountedOrShown() throws {
        var s = tinyScenario()
        s.devices = 30
        let result = Simulator.run(s)
        for arm in result.arms {
            expectEqual(arm.ledger.xivaCapacity, XivaCapacityCounters())
            guard case .object(let object) = arm.json(offArm: nil) else { continue }
            #expect(object["xiva_capacity"] == nil)
            #expect(ArmMetrics(arm).values["extension_timeouts_per_re_request"] == nil)
        }
    }

    @Test func aSweepOfFiniteCapacityHasTheColumnsAndCharts() throws {
        // The small regional outage of the coupled-run tests, queue arm only.
        let axes = [SweepAxis(path: "xiva.capacity", values: ["6/m", "4/s"])]
        let plan = try SweepPlan(axes: axes, replications: 2) { try CoupledRunTests().herd(devices: 24, extra: ["queue.mode=on"] + $0) }
        let result = SweepRunner.run(plan)
        let markdown = result.markdown
        for title in ["answered in time", "time-outs / re-request", "XIVA errors / re-request", "longest wait at XIVA", "largest queue"] {
            #expect(markdown.contains(title), "\(title)")
        }
        let files = result.charts.map(\.name)
        for spec in SweepResult.capacityChartSpecs { #expect(files.contains(spec.file)) }
        // More capacity answers more in time, on the same seeds.
        let shares = result.points.map { $0.summaries[0].metrics["xiva_capacity.in_time_share"]?.mean ?? -1 }
        #expect(shares.count == 2 && shares[0] < shares[1], "\(shares)")
    }
}
