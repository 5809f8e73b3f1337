// The fifth hostile round, `--set`: a key below a distribution's argument is named as such.
import Foundation
import Testing
@testable import PushSimCLI
import PushSimTestSupport

@Suite struct HostileRoundFiveSetTests {
    /// `connectivity.offline.mean.x` was said to be below `connectivity.offline`, "a single
    /// value with no key `mean`", though `.mean` is the argument `--set` and `--fit` reach.
    @Test func aKeyBelowADistributionsArgumentIsNamedAtItsOwnColumn() {
        let dir = TemporaryDirectory()
        let scenario = dir.write("base.yaml", """
            name: base
            duration: 1h
            devices: 2
            mail:
              rate: 40/d
            connectivity:
              online: exponential(3h)
              offline: exponential(40m)

            """)
        let result = runPushsim(["validate", scenario, "--set", "connectivity.offline.mean.x=1m"])
        expectEqual(result.status, 2)
        #expect(result.err.contains("--set:1:27: `connectivity.offline.mean` can be at most one argument of a distribution, a single value: it has no key `x`"), "\(result.err)")
        // The argument itself is reached as before.
        expectEqual(runPushsim(["validate", scenario, "--set", "connectivity.offline.mean=20m"]).status, 0)
    }
}
