// The outcomes a stated cost can weigh, declared once: the scenario's `objective:`, `sweep --cost` and `optimize --objective` read them.
import PushSimCore

/// One outcome a cost can be put on: its name, the sweep metric it weighs, and whether its
/// weight is per unit of time (latencies) or per event (everything else).
package struct CostTerm: Sendable {
    package var name: String
    /// The sweep metric (per letter, or seconds for a latency) the weight multiplies.
    package var metric: String
    package var meaning: String
    package var isLatency: Bool
}

package enum CostTerms {
    package static let all: [CostTerm] = [
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

    /// The largest weight: with every metric at most the clock's span in seconds (about 9.2e12)
    /// or a count a letter, the nine weighted terms add to far less than a Double's range.
    package static let maxWeight = 1e12

    /// Seconds in each unit a latency's weight may be written per.
    package static let units: [(name: String, seconds: Double)] = [("s", 1), ("min", 60), ("h", 3600), ("d", 86400)]

    /// Reads one weight: a number ≥ 0; a latency's with a unit of time (`1/h`), the others
    /// without. The failure's message says what was expected; the caller adds where.
    package static func weight(_ text: String, of term: CostTerm) throws(ValueParsers.Failure) -> Scenario.Objective.Weight {
        var value = Substring(text)
        var unit: String?
        if let slash = text.firstIndex(of: "/") {
            let written = String(text[text.index(after: slash)...])
            guard term.isLatency, units.contains(where: { $0.name == written }) else {
                throw ValueParsers.Failure(term.isLatency
                    ? "expected a unit of time after `/` (s, min, h, d), found `\(written)`"
                    : "a weight per \(term.meaning) takes no unit, found `/\(written)`")
            }
            unit = written
            value = text[..<slash]
        } else if term.isLatency {
            throw ValueParsers.Failure("a latency's weight needs a unit of time, such as `\(text)/h`")
        }
        // The number grammar of every decimal in a scenario (`daily_profile`'s): digits with an
        // optional fraction, no sign, exponent or hexadecimal.
        guard let amount = ValueParsers.decimal(String(value)) else {
            throw ValueParsers.Failure(value.hasPrefix("-")
                ? "expected a weight ≥ 0 (a cost, not a reward), found `\(value)`"
                : "expected a weight ≥ 0 written in decimal digits such as `0.3` (no sign, exponent or hexadecimal), found `\(value)`")
        }
        // Only the weights' ratios choose anything; a bound keeps their weighted sum finite
        // whatever the metrics (a latency of the clock's whole span, a re-request count a letter).
        guard amount <= maxWeight else {
            throw ValueParsers.Failure("expected a weight of at most \(ScenarioPrinter.decimal(maxWeight)) (only the weights' ratios matter: divide them all by the same number), found `\(value)`")
        }
        return Scenario.Objective.Weight(term: term.name, amount: amount, unit: unit)
    }

    /// A weight per event, or per second of latency: what multiplies the metric.
    package static func perMetricUnit(_ weight: Scenario.Objective.Weight) -> Double {
        guard let unit = weight.unit, let seconds = units.first(where: { $0.name == unit })?.seconds else { return weight.amount }
        return weight.amount / seconds
    }

    /// `0.3`, `1/h`: as the file and the command line write it.
    package static func text(_ weight: Scenario.Objective.Weight) -> String {
        ScenarioPrinter.decimal(weight.amount) + (weight.unit.map { "/\($0)" } ?? "")
    }
}
