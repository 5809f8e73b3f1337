// Decoding the push channel's keys (docs/scenarios.md §2a, Push channels): channel, pushkit, fcm, device.doze.
import PushSimCore

extension ScenarioDecoder {
    /// FCM keeps a message at most 28 days (its documented maximum and default time to live).
    static let fcmLongestTTL = SimTime(microseconds: 28 * SimTime.day)

    /// `channel` at the top level, and the shared `pushkit` and `fcm` sections.
    static func channelKeys(_ top: Fields, into scenario: inout Scenario) throws {
        if let node = top.value("channel") { scenario.channel = try channel(node, "channel") }
        let pushkit = try top.section("pushkit")
        try pushkit.decode("report_failure", "a probability", ValueParsers.probability) { scenario.pushkit.reportFailure = $0 }
        try pushkit.decode("cut_off_after", "an integer ≥ 1", { (t) throws(ValueParsers.Failure) in
            try ValueParsers.integer(t, in: 1...Int(Int32.max))
        }) { scenario.pushkit.cutOffAfter = $0 }
        let fcm = try top.section("fcm")
        try fcm.decode("ttl", "a duration of at most 28d", { (t) throws(ValueParsers.Failure) in
            let ttl = try ValueParsers.duration(t)
            guard ttl <= fcmLongestTTL else {
                throw ValueParsers.Failure("expected a duration of at most 28d (FCM keeps a message at most 4 weeks), found `\(t)`")
            }
            return ttl
        }) { scenario.fcm.ttl = $0 }
        try fcm.decode("collapse_keys", "an integer from 0 to 65535", { (t) throws(ValueParsers.Failure) in
            try ValueParsers.integer(t, in: 0...65535)
        }) { scenario.fcm.collapseKeys = $0 }
        try fcm.decode("priority", "normal or high", anyStyle: true, suggesting(FCMPriority.self)) { scenario.fcm.priority = $0 }
    }

    /// `apns`, `pushkit` or `fcm`.
    static func channel(_ node: YAMLNode, _ path: String) throws -> PushChannel {
        try value(node, path, "apns, pushkit or fcm", anyStyle: true, suggesting(PushChannel.self))
    }

    /// `device.doze`: windows of the connectivity form with constant times (no `length`, no
    /// `spread`): the same for every device that takes them.
    static func dozeWindows(_ node: YAMLNode, _ path: String) throws -> [OfflineWindow] {
        let windows = try self.windows(node, path)
        if case .sequence(let items) = node.kind {
            for (index, window) in windows.enumerated() where !window.isSameForEveryDevice && index < items.count {
                let key = window.length != nil ? "length" : "spread"
                throw ScenarioError(location: items[index][key]?.location ?? items[index].location,
                                    message: "`\(path)[\(index)].\(key)`: doze windows take constant times (`start`, `end`, `every`); expected no `\(key)`")
            }
        }
        return windows
    }
}
