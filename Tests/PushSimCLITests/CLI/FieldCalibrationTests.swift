// The bundled field population's calibration: its observation file parses, and the scenario holds exactly the fitted values, each inside the interval its write-up states.
import Foundation
import Testing
@testable import PushSimCore
@testable import PushSimExperiment
@testable import PushSimReport
@testable import PushSimScenarioFile
import PushSimTestSupport

@Suite struct FieldCalibrationTests {
    static let root = FuzzCorpus.repositoryRoot

    /// Reads the committed calibrate.json and checks the scenario against it; no simulation
    /// (the calibration itself is a results/ run: .ci/regenerate-results).
    @Test func theScenarioHoldsTheFittedValuesInsideTheirIntervals() throws {
        let observed = try ObservationFile.read(path: Self.root + "/scenarios/field-calibrated-observed.json")
        let console = try #require(observed.console)
        expectEqual(console.shares.map(\.category), ["stored_device_offline", "discarded_expired"])
        expectEqual(console.shares.first?.value, 0.12)

        let data = try Data(contentsOf: URL(fileURLWithPath: Self.root + "/results/field-calibrated/calibration/calibrate.json"))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let parameters = try #require(json["parameters"] as? [[String: Any]])
        let path = Self.root + "/scenarios/field-calibrated.yaml"
        let scenario = try ScenarioLoader.load(path: path)
        let readme = try String(contentsOfFile: Self.root + "/results/field-calibrated/README.md", encoding: .utf8)
        #expect(!parameters.isEmpty)
        for parameter in parameters {
            let name = try #require(parameter["path"] as? String)
            let interval = try #require(parameter["ci95"] as? [Double])
            let texts = try #require(parameter["ci95_text"] as? [String])
            let value = try #require(parameter["value"] as? Double)
            expectEqual(parameter["identified"] as? Bool, true, "\(name)")
            // The file's own value, read as calibrate reads it, lies inside the interval.
            let low = try #require(parameter["low"] as? Double), high = try #require(parameter["high"] as? Double)
            let unit = parameter["unit"] as? String
            func text(_ x: Double) -> String {
                unit == "duration" ? SimTime(microseconds: Int64(x.rounded())).description
                    : unit == "rate" ? ScenarioPrinter.rate(x) : ScenarioPrinter.decimal(x)
            }
            let fit = try FitParameter.read("\(name)=\(text(low))..\(text(high))", in: scenario)
            expectEqual(fit.start, value, "\(name): the file holds \(fit.start), calibrate fitted \(value)")
            #expect(interval[0] <= fit.start && fit.start <= interval[1], "\(name)")
            // The write-up states that interval.
            #expect(readme.contains("\(texts[0]) … \(texts[1])"), "\(name): the write-up does not state \(texts)")
        }
        // The fitted overrides change nothing in the file: it holds exactly what calibrate fitted.
        let overrides = try #require(json["overrides"] as? [String])
        #expect(ScenarioPrinter.yaml(try ScenarioLoader.load(path: path, overrides: overrides)) == ScenarioPrinter.yaml(scenario))
    }
}
