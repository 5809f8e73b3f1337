// Test support for `calibrate`: a small fleet, observations PushSim makes of it at known parameters, and the fit back.
@testable import PushSimCore
@testable import PushSimScenarioFile
@testable import PushSimExperiment

/// A fleet small enough to simulate dozens of times per test: 300 phones, two days counted
/// after a day of warm-up, offline periods lognormal around a 40-minute median, a share of
/// phones with notification display off.
package enum CalibrationFixture {
    package static let scenarioText = """
    name: calibration-fleet
    seed: 1
    duration: 3d
    warmup: 1d
    drain: 1d
    devices: 300
    mail:
      rate: 40/d
    connectivity:
      online: exponential(3h)
      offline: lognormal(40m, 6h)
    apns:
      expiration: 1d
    device:
      alerts_off: 0.15
      clear_after: exponential(2h)
    queue:
      mode: on
    """

    /// The scenario file written into `directory`.
    package static func file(in directory: TemporaryDirectory) -> String {
        directory.write("calibration-fleet.yaml", scenarioText)
    }

    /// What a team would observe of the fleet at the file's parameters with `overrides` on
    /// top, on seed `seed`: every console share, the gap sizes, gaps per push, re-requests.
    package static func observations(path: String, overrides: [String] = [], seed: UInt64) throws -> CalibrationObservations {
        let scenario = try ScenarioLoader.load(path: path, overrides: overrides + ["seed=\(seed)"])
        let (result, logs) = Simulator.run(scenario, logs: true)
        return CalibrationObservations.measured(result, logs: logs, scenario: scenario)
    }

    /// Fits `fits` (`PATH=LOW..HIGH`) to `observations` on the file's own seed, or `seed`.
    package static func calibrate(path: String, fits: [String], observations: CalibrationObservations,
                                  maxEvaluations: Int = 30, seed: UInt64? = nil) throws -> CalibrationResult {
        let overrides = seed.map { ["seed=\($0)"] } ?? []
        let base = try ScenarioLoader.load(path: path, overrides: overrides)
        let prepared = try ScenarioLoader.prepare(path: path, overrides: overrides)
        let parameters = try fits.map { try FitParameter.read($0, in: base) }
        return try CalibrationRunner.run(prepared, base: base, parameters: parameters, observations: observations,
                                         settings: CalibrationSettings(maxEvaluations: maxEvaluations))
    }
}
