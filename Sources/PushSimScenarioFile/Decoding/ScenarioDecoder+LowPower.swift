// Decoding `device.low_power` (docs/scenarios.md §2a, Low Power Mode): the share of phones, their daily windows, the release order.
import PushSimCore

extension ScenarioDecoder {
    /// `device.low_power: {share, windows, release_order}`; `share` required.
    static func lowPower(_ fields: Fields, into device: inout Scenario.Device) throws {
        guard let node = fields.value("low_power") else { return }
        let path = fields.fullPath("low_power")
        let lowPower = try Fields(node, path: path, keys: ScenarioSchema.lowPowerKeys)
        var mode = LowPowerMode(share: try value(lowPower.required("share", example: "share: 20%"), path + ".share", "a probability", ValueParsers.probability))
        if let windows = lowPower.value("windows") { mode.windows = try dailyWindows(windows, path + ".windows") }
        try lowPower.decode("release_order", "held, shuffled or latency", { (t) throws(ValueParsers.Failure) in
            guard let order = LowPowerMode.ReleaseOrder(rawValue: t) else { throw ValueParsers.Failure("expected held, shuffled or latency, found `\(t)`") }
            return order
        }) { mode.releaseOrder = $0 }
        device.lowPower = mode
    }

    /// A daily window's or the summary's `spread`: a duration from 0 to 24h (each phone's offset
    /// is below it, so a day shifts a window to any time of the day).
    static func dailySpread(_ node: YAMLNode, _ path: String) throws -> SimTime {
        try value(node, path, "a duration from 0 to 24h") { (t) throws(ValueParsers.Failure) in
            let spread = try ValueParsers.duration(t)
            guard spread >= .zero, spread.microseconds <= SimTime.day else {
                throw ValueParsers.Failure("expected a duration from 0 to 24h (a daily time shifted by a day or more is the same time), found `\(t)`", outOfRange: true)
            }
            return spread
        }
    }

    /// Daily windows: `start` and `end` times of the day from 0h to 24h, repeating every day; an
    /// `end` at or before `start` crosses midnight. A time outside the day is refused where it is written.
    static func dailyWindows(_ node: YAMLNode, _ listPath: String) throws -> [OfflineWindow] {
        guard case .sequence(let items) = node.kind, !items.isEmpty else {
            throw ScenarioError(location: node.location, message: "`\(listPath)`: expected a list of daily windows such as `- {start: 18h, end: 23h}`, found \(node.foundDescription)")
        }
        var result: [OfflineWindow] = []
        for (index, item) in items.enumerated() {
            let path = "\(listPath)[\(index)]"
            let window = try Fields(item, path: path, keys: ScenarioSchema.dailyWindowKeys)
            func timeOfDay(_ key: String) throws -> SimTime {
                try value(window.required(key, example: "\(key): 18h"), path + "." + key, "a time of day from 0h to 24h") { (t) throws(ValueParsers.Failure) in
                    let time = try ValueParsers.duration(t)
                    guard time >= .zero, time.microseconds <= SimTime.day else {
                        throw ValueParsers.Failure("expected a time of day from 0h to 24h, found `\(t)`", outOfRange: true)
                    }
                    return time
                }
            }
            let start = try timeOfDay("start"), end = try timeOfDay("end")
            guard start.microseconds < SimTime.day else {
                throw ScenarioError(location: window.value("start")?.location ?? item.location,
                                    message: "`\(path).start`: a window starts before 24h (write `0h` for midnight)")
            }
            guard end != start else {
                throw ScenarioError(location: window.value("end")?.location ?? item.location,
                                    message: "`\(path)`: a window with `end` equal to `start` is empty; for all day leave out `windows`")
            }
            let stop = end <= start ? SimTime(microseconds: end.microseconds + SimTime.day) : end
            var daily = OfflineWindow(start: start, end: stop, every: SimTime(microseconds: SimTime.day))
            if let spread = window.value("spread") { daily.spread = try dailySpread(spread, path + ".spread") }
            result.append(daily)
        }
        return result
    }
}
