// What `pushsim optimize --objective` minimises: a sweep metric, or a stated cost (given, or the file's `objective:`), in the whole population or one segment.
import PushSimCore
import PushSimScenarioFile

/// The objective of a selection, read from `--objective` and `--segment`.
package struct OptimizeObjective: Equatable, Sendable {
    /// The queue arm's metric the selection minimises, as sweep.csv names it
    /// (`loss_rate`, `expected_cost`, `segments.commuters.loss_rate`).
    package var metric: String
    /// The weights, when the objective is a stated cost (then `metric` is its expected cost).
    package var cost: SweepCost?
    /// The objective as the files report it: `--objective`'s text, or the file's weights.
    package var text: String

    /// Reads `--objective`: a text with `=` states what outcomes cost (`lost=1,summarized=0.3`,
    /// as `pushsim sweep --cost` does), anything else names a metric. Without it, the file's
    /// `objective:` when it has one, else `loss_rate`. `segment` (one of `segments`, the
    /// scenario's) moves the objective into that segment's figures.
    package static func read(_ given: String?, file: Scenario.Objective, segment: String?, segments: [String]) throws -> OptimizeObjective {
        var objective: OptimizeObjective
        if let text = given {
            objective = OptimizeObjective(metric: text, cost: nil, text: text)
            if text.contains("=") {
                objective.cost = try SweepCost.parse(text, option: "--objective")
                objective.metric = SweepCost.metric
            }
        } else if !file.weights.isEmpty {
            let weights = file.weights.map { "\($0.term)=\(CostTerms.text($0))" }.joined(separator: ",")
            objective = OptimizeObjective(metric: SweepCost.metric, cost: SweepCost(objective: file), text: weights + " (the file's objective)")
        } else {
            objective = OptimizeObjective(metric: "loss_rate", cost: nil, text: "loss_rate")
        }
        if let segment {
            guard segments.contains(segment) else {
                throw SweepError(segments.isEmpty
                    ? "--segment \(segment): the scenario has no `segments:`"
                    : "--segment: no segment `\(segment)`; the scenario's segments are " + segments.map { "`\($0)`" }.joined(separator: ", "))
            }
            objective.metric = "segments.\(segment).\(objective.metric)"
        }
        return objective
    }
}
