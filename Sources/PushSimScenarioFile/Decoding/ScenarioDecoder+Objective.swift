// Decoding `objective:`, what outcomes cost (docs/research.md, A stated cost): one weight per outcome, in CostTerms' order.
import PushSimCore

extension ScenarioDecoder {
    static func objective(_ top: Fields, into scenario: inout Scenario) throws {
        let section = try top.section("objective")
        for term in CostTerms.all {
            let expected = term.isLatency ? "a weight ≥ 0 per unit of time, such as `1/h`" : "a weight ≥ 0"
            try section.decode(term.name, expected, { (text) throws(ValueParsers.Failure) in
                try CostTerms.weight(text, of: term)
            }) { scenario.objective.weights.append($0) }
        }
    }
}
