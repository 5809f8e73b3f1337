// The hunt after round three, the command side: refusals that name the fix of what overflows.
import Foundation
import Testing
@testable import PushSimCLI
import PushSimTestSupport

@Suite struct HostileHuntCommandTests {
    /// A device with too many connectivity changes was told to "lower mail.rate or the
    /// duration, or lengthen …": the fix now names only what overflows.
    @Test func thePerDeviceLimitNamesTheFixOfWhatOverflows() {
        let flips = runPushsim(["run", SmallScenarios.path("quickstart"), "--no-write", "--set", "devices=2",
                                "--set", "connectivity.online=1us", "--set", "connectivity.offline=1us"])
        expectEqual(flips.status, 2)
        #expect(flips.err.contains("connectivity changes, more than the simulator can index per device (2.1 billion); lengthen the online/offline periods"), "\(flips.err)")
        #expect(!flips.err.contains("index per device (2.1 billion); lower mail.rate"), "\(flips.err)")
        let letters = runPushsim(["run", SmallScenarios.path("quickstart"), "--no-write", "--set", "devices=2", "--set", "mail.rate=1/1us"])
        expectEqual(letters.status, 2)
        #expect(letters.err.contains("letters, more than the simulator can index per device (2.1 billion); lower mail.rate (or mail.bursts) or the duration;"), "\(letters.err)")
    }

    /// `pushsim help nosuch` printed the general help with status 0, as if it had answered.
    @Test func helpForAnUnknownCommandIsBadUsage() {
        let unknown = runPushsim(["help", "rn"])
        expectEqual(unknown.status, 2)
        #expect(unknown.err.hasPrefix("pushsim help: unknown command 'rn' (did you mean 'run'?)"), "\(unknown.err)")
        #expect(unknown.out.isEmpty)
        let two = runPushsim(["help", "run", "sweep"])
        expectEqual(two.status, 2)
        #expect(two.err.hasPrefix("pushsim help: expected one command, got 2: run sweep"), "\(two.err)")
        for fine in [["help"], ["help", "help"], ["help", "--help"], ["help", "run"]] {
            expectEqual(runPushsim(fine).status, 0, "\(fine)")
        }
    }

    /// `--seed +5` (and `-0`) passed the option's check (Swift reads them) and was then refused
    /// as `--set:1:6: seed`, an option the user never gave.
    @Test func aSeedWithASignIsRefusedAsTheSeedOption() {
        for seed in ["+5", "-0", " 5", "0x10"] {
            for command in [["run", SmallScenarios.path("quickstart"), "--no-write"], ["check", "--all", SmallScenarios.directory.path]] {
                let result = runPushsim(command + ["--seed", seed])
                expectEqual(result.status, 2)
                #expect(result.err.contains("--seed needs an unsigned 64-bit integer, got '\(seed)'"), "\(seed): \(result.err)")
                #expect(!result.err.contains("--set:"), "\(seed): \(result.err)")
            }
        }
    }
}

