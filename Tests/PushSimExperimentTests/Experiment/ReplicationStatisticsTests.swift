// Tests of means and 95 % intervals: exact t quantiles, a hand-computed case, and coverage.
import Foundation
import Testing
@testable import PushSimCore
@testable import PushSimExperiment
import PushSimTestSupport

@Suite struct ReplicationStatisticsTests {
    /// Reference values of t(0.975, ν), computed to 20 digits with mpmath (inverting the
    /// regularized incomplete beta function); they agree with R's qt and SciPy's t.ppf.
    @Test func studentTQuantilesMatchReferenceValues() {
        let reference: [(Int, Double)] = [(1, 12.706204736174693), (2, 4.3026527297494618), (4, 2.7764451051977935),
                                          (9, 2.2621571627982050), (30, 2.0422724563012379), (1000, 1.9623390808264081)]
        for (nu, expected) in reference {
            let t = ReplicationStatistics.studentTQuantile(0.975, degreesOfFreedom: nu)
            #expect(abs(t - expected) < 1e-9 * expected, "ν = \(nu): \(t) vs \(expected)")
        }
        #expect(abs(ReplicationStatistics.studentTQuantile(0.95, degreesOfFreedom: 5) - 2.0150483733330235) < 1e-9)
    }

    @Test func intervalOfAKnownSmallSample() throws {
        // 1…5: mean 3, s = √2.5, half-width = t(0.975, 4) · √2.5 / √5.
        let summary = ReplicationStatistics.summarize([1, 2, 3, 4, 5])
        expectEqual(summary.mean, 3)
        let expected = 2.7764451051977934 * (2.5 as Double).squareRoot() / (5 as Double).squareRoot()
        #expect(abs(try #require(summary.ci95) - expected) < 1e-9)
        expectEqual(summary.count, 5)
    }

    @Test func oneReplicationHasNoIntervalAndConstantsHaveZeroWidth() {
        expectEqual(ReplicationStatistics.summarize([4.5]), MetricSummary(mean: 4.5, ci95: nil, count: 1))
        expectEqual(ReplicationStatistics.summarize([2, 2, 2]).ci95, 0)
        // A value whose sum does not divide back exactly is still its own mean, with no spread.
        expectEqual(ReplicationStatistics.summarize([0.402432, 0.402432, 0.402432]), MetricSummary(mean: 0.402432, ci95: 0, count: 3))
        expectEqual(ReplicationStatistics.summarize([]).count, 0)
    }

    /// 4000 samples of 5 normal draws around a known mean: the 95 % interval must cover it in
    /// 95 % of them, within three binomial standard deviations (±1.0 %). Fixed seed: not flaky.
    @Test func intervalsCoverTheTrueMeanNinetyFivePercentOfTheTime() {
        var rng = RandomStream(seed: 2024)
        let trials = 4000, mean = 3.0, sigma = 2.0
        var covered = 0
        for _ in 0..<trials {
            let sample = (0..<5).map { _ in mean + sigma * rng.nextGaussian() }
            let s = ReplicationStatistics.summarize(sample)
            if let h = s.ci95, abs(s.mean - mean) <= h { covered += 1 }
        }
        let rate = Double(covered) / Double(trials)
        let tolerance = 3 * (0.95 * 0.05 / Double(trials)).squareRoot()
        #expect(abs(rate - 0.95) <= tolerance, "coverage \(rate)")
    }
}

/// The portable log-gamma of half-integers agrees with the C library's lgamma.
@Suite struct PortableLogGammaTests {
    @Test func logGammaOfHalfIntegersMatchesTheCLibrary() {
        for k in 1...400 {
            let x = Double(k) / 2
            let expected: Double = lgamma(x)
            let got = ReplicationStatistics.logGammaOfHalfInteger(k)
            #expect(abs(got - expected) <= 1e-12 * max(1, abs(expected)), "k = \(k)")
        }
    }
}
