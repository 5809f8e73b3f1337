// A calibration asks before each candidate runs: a refused one stops the search there, with its reason.
import Foundation
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
@testable import PushSimExperiment
import PushSimTestSupport

@Suite struct CalibrationAdmitTests {
    /// The third candidate is refused (as one past --max-events would be): the search stops
    /// there, no candidate after it is asked or run, and the calibration fails with the reason.
    @Test func aCandidateRefusedDuringTheSearchStopsItWithItsReason() throws {
        let dir = TemporaryDirectory()
        let path = CalibrationFixture.file(in: dir)
        let observations = try CalibrationFixture.observations(path: path, overrides: ["devices=40"], seed: 5)
        let base = try ScenarioLoader.load(path: path, overrides: ["devices=40"])
        let prepared = try ScenarioLoader.prepare(path: path, overrides: ["devices=40"])
        let parameters = try ["device.alerts_off=0..0.5"].map { try FitParameter.read($0, in: base) }
        var asked: [[String]] = []
        var ran = 0
        do {
            _ = try CalibrationRunner.run(prepared, base: base, parameters: parameters, observations: observations,
                                          settings: CalibrationSettings(maxEvaluations: 30), admit: { _, overrides in
                                              asked.append(overrides)
                                              return asked.count == 3 ? "refused: " + overrides.joined(separator: ", ") : nil
                                          }, progress: { done, _ in ran = done })
            Issue.record("the calibration went on past a refused candidate")
        } catch let error as CalibrationError {
            expectEqual(asked.count, 3)
            expectEqual(error.description, "refused: " + asked[2].joined(separator: ", "))
        }
        expectEqual(ran, 2)
    }
}
