// End-to-end tests of `pushsim bench`, in-process: a mismatched baseline is refused before any
// rung runs, and `bench FILE` benches a user's scenario. No timing is asserted.
import Foundation
import Testing
@testable import PushSimReport
@testable import PushSimCLI
import PushSimTestSupport

@Suite(.serialized) struct BenchCommandTests {
    typealias S = CheckTestSupport

    @Test func aBaselineWithNoRungInCommonIsRefusedBeforeAnythingRuns() throws {
        let folder = try S.temporaryFolder()
        defer { S.remove(folder) }
        let baseline = folder + "/bench.json"
        try S.write(#"{"rungs": [{"name": "1k", "letters_per_s": 6000000}]}"#, to: baseline)
        // Days of work if it ran: this returns at once only because nothing did. Not the
        // resource guard's refusal either: the baseline is read first.
        let bench = S.pushsim(["bench", "--devices", "3000000", "--days", "3650", "--repetitions", "1000",
                               "--baseline", baseline, "--jobs", "2"])
        expectEqual(bench.status, 2)
        #expect(bench.err.contains("no rung in common with this ladder (3Mx3650d, 3Mx3650d×2); the baseline has 1k"), "\(bench.err)")
        #expect(!bench.err.contains("refusing") && bench.out.isEmpty)
    }

    @Test func benchFileRunsTheScenarioAsWrittenOnOneThreadAndInParallel() throws {
        let folder = try S.temporaryFolder()
        defer { S.remove(folder) }
        let file = folder + "/tiny.yaml"
        try S.write(S.scenarioText(name: "tiny", devices: 12), to: file)
        let bench = S.pushsim(["bench", file, "--repetitions", "1", "--jobs", "2", "--json"])
        expectEqual(bench.status, 0, "\(bench.err)")
        guard case .object(let top) = try JSONValue.parse(bench.out), case .array(let rungs)? = top["rungs"],
              case .object(let rung)? = rungs.first, case .object(let parallel)? = top["parallel"] else {
            Issue.record("no rungs: \(bench.out)"); return
        }
        expectEqual(rungs.count, 1)
        #expect(rung["name"] == .string("tiny") && rung["devices"] == .int(12) && rung["jobs"] == .int(1))
        #expect(parallel["name"] == .string("tiny") && parallel["jobs"] == .int(2))
        expectEqual(rung["events"], parallel["events"])
        for key in ["letters_per_cpu_s", "events_per_cpu_s", "cpu_seconds", "letters_per_s"] { #expect(rung[key] != nil, "\(key)") }

        // Its own JSON is a baseline for it (a generous tolerance: timing is not asserted).
        let baseline = folder + "/tiny-bench.json"
        try S.write(bench.out, to: baseline)
        let again = S.pushsim(["bench", file, "--repetitions", "1", "--jobs", "2", "--baseline", baseline, "--tolerance", "99"])
        expectEqual(again.status, 0, "\(again.err)")
        #expect(again.out.contains("tiny ") && again.out.contains("tiny×2") && again.out.contains("letters/CPU-s"))

        // --devices and --days override what is written, and name the rung so.
        let resized = S.pushsim(["bench", file, "--devices", "5,7", "--days", "1", "--repetitions", "1", "--jobs", "1", "--json"])
        expectEqual(resized.status, 0, "\(resized.err)")
        #expect(resized.out.contains("\"name\": \"tiny-5x1d\"") && resized.out.contains("\"name\": \"tiny-7x1d\""))
        #expect(!resized.out.contains("\"parallel\""))
        // The bench's own workloads do not mix with a FILE; a bad file is refused naming it.
        expectEqual(S.pushsim(["bench", file, "--quick"]).status, 2)
        try S.write("devices: [", to: folder + "/bad.yaml")
        let bad = S.pushsim(["bench", folder + "/bad.yaml"])
        #expect(bad.status == 2 && bad.err.contains("bad.yaml:"), "\(bad.err)")
    }
}
