// The keys of one segment (docs/scenarios.md §2a, Populations): its own name and share, and the top-level keys a segment may give.
import PushSimCore

/// A segment with the scenario it belongs to: it prints what differs from the top level.
struct SegmentInScenario: Sendable {
    let scenario: Scenario
    let segment: Scenario.Segment
}

enum SegmentKeys {
    /// The top-level keys (``TopLevelKeys``) are declared there; a segment's section keys are
    /// those whose scope allows a segment (the schema filters them).
    static let table = KeyTable<SegmentInScenario>([
        ScenarioKey("name", "string (no `.` or `=`)", default: .required, scope: .segment, example: nil,
                    help: "names the segment in results and in `segments.NAME.KEY` paths") { .text($0.segment.name) },
        ScenarioKey("share", "probability", default: .required, scope: .segment, example: "100%",
                    help: "the segment's share of the devices; the shares add up to exactly 1") { .scalar($0.segment.share) },
        ScenarioKey(TopLevelKeys.channel.info) { p in
            p.segment.channel != p.scenario.channel ? .scalar(p.segment.channel.rawValue) : nil
        },
        ScenarioKey(TopLevelKeys.mail.info) { MailKeys.table.mapping($0.segment.mail) },
        ScenarioKey(TopLevelKeys.connectivity.info) { ConnectivityKeys.table.mapping($0.segment.connectivity) },
        ScenarioKey(TopLevelKeys.device.info) { DeviceKeys.table.mapping($0.segment.device) },
        ScenarioKey(TopLevelKeys.extension.info) { ExtensionKeys.table.mapping($0.segment.extension) },
    ])
}
