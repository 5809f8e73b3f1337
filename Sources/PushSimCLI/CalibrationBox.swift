// Before a calibration: every --fit bound makes a scenario, and the box's heaviest corner fits --max-events and --max-memory.
import PushSimCore
import PushSimExperiment
import PushSimScenarioFile

/// The candidates of a calibration are points of the `--fit` box, and the search may reach any
/// of them: each is estimated as a run would be, before the first simulation. The box's
/// corners bound it: each parameter at the end where it weighs more (found from the estimates
/// of its two ends, the others at their starting values), all at once. With many parameters
/// (more than ``perBoundLimit``) only the two corners where all are at one end are resolved, so
/// that hundreds of `--fit` cost two resolutions, not one per bound.
enum CalibrationBox {
    /// The most parameters whose ends are each resolved on their own.
    static let perBoundLimit = 16

    static func check(_ parameters: [FitParameter], prepared: ScenarioLoader.Prepared, jobs: Int,
                      limits: ResourceEstimate.Limits, name: String) throws {
        guard !parameters.isEmpty else { return }
        func weight(_ estimate: ResourceEstimate) -> Double {
            max(estimate.events / max(limits.maxEvents, 1), estimate.memoryBytes / max(limits.maxMemoryBytes, 1))
        }
        var heaviest = parameters.map(\.high)
        if parameters.count <= perBoundLimit {
            for (i, parameter) in parameters.enumerated() {
                var weights: [Double] = []
                for (bound, column) in [(parameter.low, parameter.lowColumn), (parameter.high, parameter.highColumn)] {
                    let scenario = try load(prepared, [parameter.override(bound)], parameter: parameter, bound: bound, column: column)
                    weights.append(weight(estimate(scenario, jobs: jobs)))
                }
                heaviest[i] = weights[0] > weights[1] ? parameter.low : parameter.high
            }
        } else {
            var weights: [Double] = []
            for values in [parameters.map(\.low), parameters.map(\.high)] {
                let scenario = try loadTogether(prepared, parameters, values)
                weights.append(weight(estimate(scenario, jobs: jobs)))
            }
            heaviest = weights[0] > weights[1] ? parameters.map(\.low) : parameters.map(\.high)
        }
        let corner = FitParameter.overrides(parameters, heaviest)
        let scenario = try loadTogether(prepared, parameters, heaviest)
        if let refusal = estimate(scenario, jobs: jobs).refusal(under: limits, name: name) {
            throw InputError.refused(located(refusal, name: name, at: "a candidate at the --fit box's corner (\(shown(corner)))"))
        }
    }

    /// A candidate's estimate: a run that keeps the extension's log (the moments come from it).
    static func estimate(_ scenario: Scenario, jobs: Int) -> ResourceEstimate {
        ResourceEstimate(scenario, jobs: jobs, logs: true)
    }

    /// Overrides as a message shows them: the first four.
    static func shown(_ overrides: [String]) -> String {
        overrides.count <= 4 ? overrides.joined(separator: ", ") : overrides.prefix(4).joined(separator: ", ") + ", …"
    }

    /// A run's refusal said of the calibration's candidate `candidate` (where it lies in the box).
    static func located(_ refusal: String, name: String, at candidate: String) -> String {
        let prefix = "refusing to run '\(name)': "
        return refusal.replacingOccurrences(of: prefix, with: "refusing to calibrate '\(name)': \(candidate): ",
                                            options: [], range: refusal.range(of: prefix))
            + " Narrow the --fit ranges so that every candidate fits."
    }

    /// The scenario with one bound; a bound outside the key's domain is located at its column.
    static func load(_ prepared: ScenarioLoader.Prepared, _ overrides: [String], parameter: FitParameter, bound: Double,
                     column: Int) throws -> Scenario {
        do { return try ScenarioLoader.load(prepared, overrides: overrides) } catch let error as ScenarioError {
            throw ScenarioError(location: SourceLocation(file: FitParameter.argumentFile, line: 1, column: column),
                                message: "--fit `\(parameter.path)`: `\(parameter.text(bound))` is outside the key's domain: \(error.message)")
        }
    }

    /// The scenario with every parameter at `values`; on a failure, the bound at fault found
    /// alone (or, when none fails alone, the ranges named together).
    static func loadTogether(_ prepared: ScenarioLoader.Prepared, _ parameters: [FitParameter], _ values: [Double]) throws -> Scenario {
        do { return try ScenarioLoader.load(prepared, overrides: FitParameter.overrides(parameters, values)) } catch let error as ScenarioError {
            for (parameter, value) in zip(parameters, values) {
                _ = try load(prepared, [parameter.override(value)], parameter: parameter, bound: value,
                             column: value == parameter.low ? parameter.lowColumn : parameter.highColumn)
            }
            throw ScenarioError(location: SourceLocation(file: FitParameter.argumentFile, line: 1, column: 1),
                                message: "--fit: the candidate with every parameter at an end of its range (\(FitParameter.overrides(parameters, values).joined(separator: ", ").prefix(200))) is not a valid scenario: \(error.message)")
        }
    }
}
