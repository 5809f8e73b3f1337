// `run --observe` writes the observation file `calibrate` reads; calibrate recovers the value the run was made at, within its interval; `--set` reaches a distribution's argument as `--fit` does.
import Foundation
import Testing
@testable import PushSimCLI
@testable import PushSimReport
import PushSimTestSupport

@Suite struct ObserveRoundTripTests {
    /// The calibration fleet observed at an offline median of 20 minutes (set as the argument
    /// `--fit` names, on seed 1001), then the median fitted back on the file's own seed (1): the
    /// 95 % interval holds 20 minutes. The share of phones with display off is fitted beside it,
    /// as a team would: which phones have it off is drawn per seed, and on 300 phones the share
    /// seed 1001 draws is not the file's 0.15; left fixed, it would pull the median away.
    @Test func calibrateRecoversTheValueARunWasObservedAt() throws {
        let dir = TemporaryDirectory()
        let scenario = CalibrationFixture.file(in: dir)
        let observed = dir.file("obs.json")
        let run = runPushsim(["run", scenario, "--set", "connectivity.offline.median=20m", "--set", "seed=1001",
                              "--observe", observed, "--no-write", "--jobs", "1"])
        expectEqual(run.status, 0, "\(run.err)")
        let file = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: observed))) as? [String: Any])
        // Every part calibrate reads, each with its sample size; gaps per push by hour of day.
        let console = try #require(file["apns_console"] as? [String: Any])
        #expect((console["pushes"] as? Int ?? 0) > 1000)
        #expect((file["gap_sizes"] as? [String: Any])?["gaps"] as? Int ?? 0 > 0)
        let hours = try #require((file["gaps_per_push"] as? [String: Any])?["by_hour"] as? [[String: Any]])
        #expect(hours.count > 12 && hours.allSatisfy { ($0["pushes"] as? Int ?? 0) > 0 })
        expectEqual((file["re_requests_per_minute"] as? [String: Any])?["devices"] as? Int, 300)
        expectEqual((file["description"] as? String)?.contains("seed 1001"), true)

        let fit = runPushsim(["calibrate", scenario, "--observed", observed, "--fit", "device.alerts_off=0..0.5",
                              "--fit", "connectivity.offline.median=5m..2h", "--max-evaluations", "30", "--jobs", "2", "--json", "--no-write"])
        expectEqual(fit.status, 0, "\(fit.err)")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(fit.out.utf8)) as? [String: Any])
        let parameter = try #require((root["parameters"] as? [[String: Any]])?.last)
        let interval = try #require(parameter["ci95"] as? [Double])
        let truth = 20.0 * 60e6
        expectEqual(parameter["identified"] as? Bool, true)
        #expect(interval[0] <= truth && truth <= interval[1], "\(parameter)")
        #expect(interval[1] - interval[0] < 0.5 * (2 * 3600e6 - 5 * 60e6))
    }

    /// The same run writes the same observation file, byte for byte.
    @Test func theObservationFileIsDeterministic() throws {
        let dir = TemporaryDirectory()
        let scenario = CalibrationFixture.file(in: dir)
        var texts: [String] = []
        for jobs in ["1", "2"] {
            let path = dir.file("obs-\(jobs).json")
            let run = runPushsim(["run", scenario, "--set", "devices=60", "--observe", path, "--no-write", "--jobs", jobs])
            expectEqual(run.status, 0, "\(run.err)")
            texts.append(try String(contentsOfFile: path, encoding: .utf8))
        }
        #expect(texts[0] == texts[1] && !texts[0].isEmpty)
        // And calibrate reads it back to the same observations it holds.
        #expect(throws: Never.self) { try ObservationFile.parse(text: texts[0], file: "obs.json") }
    }

    @Test func observeIsRefusedWithAShard() {
        let dir = TemporaryDirectory()
        let scenario = CalibrationFixture.file(in: dir)
        let run = runPushsim(["run", scenario, "--observe", dir.file("obs.json"), "--shard", "1/2", "--no-write"])
        expectEqual(run.status, 2)
        #expect(run.err.contains("--observe is not written by a --shard run"))
        #expect(!FileManager.default.fileExists(atPath: dir.file("obs.json")))
    }
}
