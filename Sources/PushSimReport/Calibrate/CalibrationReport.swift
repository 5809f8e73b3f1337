// calibrate.json, calibrate.md and the calibrated scenario: fitted values with intervals, each target observed against fitted, J.
import Foundation
import PushSimCore
import PushSimExperiment
import PushSimScenarioFile

extension CalibrationResult {
    /// The files `calibrate` writes (and replaces, whole).
    package static let files: Set<String> = ["calibrate.json", "calibrate.md", "calibrated.yaml", HTMLReport.name]

    /// The method in one sentence, as both files state it.
    static let method = "simulated method of moments on common random numbers (every candidate on the scenario's own seed), "
        + "Nelder–Mead in the --fit box; 95 % intervals by the delta method: the sandwich (GᵀWG)⁻¹GᵀWΣWG(GᵀWG)⁻¹, "
        + "G the moments' Jacobian (central differences over ±step of each range), W the weights of J, "
        + "Σ the moments' covariance measured on replications of the fitted scenario, with Student's t"

    package func json(observed: String) -> JSONValue {
        func number(_ x: Double) -> JSONValue { x.isFinite ? .double(x) : .null }
        return .object([
            "pushsim_commit": .string(PushSimVersion.commit),
            "pushsim_version": .string(PushSimVersion.current),
            "scenario": .string(scenario), "seed": .uint(seed), "devices": .int(devices),
            "observed": .string(observed),
            "method": .string(Self.method),
            "settings": .object(["max_evaluations": .int(settings.maxEvaluations), "jacobian_step": .double(settings.jacobianStep),
                                 "replications": .int(settings.replications)]),
            "evaluations": .int(evaluations), "simulations": .int(simulations), "converged": .bool(converged),
            "parameters": .array(parameters.map { f in
                let p = f.parameter, i = f.interval
                return .object([
                    "path": .string(p.path), "unit": .string(p.unit.rawValue),
                    "low": .double(p.low), "high": .double(p.high), "start": .double(p.start),
                    "value": .double(f.value), "value_text": .string(p.text(f.value)),
                    "standard_error": i.standardError.map(number) ?? .null,
                    "ci95": .array([.double(i.low), .double(i.high)]),
                    "ci95_text": .array([.string(p.text(p.settled(i.low))), .string(p.text(p.settled(i.high)))]),
                    "identified": .bool(i.identified), "sensitivity": number(i.sensitivity),
                    "not_identified_because": i.identified ? .null : .string(i.reason),
                ])
            }),
            "targets": .array(targets.map { t in
                .object(["name": .string(t.target.name), "observed": .double(t.target.observed),
                         "sample_size": .double(t.target.sampleSize), "fitted": number(t.fitted),
                         "simulated_size": .double(t.simulatedSize), "standard_error": number(t.standardError),
                         "standardized_residual": number(t.standardized)])
            }),
            "fit": .object(["j": number(j), "degrees_of_freedom": .int(degreesOfFreedom), "p_value": pValue.map(number) ?? .null]),
            "history": .array(history.map { .object(["values": .array($0.values.map(number)), "j": number($0.j)]) }),
            "overrides": .array(overrides.map(JSONValue.string)),
            "calibrated_scenario": .string("calibrated.yaml"),
        ])
    }

    /// Four significant digits: a share or a rate as a person reads it (the JSON keeps them all).
    static func significant(_ x: Double) -> String { String(format: "%.4g", x) }
    /// A sample size: a whole count with thousands grouped, or as given when it is not whole.
    static func count(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e15 ? ReportTable.grouped(Int(x)) : significant(x)
    }

    package func markdown(observed: String) -> String {
        var out = "# Calibration of `\(scenario)` to `\(observed)`\n\n"
        out += "PushSim \(PushSimVersion.current) (commit \(PushSimVersion.commit)), seed \(seed), \(devices) phones per candidate; "
            + "\(evaluations) candidates searched\(converged ? " (the simplex closed)" : " (the evaluation budget ran out)"), "
            + "\(simulations) simulations in all. Method: \(Self.method).\n\n"
        out += "## Fitted parameters\n\n"
        out += MarkdownTable.row(["parameter", "range searched", "fitted", "95 % interval", "identified"])
        out += MarkdownTable.row(["---", "---", "---", "---", "---"])
        for f in parameters {
            let p = f.parameter, i = f.interval
            let identified = i.identified ? "yes" : "**not identified**: \(i.reason)"
            out += MarkdownTable.row(["`\(p.path)`", "\(p.text(p.low)) … \(p.text(p.high))",
                                      i.identified ? p.text(f.value) : "(\(p.text(f.value)))",
                                      "\(p.text(p.settled(i.low))) … \(p.text(p.settled(i.high)))", identified])
        }
        out += "\nA parameter not identified is one the observations cannot pin down: moving it changes the observables "
            + "by less than their standard errors (or only as another parameter does), so its fitted value is one of many "
            + "that fit as well; it is written into the calibrated scenario, but it is not a measurement.\n\n"
        out += "## Targets, observed against fitted\n\n"
        out += MarkdownTable.row(["target", "observed", "n observed", "fitted", "n simulated", "standard error", "(observed − fitted) / s.e."])
        out += MarkdownTable.row(["---", "---:", "---:", "---:", "---:", "---:", "---:"])
        for t in targets {
            out += MarkdownTable.row(["`\(t.target.name)`", Self.significant(t.target.observed), Self.count(t.target.sampleSize),
                                      Self.significant(t.fitted), Self.count(t.simulatedSize),
                                      Self.significant(t.standardError), String(format: "%+.2f", t.standardized)])
        }
        out += "\n## Goodness of fit\n\n"
        let jText = String(format: "%.3f", j)
        if let pValue {
            out += "J = \(jText) on \(degreesOfFreedom) degree\(degreesOfFreedom == 1 ? "" : "s") of freedom "
                + "(independent moments − parameters), p = \(String(format: "%.3g", pValue)): "
                + (pValue < 0.05 ? "the model cannot match these observations at any value in the box (p < 0.05); "
                    + "look at the largest standardized residuals." : "no evidence against the model at the fitted values.") + "\n"
        } else {
            out += "J = \(jText), with no degrees of freedom left (as many parameters as independent moments): "
                + "the fit cannot be tested.\n"
        }
        out += "\n## Running the calibrated scenario\n\n`calibrated.yaml` is the scenario with the fitted values "
            + "(`\(overrides.joined(separator: "`, `"))`): `pushsim run calibrated.yaml`.\n"
        return out
    }

    /// The calibrated scenario as a file `pushsim run` reads: named `NAME-calibrated`, with
    /// what was fitted, and how well, in its description.
    package func scenarioFile(_ calibrated: Scenario, observed: String) -> String {
        var s = calibrated
        s.name = scenario + "-calibrated"
        let fitted = parameters.map { f in
            "\(f.parameter.path) = \(f.parameter.text(f.value))" + (f.interval.identified ? "" : " (not identified)")
        }
        s.description = "calibrated by pushsim calibrate to \(observed): " + fitted.joined(separator: ", ")
            + String(format: "; J = %.3f on %d df", j, degreesOfFreedom)
        return "# Written by pushsim calibrate (calibrate.md says how well it fits).\n" + ScenarioPrinter.yaml(s)
    }
}
