// KN on synthetic systems with known means: the constant η by hand, the promised probability of correct selection, fewer replications for wider gaps.
import Testing
@testable import PushSimExperiment
@testable import PushSimCore
import PushSimTestSupport

@Suite struct KimNelsonTests {
    /// α = 0.05, k = 2, n₀ = 3: η = ½ [(0.1)^(−1) − 1] = 4.5.
    @Test func etaMatchesItsClosedForm() {
        #expect(abs(KimNelson.eta(alpha: 0.05, systems: 2, firstStage: 3) - 4.5) < 1e-12)
        // k = 4, n₀ = 10: ½ [(0.1/3)^(−2/9) − 1] = 0.564680… (computed with a calculator).
        #expect(abs(KimNelson.eta(alpha: 0.05, systems: 4, firstStage: 10) - 0.564680) < 1e-5)
    }

    /// System i's observation in replication r: μ_i + 2·Z_r + ε_ir, Z_r shared by every system
    /// in replication r (common random numbers), ε independent; each macro-replication its own seed.
    static func run(_ means: [Double], macro m: UInt64) -> SelectionResult {
        var common: [Double] = []
        var noise = RandomStream(seed: 1_000 + m)
        var shared = RandomStream(seed: 9_000_000 + m)
        var table: [[Double]] = Array(repeating: [], count: means.count)
        return KimNelson.select(systems: means.count, delta: 1, alpha: 0.05, firstStage: 10, maxReplications: 10_000) { i, r in
            while common.count <= r { common.append(shared.nextGaussian()) }
            while table[i].count <= r { table[i].append(noise.nextGaussian()) }
            return means[i] + 2 * common[r] + table[i][r]
        }
    }

    /// The slippage configuration, the hardest the guarantee covers: the best exactly δ below
    /// the others. Over 400 macro-replications the share of correct selections is at least
    /// 0.95 less three standard errors, 3 · √(0.95 · 0.05 / 400) = 0.0327.
    @Test func probabilityOfCorrectSelectionIsAtLeastThePromisedLevel() {
        let m = 400
        var correct = 0
        for macro in 0..<m {
            let result = Self.run([1, 1, 0, 1], macro: UInt64(macro))
            if result.best == 2 { correct += 1 }
            #expect(result.finished && result.survivors.count == 1)
        }
        let pcs = Double(correct) / Double(m)
        #expect(pcs >= 0.95 - 3 * (0.95 * 0.05 / Double(m)).squareRoot(), "PCS \(pcs)")
    }

    @Test func widerGapsNeedFewerReplications() {
        func total(_ means: [Double]) -> Int {
            (0..<100).reduce(0) { $0 + Self.run(means, macro: UInt64($1)).replications.reduce(0, +) }
        }
        let narrow = total([0, 1, 1, 1]), wide = total([0, 3, 3, 3])
        #expect(wide < narrow, "wide \(wide), narrow \(narrow)")
        // Deterministic for its seeds.
        expectEqual(Self.run([0, 1, 1, 1], macro: 7), Self.run([0, 1, 1, 1], macro: 7))
        // The eliminations are in order of stage.
        let eliminations = Self.run([0, 1, 2, 3], macro: 3).eliminations
        expectEqual(eliminations.map(\.replications), eliminations.map(\.replications).sorted())
        #expect(eliminations.count == 3 && !eliminations.contains { $0.system == 0 })
    }

    @Test func aCapLeavesTheSetThatCannotBeToldApart() {
        // Two equal systems never separate: the cap stops it with both left, unfinished.
        let result = KimNelson.select(systems: 2, delta: 0.001, alpha: 0.05, firstStage: 5, maxReplications: 20) { i, r in
            Double((r * 7 + i * 3) % 5)
        }
        #expect(!result.finished && result.survivors.count == 2 && result.replications == [20, 20])
    }

    /// Asked to stop (Ctrl-C), KN ends between stages: every survivor has the same
    /// replications, the result says it was stopped, and it claims no guarantee.
    @Test func aStopEndsItBetweenStages() {
        var observed = 0
        let result = KimNelson.select(systems: 3, delta: 0.001, alpha: 0.05, firstStage: 5, maxReplications: 1_000,
                                      shouldStop: { observed >= 24 }) { i, r in
            observed += 1
            return Double((r * 7 + i * 3) % 5)
        }
        #expect(result.stopped && !result.finished)
        let kept = result.survivors.map { result.replications[$0] }
        #expect(Set(kept).count == 1 && kept[0] < 1_000, "\(result.replications)")
    }
}
