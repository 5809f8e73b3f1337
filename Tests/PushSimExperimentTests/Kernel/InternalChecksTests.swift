// The invariant checks themselves: compiled in exactly when the flag is set, and silent on a run that keeps them.
import Testing
@testable import PushSimCore
@testable import PushSimExperiment

@Suite struct InternalChecksTests {
    /// In the checking build (.ci/run's second `swift test`) the checks are on; in the plain
    /// one they are compiled out, and a failing condition is not even evaluated.
    @Test func theFlagDecidesWhetherChecksRun() {
        #if PUSHSIM_INTERNAL_CHECKS
        #expect(InternalChecks.enabled)
        #else
        #expect(!InternalChecks.enabled)
        var evaluated = false
        InternalChecks.require({ evaluated = true; return false }(), "never checked")
        #expect(!evaluated)
        #endif
    }

    /// Random scenarios of every kind run to the end with the checks on (a broken invariant
    /// would stop the test process at the step that broke it).
    @Test func randomScenariosKeepEveryInvariant() {
        for k in 0..<12 {
            let result = Simulator.run(randomScenario(UInt64(k)), jobs: 1)
            #expect(result.arms.allSatisfy { $0.ledger.identitiesHold })
        }
    }
}
