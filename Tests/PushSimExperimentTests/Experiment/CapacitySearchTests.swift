// The capacity search against shares whose crossing has a closed form.
import Foundation
import Testing
@testable import PushSimExperiment
import PushSimTestSupport

@Suite struct CapacitySearchTests {
    /// Seed r's share answered in time at capacity c: κ(1 − e^(−c/θ_r)), whose least capacity
    /// reaching t is −θ_r ln(1 − t/κ); errors make up what κ misses.
    static func share(_ c: Double, theta: Double, ceiling: Double = 1) -> CapacityObservation {
        let s = ceiling * (1 - exp(-c / theta))
        return CapacityObservation(share: s, timeoutsPerReRequest: (1 - s) - (1 - ceiling), errorsPerReRequest: 0,
                                   requestErrorsPerReRequest: 1 - ceiling, reRequests: 1000)
    }

    @Test func eachSeedBracketsItsOwnCrossingToTheResolution() throws {
        let thetas = [5.0, 6.0, 7.0]
        let settings = CapacitySearchSettings(target: 0.99, replications: 3, start: 1, resolution: 0.005)
        let answer = try CapacitySearch.run(settings, seeds: [11, 12, 13]) { c, r in
            CapacitySearchTests.share(c, theta: thetas[r])
        }
        let truths = thetas.map { -$0 * log(1 - 0.99) }
        for (search, truth) in zip(answer.seeds, truths) {
            let reached = try #require(search.reached), missed = try #require(search.missed)
            #expect(missed < truth && truth <= reached, "\(missed) < \(truth) ≤ \(reached)")
            #expect(reached - missed <= 0.005 * reached)
        }
        // The answer is the seeds' answers' mean and Student-t interval: the truths' mean lies
        // within the resolution of it, and the interval is the spread of three thresholds.
        let summary = try #require(answer.perThousand)
        let mean = truths.reduce(0, +) / 3
        #expect(abs(summary.mean - mean) <= 0.005 * summary.mean)
        let expected = ReplicationStatistics.summarize(answer.seeds.compactMap(\.reached))
        expectEqual(summary, expected)
        #expect(answer.ceilingShare.mean > 0.99)
        #expect(answer.cap.cause.hasPrefix("nothing"), "no errors and no time-outs with no limit")
        // The first seed's answer starts the others: they need fewer runs than it did.
        #expect(answer.seeds[1].tried.count < answer.seeds[0].tried.count)
    }

    /// A ceiling below the target (errors take 0.53 % whatever the capacity): no answer, and the
    /// errors are named as what caps the share.
    @Test func aCeilingBelowTheTargetIsSaidAndItsCauseNamed() throws {
        let settings = CapacitySearchSettings(target: 0.995, replications: 2, start: 30)
        var runs = 0
        let answer = try CapacitySearch.run(settings, seeds: [1, 2]) { c, _ in
            runs += 1
            return CapacitySearchTests.share(c, theta: 6, ceiling: 0.9947)
        }
        #expect(answer.perThousand == nil)
        #expect(answer.seeds.allSatisfy { $0.reached == nil && $0.tried.isEmpty })
        expectEqual(runs, 2, "only the ceiling runs")
        #expect(abs(answer.ceilingShare.mean - 0.9947) < 1e-6)
        #expect(answer.cap.cause.hasPrefix("error answers (xiva.request_error)"))
        #expect(abs(answer.cap.perReRequest - 0.0053) < 1e-9)
    }

    /// A start far above or below the crossing finds it all the same.
    @Test(arguments: [0.001, 1e5]) func theStartOnlyCostsRuns(_ start: Double) throws {
        let settings = CapacitySearchSettings(target: 0.9, replications: 2, start: start, resolution: 0.01)
        let answer = try CapacitySearch.run(settings, seeds: [1, 2]) { c, _ in CapacitySearchTests.share(c, theta: 10) }
        let truth = -10 * log(0.1)
        let summary = try #require(answer.perThousand)
        #expect(abs(summary.mean - truth) <= 0.01 * truth)
    }
}
