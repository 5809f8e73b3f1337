// The keys of `objective`: what outcomes cost, one key per outcome of CostTerms (docs/research.md, A stated cost).
import PushSimCore

enum ObjectiveKeys {
    static let table = KeyTable<Scenario.Objective>(CostTerms.all.map { term in
        ScenarioKey(term.name, term.isLatency ? "number ≥ 0 per unit of time" : "number ≥ 0", default: .absent("no cost"),
                    example: term.isLatency ? "1/h" : "0.3", help: "what \(term.meaning) costs") { objective in
            objective.weights.first { $0.term == term.name }.map { .scalar(CostTerms.text($0)) }
        }
    })
}
