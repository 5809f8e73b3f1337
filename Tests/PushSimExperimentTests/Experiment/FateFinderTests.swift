// Tests of finding letters by fate: the same fates as the run's ledger, in device order, for any --jobs.
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
@testable import PushSimExperiment
import PushSimTestSupport

@Suite struct FateFinderTests {
    static let text = FateFinderFixture.text

    @Test func everyCauseCountsWhatTheRunsLedgerCounts() throws {
        let scenario = try ScenarioLoader.parse(text: Self.text, file: "find.yaml")
        let run = Simulator.run(scenario)
        for arm in run.arms {
            let l = arm.ledger
            for cause in LossCause.allCases {
                let found = FateFinder.find(scenario, arm: arm.arm, query: .lost(cause), limit: 3)
                expectEqual(found.lettersMatching, l.count(of: cause), "\(arm.name) \(cause.key)")
                #expect(found.letters.allSatisfy { $0.fate == .lost(cause) })
            }
            expectEqual(FateFinder.find(scenario, arm: arm.arm, query: .lost(nil), limit: 0).lettersMatching, l.lost)
            expectEqual(FateFinder.find(scenario, arm: arm.arm, query: .summarized, limit: 0).lettersMatching, l.summarized)
            expectEqual(FateFinder.find(scenario, arm: arm.arm, query: .delivered, limit: 0).lettersMatching, l.delivered)
        }
    }

    @Test func theListIsTheFirstLettersInDeviceOrderWhateverTheThreads() throws {
        let scenario = try ScenarioLoader.parse(text: Self.text, file: "find.yaml")
        let one = FateFinder.find(scenario, arm: .off, query: .lost(nil), limit: 7, jobs: 1)
        let four = FateFinder.find(scenario, arm: .off, query: .lost(nil), limit: 7, jobs: 4)
        expectEqual(one, four)
        expectEqual(one.letters.count, 7)
        let order = one.letters.map { [$0.device, $0.letter] }
        expectEqual(order, order.sorted { $0.lexicographicallyPrecedes($1) })
        #expect(one.devicesMatching <= one.devicesSearched && one.devicesSearched == 40)
    }

    @Test func queriesParseFromTheirNames() {
        expectEqual(FateQuery.parse("lost:apns_replaced"), .lost(.apnsReplaced))
        expectEqual(FateQuery.parse("lost"), .lost(nil))
        expectEqual(FateQuery.parse("summarized"), .summarized)
        #expect(FateQuery.parse("lost:nope") == nil && FateQuery.parse("gone") == nil)
        #expect(FateQuery.every.allSatisfy { FateQuery.parse($0)?.description == $0 })
    }
}
