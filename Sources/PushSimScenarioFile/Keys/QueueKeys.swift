// The keys of `queue`: the push queue under test (docs/scenarios.md §2).
import PushSimCore

enum QueueKeys {
    static let table = KeyTable<Scenario.Queue>([
        ScenarioKey("mode", "off | on | both", default: .written("both"), example: "on",
                    help: "run without and/or with the push queue") { .scalar($0.mode.rawValue) },
        ScenarioKey("repeat_max_count", "integer ≥ 0", default: .written("10"), example: "5",
                    help: "the largest gap that is re-requested; larger → summary") { .scalar(String($0.repeatMaxCount)) },
        ScenarioKey("collapse_id", "boolean", default: .written("true"), example: "false",
                    help: "pushes of one letter share an apns-collapse-id") { .scalar($0.collapseId ? "true" : "false") },
        ScenarioKey("client", "intended | literal", default: .written("intended"), example: "literal",
                    help: "the client as intended, or the published client snippet") { .scalar($0.client.rawValue) },
        ScenarioKey("background_pushes", "boolean", default: .written("false"), example: "true",
                    help: "XIVA also sends a background push with every letter, waking a version-2 client's app") {
            $0.backgroundPushes ? .scalar("true") : nil
        },
    ])
}
