// Decoding Focus and the scheduled summary (docs/scenarios.md §2a, Focus and the scheduled summary): `device.notification_summary`, `device.focus`, `device.time_sensitive_off`, `apns.time_sensitive`.
import PushSimCore

extension ScenarioDecoder {
    /// `device.notification_summary: {share, times}`, `device.focus: {share, windows}` (both
    /// keys required in each) and `device.time_sensitive_off`.
    static func focusSummary(_ fields: Fields, into device: inout Scenario.Device) throws {
        if let (share, times) = try shareAndList(fields, "notification_summary", keys: ScenarioSchema.notificationSummaryKeys,
                                                 list: "times", example: "[8h, 18h]", summaryTimes) {
            device.notificationSummary = NotificationSummary(share: share, times: times)
            if let spread = fields.value("notification_summary")?["spread"] {
                device.notificationSummary?.spread = try dailySpread(spread, fields.fullPath("notification_summary") + ".spread")
            }
        }
        if let (share, windows) = try shareAndList(fields, "focus", keys: ScenarioSchema.focusKeys,
                                                   list: "windows", example: "[{start: 22h, end: 7h}]", dailyWindows) {
            device.focus = FocusSchedule(share: share, windows: windows)
        }
        try fields.decode("time_sensitive_off", "a probability", ValueParsers.probability) { device.timeSensitiveOff = $0 }
    }

    /// A mapping `key: {share, LIST}` with both required: the share, and the list read by `read`; nil when absent.
    static func shareAndList<T>(_ fields: Fields, _ key: String, keys: [String], list: String, example: String,
                                _ read: (YAMLNode, String) throws -> T) throws -> (Double, T)? {
        guard let node = fields.value(key) else { return nil }
        let path = fields.fullPath(key)
        let mapping = try Fields(node, path: path, keys: keys)
        let share = try value(mapping.required("share", example: "share: 30%"), path + ".share", "a probability", ValueParsers.probability)
        return (share, try read(mapping.required(list, example: "\(list): \(example)"), path + "." + list))
    }

    /// A summary's times of the day: a non-empty list, each from 0h to before 24h (`18h`, or
    /// `18:00` as a clock reads, quoted or not), sorted and kept once each. A bad one is refused
    /// where it is written.
    static func summaryTimes(_ node: YAMLNode, _ listPath: String) throws -> [SimTime] {
        guard case .sequence(let items) = node.kind, !items.isEmpty else {
            throw ScenarioError(location: node.location, message: "`\(listPath)`: expected a list of times of the day such as `[8h, 18h]`, found \(node.foundDescription)")
        }
        var times: [SimTime] = []
        for (index, item) in items.enumerated() {
            // Quoted too: YAML 1.1 reads a plain `12:30` as a number (750), so files often quote it.
            times.append(try value(item, "\(listPath)[\(index)]", "a time of the day from 0h to before 24h", anyStyle: true, timeOfDay))
        }
        return Array(Set(times)).sorted { $0.microseconds < $1.microseconds }
    }

    /// `8h`, `18h30m` (a duration since midnight) or `08:00`, `18:30` (hours and minutes), in [0h, 24h).
    static func timeOfDay(_ text: String) throws(ValueParsers.Failure) -> SimTime {
        let outside = ValueParsers.Failure("expected a time of the day from 0h to before 24h such as `18h` or `18:00` (write `0h` for midnight), found `\(text)`", outOfRange: true)
        let time: SimTime
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        if parts.count == 2 {
            guard parts.allSatisfy({ (1...2).contains($0.count) && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
                  let hours = Int64(parts[0]), let minutes = Int64(parts[1]), minutes < 60 else { throw outside }
            time = SimTime(microseconds: hours * SimTime.hour + minutes * SimTime.minute)
        } else {
            time = try ValueParsers.duration(text)
        }
        guard time >= .zero, time.microseconds < SimTime.day else { throw outside }
        return time
    }

    /// `apns.time_sensitive`: the share of letters sent with interruption level `time-sensitive`.
    static func timeSensitive(_ fields: Fields, into apns: inout Scenario.Apns) throws {
        try fields.decode("time_sensitive", "a probability", ValueParsers.probability) { apns.timeSensitiveShare = $0 }
    }
}
