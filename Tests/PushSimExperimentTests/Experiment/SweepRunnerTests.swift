// Tests of running a sweep: replication 0 is `run`, common random numbers, summaries per arm.
import Testing
@testable import PushSimScenarioFile
@testable import PushSimExperiment
@testable import PushSimCore
import PushSimTestSupport

@Suite struct SweepRunnerTests {
    @Test func replicationZeroReproducesAPlainRun() throws {
        let result = SweepRunner.run(try SweepFixture.plan([SweepFixture.axis], replications: 2))
        let scenario = try ScenarioLoader.parse(text: SweepFixture.text, file: "f", overrides: ["queue.repeat_max_count=2"])
        let plain = Simulator.run(scenario)
        expectEqual(result.points[1].replications[0].arms, plain.arms.map { ArmMetrics($0, offArm: plain.offArm) })
        expectEqual(result.points[1].replications[0].seed, 5)
    }

    @Test func theQueueOffArmIsIdenticalAtEveryPointOfARepeatMaxCountSweep() throws {
        // Common random numbers: the off arm does not read repeat_max_count, so it must not move.
        let result = SweepRunner.run(try SweepFixture.plan([SweepFixture.axis], replications: 3))
        let offArms = result.points.map { $0.replications.map { $0.arms[0] } }
        #expect(offArms.allSatisfy { $0 == offArms[0] })
        #expect(result.points[0].summaries[0].metrics["loss_rate"]?.mean ?? 0 > 0)
    }

    @Test func summariesAverageTheReplications() throws {
        let result = SweepRunner.run(try SweepFixture.plan([SweepFixture.axis], replications: 3))
        let point = result.points[2]
        let values = point.replications.map { $0.arms[1].values["resent"] ?? -1 }
        let summary = try #require(point.summaries[1].metrics["resent"])
        expectEqual(summary, ReplicationStatistics.summarize(values))
        expectEqual(point.summaries.map(\.queue), ["off", "on"])
    }

    @Test func everyNumberOfRunJSONIsAMetricPlusThePerLetterRatios() throws {
        let scenario = try ScenarioLoader.parse(text: SweepFixture.text, file: "f")
        let on = Simulator.run(scenario).arms[1]
        let metrics = ArmMetrics(on)
        for name in ["letters", "delivered", "summarized", "lost", "duplicates", "loss_rate", "duplicate_rate",
                     "latency_s.p50", "latency_s.p90", "latency_s.p99", "latency_s.max", "causes.apns_replaced",
                     "causes.unfinished", "events", "re_requests", "resent", "summaries", "extension_timeouts",
                     "telemetry.estimated_loss_rate", "telemetry.gaps_detected", "summaries_per_letter",
                     "resent_per_letter", "re_requests_per_letter", "summarized_rate"] {
            #expect(metrics.values[name] != nil, "missing \(name)")
        }
        expectEqual(metrics.values["resent_per_letter"], Double(on.ledger.resent) / Double(on.ledger.letters))
        #expect(metrics.values["queue"] == nil)
    }

    @Test func threadsNeverChangeASweepAndProgressCountsEveryRun() throws {
        let plan = try SweepFixture.plan([SweepFixture.axis], replications: 2)
        var reported: [Int] = []
        let one = SweepRunner.run(plan, jobs: 1) { done, total in
            reported.append(done)
            expectEqual(total, 6)
        }
        expectEqual(reported, Array(1...6))
        expectEqual(SweepRunner.run(plan, jobs: 3), one)
    }

    @Test func badPointsAndSeedAxesAreRejectedBeforeAnythingRuns() throws {
        #expect(throws: SweepError.self) {
            try SweepFixture.plan([SweepAxis(path: "queue.repeat_max_count", values: ["1", "many"])], replications: 1)
        }
        #expect(throws: SweepError.self) { try SweepFixture.plan([SweepAxis(path: "seed", values: ["1", "2"])], replications: 1) }
        #expect(throws: SweepError.self) { try SweepFixture.plan([], replications: 0) }
        #expect(throws: SweepError.self) { try SweepFixture.plan([SweepFixture.axis, SweepFixture.axis], replications: 1) }
    }
}
