// `pushsim sweep` refuses, before any work, a grid that would take too long as a whole.
import Testing
@testable import PushSimCLI
import PushSimTestSupport

@Suite struct SweepGuardTests {
    @Test func sweepOverTheEventBudgetIsRefusedWithTheEstimate() {
        let dir = TemporaryDirectory()
        let file = dir.write("small.yaml", smallScenarioText)
        let console = Console.capturing()
        // Each run of the small scenario is about 50 devices × 60 letters × 7 events ≈ 40 000
        // events; 3 points × 4 replications together are well over 100 000.
        let status = PushSimTool.main(["sweep", file, "--vary", "queue.repeat_max_count=0,5,10",
                                       "--replications", "4", "--max-events", "100000", "--out", dir.file("out")],
                                      console: console)
        expectEqual(status, 2)
        #expect(console.standardError.contains("refusing to sweep 'small'"))
        #expect(console.standardError.contains("--max-events"))
        #expect(!dir.listing.contains("out"))
    }

    @Test func sweepWithinTheBudgetRuns() {
        let dir = TemporaryDirectory()
        let file = dir.write("small.yaml", smallScenarioText)
        let console = Console.capturing()
        let status = PushSimTool.main(["sweep", file, "--vary", "queue.repeat_max_count=0,5",
                                       "--no-write", "--json", "--max-events", "10000000"], console: console)
        expectEqual(status, 0)
        #expect(console.standardOutput.contains("\"points\""))
    }
}
