// The keys of the push channels' shared sections, `pushkit` and `fcm` (docs/scenarios.md §2a, Push channels).
import PushSimCore

enum PushKitKeys {
    private static let defaults = Scenario.PushKit()

    static let table = KeyTable<Scenario.PushKit>([
        ScenarioKey("report_failure", "probability", default: .written("0"), example: "1%",
                    help: "probability the app fails to report a VoIP push to CallKit") { p in
            p.reportFailure != defaults.reportFailure ? .scalar(ScenarioPrinter.decimal(p.reportFailure)) : nil
        },
        ScenarioKey("cut_off_after", "integer ≥ 1", default: .written("3"), example: "5",
                    help: "failures after which the system stops launching the app for VoIP pushes") { p in
            p.cutOffAfter != defaults.cutOffAfter ? .scalar(String(p.cutOffAfter)) : nil
        },
    ])
}

enum FCMKeys {
    private static let defaults = Scenario.FCM()

    static let table = KeyTable<Scenario.FCM>([
        ScenarioKey("ttl", "duration (at most 28d)", default: .written("28d"), example: "1d",
                    help: "how long FCM keeps a message for an offline device") { f in
            f.ttl != defaults.ttl ? .scalar(f.ttl.description) : nil
        },
        ScenarioKey("collapse_keys", "integer from 0 to 65535", default: .written("0"), example: "4",
                    help: "0: non-collapsible messages (100 stored); K: one of K keys per letter (4 stored)") { f in
            f.collapseKeys != defaults.collapseKeys ? .scalar(String(f.collapseKeys)) : nil
        },
        ScenarioKey("priority", "normal | high", default: .written("normal"), example: "high",
                    help: "normal-priority messages wait while the device dozes") { f in
            f.priority != defaults.priority ? .scalar(f.priority.rawValue) : nil
        },
    ])
}
