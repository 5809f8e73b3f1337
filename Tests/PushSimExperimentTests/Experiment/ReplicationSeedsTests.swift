// Tests of replication seeds: deterministic, distinct, the scenario's own seed first.
import Testing
@testable import PushSimScenarioFile
@testable import PushSimExperiment
@testable import PushSimCore
import PushSimTestSupport

@Suite struct ReplicationSeedsTests {
    @Test func replicationZeroIsTheScenarioSeed() {
        expectEqual(ReplicationSeeds.seeds(base: 7, count: 3).first, 7)
        #expect(ReplicationSeeds.seeds(base: 7, count: 0).isEmpty)
    }

    @Test func seedsAreDeterministicAndAPrefixOfLongerLists() {
        let five = ReplicationSeeds.seeds(base: 42, count: 5)
        expectEqual(five, ReplicationSeeds.seeds(base: 42, count: 5))
        expectEqual(Array(ReplicationSeeds.seeds(base: 42, count: 50).prefix(5)), five)
    }

    @Test func seedsAreDistinctAndDependOnTheBase() {
        for base: UInt64 in [0, 1, 7, UInt64.max] {
            let seeds = ReplicationSeeds.seeds(base: base, count: 1000)
            expectEqual(Set(seeds).count, 1000)
        }
        #expect(ReplicationSeeds.seeds(base: 1, count: 4).dropFirst() != ReplicationSeeds.seeds(base: 2, count: 4).dropFirst())
    }

    @Test func everyPointOfAPlanUsesTheSameSeeds() throws {
        let text = """
        name: seeds
        seed: 9
        duration: 1h
        devices: 1
        """
        let axes = [SweepAxis(path: "queue.repeat_max_count", values: ["0", "3"]),
                    SweepAxis(path: "apns.loss", values: ["0", "0.5"])]
        let plan = try SweepPlan(axes: axes, replications: 4) { try ScenarioLoader.parse(text: text, file: "seeds.yaml", overrides: $0) }
        expectEqual(plan.seeds, ReplicationSeeds.seeds(base: 9, count: 4))
        let result = SweepRunner.run(plan)
        for point in result.points {
            expectEqual(point.replications.map(\.seed), plan.seeds)
        }
    }
}
