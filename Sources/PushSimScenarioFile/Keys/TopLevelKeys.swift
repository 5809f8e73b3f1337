// The keys at the top of a scenario file, sections included, in the order they are printed and documented (docs/scenarios.md §2).
import PushSimCore

enum TopLevelKeys {
    static let table = KeyTable<Scenario>([
        ScenarioKey("name", "string", default: .required, scope: .topLevel, example: "other-name",
                    help: "names the results folder (results/<name>/)") { .text($0.name) },
        ScenarioKey("description", "string", default: .written("\"\""), scope: .topLevel, example: "\"a description\"",
                    help: "shown in reports") { .text($0.description) },
        ScenarioKey("seed", "unsigned 64-bit integer", default: .written("1"), scope: .topLevel, example: "7",
                    help: "same file + same seed = identical results") { .scalar(String($0.seed)) },
        ScenarioKey("duration", "duration > 0", default: .required, scope: .topLevel, example: "2d",
                    help: "letters are generated in [0, duration)") { .scalar($0.duration.description) },
        ScenarioKey("drain", "duration", default: .written("1d"), scope: .topLevel, example: "2h",
                    help: "the run goes on this long with no new letters") { .scalar($0.drain.description) },
        ScenarioKey("devices", "integer ≥ 1", default: .required, scope: .topLevel, example: "20",
                    help: "the number of devices") { .scalar(String($0.devices)) },
        ScenarioKey("warmup", "duration < duration", default: .written("0"), scope: .topLevel, example: "1h",
                    help: "letters of [0, warmup) are not counted") { s in
            s.warmup != .zero ? .scalar(s.warmup.description) : nil
        },
        mail, connectivity,
        section("xiva", XivaKeys.table, help: "the XIVA push server, shared by every device") { $0.xiva },
        section("apns", ApnsKeys.table, help: "Apple's push service, shared by every device") { $0.apns },
        device, `extension`,
        section("queue", QueueKeys.table, help: "the push queue under test") { $0.queue },
        ScenarioKey("recovery", "queue | catch_up | background_sync | none", default: .written("queue"), scope: .topLevel, example: "none",
                    help: "the queue arm's design") { s in
            s.recovery != .queue ? .scalar(s.recovery.rawValue) : nil
        },
        channel,
        // The channels' sections are printed only when they differ from the defaults, so a
        // scenario without them prints as before.
        section("pushkit", PushKitKeys.table, help: "PushKit (VoIP pushes), shared by every device", printedEmpty: false) { $0.pushkit },
        section("fcm", FCMKeys.table, help: "Firebase Cloud Messaging, shared by every device", printedEmpty: false) { $0.fcm },
        ScenarioKey("segments", "list of segments", default: .absent("one population"), scope: .topLevel,
                    example: "[{name: one, share: 100%}]", shape: .namedList(items: SegmentKeys.table.infos),
                    help: "populations of devices, each with its own sections") { s in
            // Each segment with its resolved sections whole: what its devices actually ran.
            s.segments.isEmpty ? nil : .list(s.segments.map { SegmentKeys.table.mapping(SegmentInScenario(scenario: s, segment: $0)) })
        },
        section("objective", ObjectiveKeys.table, scope: .topLevel,
                help: "what outcomes cost: `sweep` and `optimize` report the expected cost per letter", printedEmpty: false,
                absent: "no cost stated") { $0.objective },
        ScenarioKey("sweep", "mapping of key paths to lists of values", default: .absent("no sweep"), scope: .topLevel,
                    example: nil, shape: .sweepAxes, help: "axes for `pushsim sweep` (research.md); not a scenario key") { _ in nil },
    ])

    // The keys a segment may give as well (``SegmentKeys``).

    static let mail = section("mail", MailKeys.table, scope: .topLevelAndSegment, help: "where letters come from") { $0.mail }
    static let connectivity = section("connectivity", ConnectivityKeys.table, scope: .topLevelAndSegment,
                                      help: "when devices are online") { $0.connectivity }
    static let device = section("device", DeviceKeys.table, scope: .topLevelAndSegment, help: "the phone and its user") { $0.device }
    static let `extension` = section("extension", ExtensionKeys.table, scope: .topLevelAndSegment,
                                     help: "the Notification Service Extension") { $0.extension }
    static let channel = ScenarioKey<Scenario>("channel", "apns | pushkit | fcm", default: .written("apns"), scope: .topLevelAndSegment,
                                               example: "fcm", help: "the push service between XIVA and the device") { s in
        s.channel != .apns ? .scalar(s.channel.rawValue) : nil
    }

    /// A section at the top level: a mapping printed whole (every key it prints).
    private static func section<Section>(_ name: String, _ table: KeyTable<Section>, scope: KeyScope = .shared, help: String,
                                         printedEmpty: Bool = true, absent: String = "defaults",
                                         _ part: @escaping @Sendable (Scenario) -> Section) -> ScenarioKey<Scenario> {
        ScenarioKey(name, "mapping", default: .absent(absent), scope: scope, example: nil, shape: .mapping(table.infos), help: help) { s in
            let entries = table.entries(part(s))
            return entries.isEmpty && !printedEmpty ? nil : .mapping(entries)
        }
    }
}
