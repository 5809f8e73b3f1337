// A stated cost: what one lost letter, summary, re-sent push or hour of latency costs, and the expected cost per letter of a run.
import Foundation
import PushSimScenarioFile

/// One outcome a cost can be put on: its name in `--cost`, the sweep metric it weighs, and
/// whether its weight is per unit of time (latencies) or per event (everything else).
package struct CostTerm: Sendable {
    package var name: String
    /// The sweep metric (per letter, or seconds for a latency) the weight multiplies.
    package var metric: String
    package var meaning: String
    package var isLatency: Bool
}

/// The weights `--cost` states, and the expected cost they give a run's arm.
package struct SweepCost: Equatable, Sendable {
    /// The metric the cost adds to every arm (and every segment): `expected_cost`.
    package static let metric = "expected_cost"

    /// The outcomes a cost can name, declared once: `--cost`'s parser, its help and docs read them.
    package static let terms: [CostTerm] = [
        CostTerm(name: "lost", metric: "loss_rate", meaning: "a lost letter", isLatency: false),
        CostTerm(name: "summarized", metric: "summarized_rate", meaning: "a letter known only from a summary", isLatency: false),
        CostTerm(name: "duplicate", metric: "duplicate_rate", meaning: "a duplicate notification", isLatency: false),
        CostTerm(name: "summary", metric: "summaries_per_letter", meaning: "a summary notification shown", isLatency: false),
        CostTerm(name: "resent", metric: "resent_per_letter", meaning: "a push XIVA re-sent", isLatency: false),
        CostTerm(name: "re_request", metric: "re_requests_per_letter", meaning: "a re-request an extension sent", isLatency: false),
        CostTerm(name: "latency_p50", metric: "latency_s.p50", meaning: "an hour of median latency", isLatency: true),
        CostTerm(name: "latency_p90", metric: "latency_s.p90", meaning: "an hour of p90 latency", isLatency: true),
        CostTerm(name: "latency_p99", metric: "latency_s.p99", meaning: "an hour of p99 latency", isLatency: true),
    ]

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
            ScenarioError(location: SourceLocation(file: option, line: 1, column: column),
                          message: message.replacingOccurrences(of: "--cost", with: option))
        }
        var weights: [(term: String, metric: String, weight: Double)] = []
        var column = 1
        for part in text.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
            defer { column += part.count + 1 }
            guard let equals = part.firstIndex(of: "=") else {
                throw fail(column, "--cost expects NAME=WEIGHT,… (such as `lost=1,summarized=0.3,latency_p90=1/h`), found `\(part)`")
            }
            let name = part[..<equals].trimmingCharacters(in: .whitespaces)
            guard let term = terms.first(where: { $0.name == name }) else {
                throw fail(column, "--cost: unknown outcome `\(name)`; expected one of "
                    + terms.map { "`\($0.name)`" }.joined(separator: ", "))
            }
            guard !weights.contains(where: { $0.term == name }) else { throw fail(column, "--cost names `\(name)` twice") }
            let valueColumn = column + part.distance(from: part.startIndex, to: equals) + 1
            var value = part[part.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            var perSecond = 1.0
            if let slash = value.firstIndex(of: "/") {
                let unit = String(value[value.index(after: slash)...])
                let seconds: [String: Double] = ["s": 1, "min": 60, "h": 3600, "d": 86400]
                guard term.isLatency, let scale = seconds[unit] else {
                    throw fail(valueColumn, term.isLatency
                        ? "--cost `\(name)`: expected a unit of time after `/` (s, min, h, d), found `\(unit)`"
                        : "--cost `\(name)`: a weight per \(term.meaning) takes no unit, found `/\(unit)`")
                }
                perSecond = 1 / scale
                value = String(value[..<slash])
            } else if term.isLatency {
                throw fail(valueColumn, "--cost `\(name)`: a latency's weight needs a unit of time, such as `\(value)/h`")
            }
            guard let weight = Double(value), weight.isFinite, weight >= 0 else {
                throw fail(valueColumn, "--cost `\(name)`: expected a weight ≥ 0 (a cost, not a reward), found `\(value)`")
            }
            weights.append((name, term.metric, weight * perSecond))
        }
        return SweepCost(weights: weights)
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
