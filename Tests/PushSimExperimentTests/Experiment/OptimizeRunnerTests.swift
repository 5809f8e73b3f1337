// The pieces of `pushsim optimize` below the command: the settings' checks and the Bonferroni paired differences, against closed forms.
import Foundation
import Testing
@testable import PushSimExperiment
import PushSimTestSupport

@Suite struct OptimizeRunnerTests {
    static let good = OptimizeSettings(metric: "loss_rate", delta: 0.001, alpha: 0.05, firstStage: 10, maxReplications: 100)

    @Test func sensibleSettingsPass() {
        #expect(OptimizeRunner.refusal(Self.good, systems: 3) == nil)
    }

    @Test func eachBadSettingIsRefusedNamingItsOption() {
        var cases: [(OptimizeSettings, Int, String)] = []
        var s = Self.good
        cases.append((s, 1, "two candidate values"))
        s.delta = 0; cases.append((s, 3, "--indifference"))
        s = Self.good; s.delta = -0.1; cases.append((s, 3, "--indifference"))
        s = Self.good; s.delta = .infinity; cases.append((s, 3, "--indifference"))
        s = Self.good; s.alpha = 0; cases.append((s, 3, "--confidence"))
        s = Self.good; s.alpha = 0.6; cases.append((s, 3, "--confidence"))
        s = Self.good; s.firstStage = 1; cases.append((s, 3, "--first-stage"))
        s = Self.good; s.maxReplications = 9; cases.append((s, 3, "--max-replications"))
        for (settings, k, option) in cases {
            let refusal = OptimizeRunner.refusal(settings, systems: k)
            expectEqual(refusal?.contains(option), true, "\(settings), k = \(k): \(refusal ?? "accepted")")
        }
    }

    /// d = (1, 2, 3): mean 2, s = 1. With k = 3 and α = 0.05 each interval is at level
    /// 1 − 0.025, so the quantile is t(0.9875, 2) = q √2 / √(1 − q²) with q = 2·0.9875 − 1
    /// (Student t with 2 df has the closed-form F(t) = ½ + t / (2 √(2 + t²))).
    @Test func theDifferenceIsPairedAndBonferroniCorrected() throws {
        let d = OptimizeRunner.difference([11, 12, 13], [10, 10, 10], system: 2, alpha: 0.05, systems: 3)
        let q = 2 * 0.9875 - 1
        let t = q * 2.0.squareRoot() / (1 - q * q).squareRoot()
        expectEqual(d.mean, 2)
        expectEqual(d.replications, 3)
        let half = try #require(d.halfWidth)
        #expect(abs(half - t / 3.0.squareRoot()) < 1e-9)
        // With two candidates there is one comparison: no correction, the plain 95 % interval.
        let plain = OptimizeRunner.difference([11, 12, 13], [10, 10, 10], system: 1, alpha: 0.05, systems: 2)
        let q2 = 0.95
        #expect(abs((plain.halfWidth ?? 0) - q2 * 2.0.squareRoot() / (1 - q2 * q2).squareRoot() / 3.0.squareRoot()) < 1e-9)
    }

    @Test func theDifferencePairsTheCommonPrefixOnly() {
        // An eliminated system has fewer replications: only those the chosen one also has count.
        let d = OptimizeRunner.difference([5, 7], [1, 2, 3, 4], system: 0, alpha: 0.05, systems: 2)
        expectEqual(d.replications, 2)
        expectEqual(d.mean, 4.5)
        let one = OptimizeRunner.difference([5], [1, 2], system: 0, alpha: 0.05, systems: 2)
        #expect(one.halfWidth == nil)
    }
}
