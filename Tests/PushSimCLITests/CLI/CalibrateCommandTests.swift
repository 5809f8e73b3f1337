// End-to-end tests of `pushsim calibrate`: it writes its three files and a scenario `run` reads, and refuses bad input with exit 2, located, nothing written.
import Foundation
import Testing
@testable import PushSimCLI
@testable import PushSimExperiment
@testable import PushSimReport
import PushSimTestSupport

@Suite struct CalibrateCommandTests {
    static let observed = """
    {"description": "a test fleet",
     "apns_console": {"pushes": 20000, "shares": {"delivered": 0.70, "delivered_from_storage": 0.08, "discarded_disabled": 0.15}},
     "gaps_per_push": {"pushes": 15000, "value": 0.05}}
    """

    @Test func writesItsFilesAndACalibratedScenarioThatRuns() throws {
        let dir = TemporaryDirectory()
        let scenario = CalibrationFixture.file(in: dir)
        let observed = dir.write("obs.json", Self.observed)
        let out = dir.file("out")
        let (status, stdout, stderr) = runPushsim(["calibrate", scenario, "--observed", observed, "--fit", "device.alerts_off=0..0.4",
                                                   "--set", "devices=100", "--max-evaluations", "8", "--jobs", "1", "--out", out])
        expectEqual(status, 0, "\(stderr)")
        #expect(stdout.contains("## Fitted parameters") && stdout.contains("`device.alerts_off`"))
        try expectEqual(FileManager.default.contentsOfDirectory(atPath: out).sorted(), ["calibrate.json", "calibrate.md", "calibrated.yaml", "report.html"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/calibrate.json"))) as? [String: Any])
        let parameters = try #require(json["parameters"] as? [[String: Any]])
        expectEqual(parameters.first?["path"] as? String, "device.alerts_off")
        // Four console cells (three listed and the rest) are 3 moments, gaps per push 1, less 1 parameter.
        expectEqual((json["fit"] as? [String: Any])?["degrees_of_freedom"] as? Int, 3)
        // The calibrated scenario reads back and runs.
        let run = runPushsim(["run", out + "/calibrated.yaml", "--no-write", "--json", "--set", "duration=1d", "--set", "warmup=0"])
        expectEqual(run.status, 0, "\(run.err)")
        #expect(run.out.contains("\"scenario\":\"calibration-fleet-calibrated\""))
        // The same seed gives the same files.
        let again = runPushsim(["calibrate", scenario, "--observed", observed, "--fit", "device.alerts_off=0..0.4",
                                "--set", "devices=100", "--max-evaluations", "8", "--jobs", "2", "--json", "--no-write"])
        let first = try String(contentsOfFile: out + "/calibrate.json", encoding: .utf8)
        expectEqual(again.status, 0)
        try expectEqual(JSONValue.parse(again.out), JSONValue.parse(first))
    }

    /// Each bad input: exit 2, a message at its place, and no folder written.
    @Test(arguments: [
        ("{\"apns_console\": {\"pushes\": 10, \"shares\": {\"delivered\": 0.5}}, \"gap_size\": {}}", "obs.json:1:64", "did you mean `gap_sizes`"),
        ("{\"apns_console\": {\"pushes\": 10,\n \"shares\": {\"delivered\": 1.5}}}", "obs.json:2:13", "between 0 and 1"),
        ("{\"apns_console\": {\"pushes\": 10, \"shares\": {\"delivered\": 0.7, \"discarded_disabled\": 0.6}}}", "obs.json:1:33", "more than 1"),
        ("{\"gaps_per_push\": {\"pushes\": 0, \"value\": 0.1}}", "obs.json:1:20", "greater than 0"),
        ("{\"gaps_per_push\": {\"by_hour\": [{\"hour\": 24, \"pushes\": 5, \"value\": 0.1}]}}", "obs.json:1:33", "0 to 23"),
        ("{\"description\": \"nothing\"}", "obs.json:1:1", "nothing to fit"),
        ("{\"apns_console\": [}", "obs.json:1:19", "expected a value"),
    ])
    func badObservationFiles(text: String, location: String, words: String) throws {
        let dir = TemporaryDirectory()
        Self.expectRefused(in: dir, observed: dir.write("obs.json", text), fit: "device.alerts_off=0..0.4", location: location, words: words)
    }

    /// calibrate on the fixture fleet with `observed` and `fit`: exit 2, a message at
    /// `location` with `words`, and no folder written.
    static func expectRefused(in dir: TemporaryDirectory, observed: String, fit: String, location: String, words: String,
                              sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let scenario = CalibrationFixture.file(in: dir)
        let out = dir.file("out")
        let (status, _, stderr) = runPushsim(["calibrate", scenario, "--observed", observed, "--fit", fit, "--out", out])
        #expect(status == 2, sourceLocation: sourceLocation)
        #expect(stderr.contains(location), "\(stderr)", sourceLocation: sourceLocation)
        #expect(stderr.contains(words), "\(stderr)", sourceLocation: sourceLocation)
        #expect(!FileManager.default.fileExists(atPath: out), sourceLocation: sourceLocation)
    }

    @Test(arguments: [
        ("device.alerts_off=0.4..0.1", "--fit:1:19", "is empty"),
        ("device.alerts_off=0.2..0.2", "--fit:1:19", "is empty"),
        ("device.alerts_off=0..1.5", "--fit:1:22", "outside the key's domain"),
        ("connectivity.offline.median=1h..8h", "--fit:1:33", "outside the key's domain"),
        ("connectivity.offline.mean=1m..1h", "--fit:1:22", "not `mean`"),
        ("device.alerts_of=0..0.5", "--fit:1:8", "alerts_off"),
        ("device.alerts_off", "--fit:1:1", "PATH=LOW..HIGH"),
        ("device.alerts_off=0..1h", "--fit:1:22", "expected a probability"),
        ("device.alerts_off=1m..1h", "--fit:1:19", "expected a probability"),
        ("device.alerts_off=0.1..1h", "--fit:1:24", "not the same kind"),
    ])
    func badFitArguments(fit: String, location: String, words: String) throws {
        let dir = TemporaryDirectory()
        Self.expectRefused(in: dir, observed: dir.write("obs.json", Self.observed), fit: fit, location: location, words: words)
    }

    @Test func anObservationFileWrittenReadsBackTheSame() throws {
        let observations = CalibrationObservations(
            console: ObservedShares(shares: [.init(category: "delivered", value: 0.75), .init(category: "discarded_disabled", value: 0.1)],
                                    sampleSize: 1000),
            gapsPerPush: [ObservedGapsPerPush(hour: 3, value: 0.2, pushes: 50), ObservedGapsPerPush(hour: 7, value: 0.1, pushes: 80)],
            reRequestsPerMinute: ObservedRate(perMinute: 2.5, minutes: 1440, devices: 1e6))
        let text = ObservationFile.json(observations, description: "round trip").prettyText
        try expectEqual(ObservationFile.parse(text: text, file: "x.json"), observations)
    }
}
