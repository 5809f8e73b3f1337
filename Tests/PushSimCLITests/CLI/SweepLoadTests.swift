// `sweep --fleet` and `--load-bin`: the load metrics of every point, at two resolutions, the same figures `run` reports.
import Foundation
import Testing
@testable import PushSimCLI
import PushSimTestSupport

private let herd = SmallScenarios.path("thundering-herd")
private let small = ["--set", "devices=500", "--set", "xiva.partitions=1", "--set", "duration=1d14h", "--set", "xiva.capacity=14/s", "--jobs", "1"]

/// The object at a dotted path of a JSON document.
private func at(_ root: Any?, _ path: String) -> Any? {
    path.split(separator: ".").reduce(root) { ($0 as? [String: Any])?[String($1)] }
}

@Suite struct SweepLoadTests {
    /// A run's queue-arm load object (`--json`), binned by `bin`, scaled to a fleet of a million.
    func runLoad(bin: String) throws -> Any? {
        let run = runPushsim(["run", herd, "--load-bin", bin, "--fleet", "1M", "--json", "--no-write"] + small)
        expectEqual(run.status, 0, "\(run.err)")
        let root = try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any]
        return (root?["runs"] as? [[String: Any]])?.last?["load"]
    }

    /// The busiest second is the run's with 1 s bins, the busiest minute the run's with 1 m bins
    /// (over 60), the mean the same in both; per 1 000 phones is the fleet's over 1 000.
    @Test func theLoadMetricsAreTheRunsAtBothResolutions() throws {
        let dir = TemporaryDirectory()
        let sweep = runPushsim(["sweep", herd, "--only-vary", "--vary", "xiva.capacity=14/s", "--load-bin", "1s", "--fleet", "1M",
                                "--out", dir.file("s")] + small)
        expectEqual(sweep.status, 0, "\(sweep.err)")
        let root = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir.file("s/sweep.json"))))
        let arm = try #require((at(root, "points") as? [[String: Any]])?.first?["runs"] as? [[String: Any]]).last
        func figure(_ path: String) throws -> Double { try #require(at(arm, path + ".mean") as? Double, "\(path)") }
        let seconds = try runLoad(bin: "1s"), minutes = try runLoad(bin: "1m")
        let peakSecond = try #require(at(seconds, "re_requests.fleet.peak_per_s") as? Double)
        let peakMinute = try #require(at(minutes, "re_requests.fleet.peak_per_s") as? Double)
        try expectEqual(figure("load.re_requests.fleet.peak_per_s_1s"), peakSecond)
        #expect(abs(try figure("load.re_requests.fleet.peak_per_s_1m") - peakMinute) <= 1e-9 * peakMinute)
        #expect(peakSecond > 10 * peakMinute, "the herd comes back within seconds: \(peakSecond) vs \(peakMinute)")
        let mean = try #require(at(seconds, "re_requests.fleet.mean_per_s") as? Double)
        #expect(abs(try figure("load.re_requests.fleet.mean_per_s") - mean) <= 1e-9 * mean)
        #expect(abs(try figure("load.pushes_sent.per_1000.peak_per_s_1s") * 1000 - (try figure("load.pushes_sent.fleet.peak_per_s_1s"))) < 1e-6)
    }

    /// Binned by the minute (`--fleet` alone), the busiest second is n/a with the reason; a sweep
    /// with neither option carries no load metrics.
    @Test func aResolutionTheBinsCannotGiveIsNotApplicable() throws {
        let dir = TemporaryDirectory()
        let sweep = runPushsim(["sweep", herd, "--only-vary", "--vary", "xiva.capacity=14/s", "--fleet", "1M", "--out", dir.file("s")] + small)
        expectEqual(sweep.status, 0, "\(sweep.err)")
        let root = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir.file("s/sweep.json"))))
        let arm = try #require((at(root, "points") as? [[String: Any]])?.first?["runs"] as? [[String: Any]]).last
        expectEqual((at(arm, "load.re_requests.fleet.peak_per_s_1s.not_applicable") as? String)?.contains("--load-bin 1s"), true)
        #expect(at(arm, "load.re_requests.fleet.peak_per_s_1m.mean") is Double)
        let plain = runPushsim(["sweep", herd, "--only-vary", "--vary", "xiva.capacity=14/s", "--out", dir.file("p")] + small)
        expectEqual(plain.status, 0, "\(plain.err)")
        let csv = try String(contentsOfFile: dir.file("p/sweep.csv"), encoding: .utf8)
        #expect(!csv.contains("load."))
    }
}
