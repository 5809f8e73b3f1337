// A stated cost: what one lost letter, summary, re-sent push or hour of latency costs, and the expected cost per letter of a run.
import Foundation
import PushSimCore
import PushSimScenarioFile

/// The weights `--cost` states, and the expected cost they give a run's arm.
package struct SweepCost: Equatable, Sendable {
    /// The metric the cost adds to every arm (and every segment): `expected_cost`.
    package static let metric = "expected_cost"

    /// The outcomes a cost can name, declared once (the scenario's `objective:` reads them too).
    package static var terms: [CostTerm] { CostTerms.all }

    /// (term, weight): per event, or per second for a latency term.
    package var weights: [(term: String, metric: String, weight: Double)]

    package static func == (a: SweepCost, b: SweepCost) -> Bool {
        a.weights.map(\.term) == b.weights.map(\.term) && a.weights.map(\.weight) == b.weights.map(\.weight)
    }

    /// Reads `--cost NAME=WEIGHT,…` (`lost=1,summarized=0.3,resent=0.01,latency_p90=1/h`):
    /// weights are numbers ≥ 0; a latency's weight has a unit of time (`/s`, `/min`, `/h`, `/d`),
    /// the others none. Each name once. Errors name the option and the column: `--cost:1:COLUMN`.
    package static func parse(_ text: String, option: String = "--cost") throws -> SweepCost {
        func fail(_ column: Int, _ message: String) -> ScenarioError {
            ScenarioError(location: SourceLocation(file: option, line: 1, column: column), message: message)
        }
        var weights: [Scenario.Objective.Weight] = []
        var column = 1
        for part in text.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
            defer { column += part.count + 1 }
            guard let equals = part.firstIndex(of: "=") else {
                throw fail(column, "\(option) expects NAME=WEIGHT,… (such as `lost=1,summarized=0.3,latency_p90=1/h`), found `\(part)`")
            }
            let name = part[..<equals].trimmingCharacters(in: .whitespaces)
            guard let term = terms.first(where: { $0.name == name }) else {
                throw fail(column, "\(option): unknown outcome `\(name)`; expected one of "
                    + terms.map { "`\($0.name)`" }.joined(separator: ", "))
            }
            guard !weights.contains(where: { $0.term == name }) else { throw fail(column, "\(option) names `\(name)` twice") }
            let valueColumn = column + part.distance(from: part.startIndex, to: equals) + 1
            let value = part[part.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            do {
                weights.append(try CostTerms.weight(value, of: term))
            } catch {
                throw fail(valueColumn, "\(option) `\(name)`: \(error.message)")
            }
        }
        return SweepCost(objective: Scenario.Objective(weights: weights))
    }

    /// The cost a scenario's `objective:` states.
    package init(objective: Scenario.Objective) {
        weights = objective.weights.compactMap { weight in
            CostTerms.all.first { $0.name == weight.term }.map { (weight.term, $0.metric, CostTerms.perMetricUnit(weight)) }
        }
    }

    /// The expected cost per letter of an arm: Σ weight × metric. A metric the arm lacks (the
    /// queue's re-sends in the queue-off arm) counts 0: that arm never does it.
    package func expectedCost(_ values: [String: Double], prefix: String = "") -> Double {
        weights.reduce(0) { $0 + $1.weight * (values[prefix + $1.metric] ?? 0) }
    }

    /// Adds `expected_cost` to every arm, and `segments.NAME.expected_cost` for each segment.
    package func apply(to arms: inout [ArmMetrics], segments: [String]) {
        for a in arms.indices {
            arms[a].values[Self.metric] = expectedCost(arms[a].values)
            for segment in segments {
                let prefix = "segments.\(segment)."
                if arms[a].values[prefix + "loss_rate"] != nil {
                    arms[a].values[prefix + Self.metric] = expectedCost(arms[a].values, prefix: prefix)
                }
            }
        }
    }
}
