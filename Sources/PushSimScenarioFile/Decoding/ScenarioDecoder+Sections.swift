// Decoding the sections a segment may give as well as the top level: mail, connectivity (windows), device, extension.
import PushSimCore

extension ScenarioDecoder {
    // MARK: Mail

    /// `fields` over `base`: a key given replaces the base's value whole (docs/model.md §5, Segments), so the same
    /// code reads the top level (over the defaults) and a segment (over the top level).
    static func mail(_ fields: Fields, base: Scenario.Mail, scenario: Scenario, context: DecodingContext) throws -> Scenario.Mail {
        var mail = base
        // A trace replaces the other keys: giving both is the error, whatever their values.
        if let node = fields.value("trace") {
            for key in ["rate", "daily_profile", "bursts"] {
                guard let location = fields.keyLocation(key) else { continue }
                throw ScenarioError(location: location,
                                    message: "`\(fields.fullPath(key))` cannot be given with `\(fields.fullPath("trace"))` (at \(node.location)): the trace's letters replace rate, daily_profile and bursts; expected one or the other")
            }
        }
        try fields.decode("rate", "a rate", ValueParsers.rate) { mail.ratePerMicrosecond = $0 }
        if let node = fields.value("daily_profile") { mail.dailyProfile = try dailyProfile(node, fields.fullPath("daily_profile")) }
        if let node = fields.value("bursts") { mail.bursts = try bursts(node, fields.fullPath("bursts")) }
        if let node = fields.value("trace") {
            let path = fields.fullPath("trace")
            let written = try string(node, path)
            guard !written.isEmpty else {
                throw ScenarioError(location: node.location, message: "`\(path)`: expected the path of a CSV file such as `traffic.csv`, found nothing")
            }
            mail.trace = try context.trace(written: written, at: node, keyPath: path, duration: scenario.duration, devices: scenario.devices)
        }
        try payloadSize(fields, into: &mail)
        return mail
    }

    /// 24 non-negative finite weights, not all zero.
    private static func dailyProfile(_ node: YAMLNode, _ path: String) throws -> [Double] {
        let hint = "a list of 24 hourly weights such as `[1, 1, 1, 1, 1, 1, 2, 4, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 5, 4, 3, 2, 1, 1]`"
        guard case .sequence(let items) = node.kind else {
            throw ScenarioError(location: node.location, message: "`\(path)`: expected \(hint), found \(node.foundDescription)")
        }
        var weights: [Double] = []
        for (hour, item) in items.enumerated() {
            guard hour < 24 else {
                throw ScenarioError(location: item.location, message: "`\(path)`: expected exactly 24 weights (hours 0 to 23), found \(items.count): this is the 25th")
            }
            weights.append(try value(item, "\(path)[\(hour)]", "a weight ≥ 0", weight))
        }
        guard weights.count == 24 else {
            throw ScenarioError(location: node.location, message: "`\(path)`: expected exactly 24 weights (hours 0 to 23), found \(weights.count)")
        }
        guard weights.reduce(0, +).isFinite else {
            throw ScenarioError(location: node.location, message: "`\(path)`: the weights are too large to add up; expected smaller numbers (only their ratios matter)")
        }
        guard weights.contains(where: { $0 > 0 }) else {
            throw ScenarioError(location: node.location, message: "`\(path)`: expected at least one weight greater than 0, found all 24 zero (no letter could ever come)")
        }
        return weights
    }

    private static func weight(_ text: String) throws(ValueParsers.Failure) -> Double {
        if text.hasPrefix("-") { throw ValueParsers.Failure("a weight cannot be negative, found `\(text)`") }
        guard let value = ValueParsers.decimal(text) else {
            if ValueParsers.isDecimalSyntax(text) { throw ValueParsers.Failure("the weight `\(text)` is too large") }
            throw ValueParsers.Failure("expected a weight ≥ 0 such as `1` or `0.5`, found `\(text)`")
        }
        return value
    }

    /// `{rate, size, spread}`.
    private static func bursts(_ node: YAMLNode, _ path: String) throws -> MailBursts {
        let fields = try Fields(node, path: path, keys: ScenarioSchema.burstKeys)
        let rate = try value(fields.required("rate", example: "rate: 1/d"), path + ".rate", "a rate", ValueParsers.rate)
        let size = try value(fields.required("size", example: "size: 8"), path + ".size", "an integer ≥ 1") { (t) throws(ValueParsers.Failure) in
            try ValueParsers.integer(t, in: 1...Int.max)
        }
        var bursts = MailBursts(ratePerMicrosecond: rate, size: size)
        try fields.decode("spread", "a duration", ValueParsers.duration) { bursts.spread = $0 }
        return bursts
    }

    // MARK: Connectivity

    /// `fields` over `base`; the online/offline pair is checked on the resolved values
    /// (``checkPair(_:in:segment:)``), the windows' range by ``checkWindowRange(_:runEnd:_:)``.
    static func connectivity(_ fields: Fields, base: Scenario.Connectivity) throws -> Scenario.Connectivity {
        var result = base
        if let on = fields.value("online") {
            let law = try value(on, fields.fullPath("online"), "a distribution", ValueParsers.distribution)
            guard law.mean > 0 else {
                throw ScenarioError(location: on.location, message: "`\(fields.fullPath("online"))`: expected a distribution with a mean greater than 0, found \(on.foundDescription)")
            }
            result.online = law
        }
        try fields.decode("offline", "a distribution", ValueParsers.distribution) { result.offline = $0 }
        if let windows = fields.value("windows"), !windows.isEmpty {
            result.windows = try self.windows(windows, fields.fullPath("windows"))
        }
        return result
    }

    /// Online and offline periods go together. `sources` are the sections the values came
    /// from, nearest first (a segment's, then the top level's): the error points at the key given.
    static func checkPair(_ connectivity: Scenario.Connectivity, in sources: [Fields], segment: String? = nil) throws {
        guard (connectivity.online == nil) != (connectivity.offline == nil) else { return }
        let (present, missing) = connectivity.online == nil ? ("offline", "online") : ("online", "offline")
        let holder = sources.first { $0.value(present) != nil } ?? sources[0]
        let context = segment.map { " (the resolved values of segment `\($0)`)" } ?? ""
        throw ScenarioError(location: holder.keyLocation(present) ?? holder.node.location,
                            message: "`\(holder.fullPath(present))` and `\(holder.fullPath(missing))` go together: expected both or neither, found `\(present)` without `\(missing)`\(context)")
    }

    static func windows(_ node: YAMLNode, _ listPath: String) throws -> [OfflineWindow] {
        guard case .sequence(let items) = node.kind else {
            throw ScenarioError(location: node.location, message: "`\(listPath)`: expected a list of windows such as `- {start: 8h, end: 9h, every: 1d}`, found \(node.foundDescription)")
        }
        var result: [OfflineWindow] = []
        for (index, item) in items.enumerated() {
            let path = "\(listPath)[\(index)]"
            let window = try Fields(item, path: path, keys: ScenarioSchema.windowKeys)
            let (start, every) = try windowStartAndPeriod(window, example: "start: 8h", noun: "window")
            var spread = SimTime.zero
            try window.decode("spread", "a duration", ValueParsers.duration) { spread = $0 }
            switch (window.value("end"), window.value("length")) {
            case (nil, nil):
                throw ScenarioError(location: window.node.location,
                                    message: "missing required key `end` in `\(path)` (such as `end: 9h`), or `length` (such as `length: uniform(6h, 9h)`)")
            case (_?, _?):
                let later = window.entries.last { $0.key == "end" || $0.key == "length" }
                throw ScenarioError(location: later?.keyLocation ?? window.node.location,
                                    message: "`\(path)`: expected `end` or `length`, not both: `end` is the same for every device, `length` is drawn per device and occurrence")
            case (let endNode?, nil):
                let end = try windowEnd(endNode, path: path, start: start, every: every,
                                        needsEvery: "a window that crosses a period's end needs `every`, such as `{start: 23h, end: 7h, every: 1d}`")
                var entry = OfflineWindow(start: start, end: end, every: every)
                entry.spread = spread
                result.append(entry)
            case (nil, let lengthNode?):
                let length = try value(lengthNode, path + ".length", "a distribution", ValueParsers.distribution)
                result.append(OfflineWindow(start: start, length: length, every: every, spread: spread))
            }
        }
        return result
    }

    /// A window's `start` and optional `every` (> 0), shared by connectivity windows and XIVA outages.
    static func windowStartAndPeriod(_ window: Fields, example: String, noun: String) throws -> (start: SimTime, every: SimTime?) {
        let path = window.path
        let start = try value(window.required("start", example: example), path + ".start", "a duration", ValueParsers.duration)
        guard let node = window.value("every") else { return (start, nil) }
        let period = try value(node, path + ".every", "a duration", ValueParsers.duration)
        guard period > .zero else {
            throw ScenarioError(location: node.location, message: "`\(path).every`: expected a period greater than 0 (omit it for a single \(noun)), found \(node.foundDescription)")
        }
        return (start, period)
    }

    /// A window's `end`, stored after `start`: with `every`, an end at or before the start is
    /// the next period's (docs/model.md §5, Windows per device); without, it is an error that
    /// says `needsEvery`.
    static func windowEnd(_ endNode: YAMLNode, path: String, start: SimTime, every: SimTime?, needsEvery: String) throws -> SimTime {
        let end = try value(endNode, path + ".end", "a duration", ValueParsers.duration)
        guard end <= start else { return end }
        guard let period = every else {
            throw ScenarioError(location: endNode.location, message: "`\(path).end`: expected a time after start (\(start)), found \(endNode.foundDescription) (\(needsEvery))")
        }
        let (moved, overflow) = end.microseconds.addingReportingOverflow(period.microseconds)
        guard !overflow, moved > start.microseconds else {
            throw ScenarioError(location: endNode.location, message: "`\(path).end`: expected a time after start (\(start)), or at most one period (\(period)) before it for the next period's end, found \(endNode.foundDescription)")
        }
        return SimTime(microseconds: moved)
    }

    /// The simulator adds a drawn delay to an instant before the end of the run; the sum must be
    /// a time the clock can hold. A delay's largest possible draw is finite (our streams' unit
    /// draws are at least 2⁻⁵³), so this is checked exactly, here, where the key can be named.
    /// Repeating windows are laid out as `start + offset + k·every` for every k from the
    /// repetition that reaches back past time 0 to the one past the end of the run; those must
    /// stay inside the clock: `max(end of window, start + spread, end of run) + every` below
    /// Int64.max. A drawn `length` may run past the clock's end: the simulator saturates it.
    static func checkWindowRange(_ windows: [OfflineWindow], runEnd: SimTime, _ fields: Fields) throws {
        guard case .sequence(let items)? = fields.value("windows")?.kind else { return }
        for (index, window) in windows.enumerated() {
            let node = { (key: String) in index < items.count ? (items[index][key] ?? items[index]) : fields.node }
            let (shiftedStart, startOverflow) = window.start.microseconds.addingReportingOverflow(window.spread.microseconds)
            let (shiftedEnd, endOverflow) = window.end.microseconds.addingReportingOverflow(window.spread.microseconds)
            if startOverflow || endOverflow || shiftedEnd == Int64.max {
                throw ScenarioError(location: node("spread").location,
                                    message: "`\(fields.fullPath("windows"))[\(index)].spread`: shifting the window by up to \(window.spread) passes the last instant the clock can hold (about 292471 years); expected a smaller spread")
            }
            guard let every = window.every,
                  window.length != nil || window.end.microseconds - window.start.microseconds < every.microseconds else { continue }
            let reach = max(shiftedEnd, shiftedStart, runEnd.microseconds)
            let (_, overflow) = reach.addingReportingOverflow(every.microseconds)
            guard overflow else { continue }
            // Without the spread the period would fit: the spread is what to change.
            let unshifted = max(window.end.microseconds, window.start.microseconds, runEnd.microseconds)
            if !unshifted.addingReportingOverflow(every.microseconds).overflow {
                throw ScenarioError(location: node("spread").location,
                                    message: "`\(fields.fullPath("windows"))[\(index)].spread`: shifting the window by up to \(window.spread) and repeating it every \(every) "
                                        + "passes the last instant the clock can hold (about 292471 years); expected a smaller spread")
            }
            throw ScenarioError(location: node("every").location,
                                message: "`\(fields.fullPath("windows"))[\(index)].every`: repeating every \(every) from \(window.start) over a run that ends at \(runEnd) "
                                    + "passes the last instant the clock can hold (about 292471 years); expected a shorter period, or no `every` for a single window")
        }
    }

    // MARK: Device and extension

    static func device(_ fields: Fields, base: Scenario.Device) throws -> Scenario.Device {
        var device = base
        try fields.decode("alerts_off", "a probability", ValueParsers.probability) { device.alertsOff = $0 }
        try fields.decode("clear_after", "a distribution or `forever`", ValueParsers.distributionOrForever) { device.clearAfter = $0 }
        try fields.decode("app_open", "a distribution with a mean of at least 1s", { (t) throws(ValueParsers.Failure) in
            // Each opening schedules the next: a mean under a second would flood the run with events.
            let law = try ValueParsers.distribution(t)
            guard law.mean >= Double(SimTime.second) else {
                throw ValueParsers.Failure("expected a distribution with a mean of at least 1s (the time between two openings of the app), found `\(t)`")
            }
            return law
        }) { device.appOpen = $0 }
        try fields.decode("id_change", "a rate of at most 1/h", { (t) throws(ValueParsers.Failure) in
            // Changes are drawn one by one as the extension runs: more than one an hour is no device id.
            try hourlyAtMost(t, "device id changes")
        }) { device.idChangeRatePerMicrosecond = $0 }
        try uninstall(fields, into: &device)
        if let node = fields.value("doze") { device.doze = try dozeWindows(node, fields.fullPath("doze")) }
        try fields.decode("reinstall", "a rate of at most 1/h", { (t) throws(ValueParsers.Failure) in
            // Reinstalls are drawn one by one as letters and runs pass them: more than one an hour is no app.
            try hourlyAtMost(t, "app reinstalls")
        }) { device.reinstallRatePerMicrosecond = $0 }
        try fields.decode("reinstall_delay", "a distribution", ValueParsers.distribution) { device.reinstallDelay = $0 }
        return device
    }

    /// A rate of at most one an hour: device events drawn one at a time as the run passes them.
    private static func hourlyAtMost(_ t: String, _ what: String) throws(ValueParsers.Failure) -> Double {
        let rate = try ValueParsers.rate(t)
        guard rate <= 1.0 / Double(SimTime.hour) else {
            throw ValueParsers.Failure("expected a rate of at most 1/h (\(what)), found `\(t)`")
        }
        return rate
    }

    static func `extension`(_ fields: Fields, base: Scenario.Extension) throws -> Scenario.Extension {
        var ext = base
        try fields.decode("deadline", "a duration or `forever`", ValueParsers.durationOrForever) { ext.deadline = $0 }
        try fields.decode("processing", "a distribution", ValueParsers.distribution) { ext.processing = $0 }
        try fields.decode("early_kill", "a probability", ValueParsers.probability) { ext.earlyKill = $0 }
        try fields.decode("concurrency", "serial or parallel", anyStyle: true, suggesting(ExtensionConcurrency.self)) { ext.concurrency = $0 }
        try fields.decode("save_delay", "a distribution", ValueParsers.distribution) { ext.saveDelay = $0 }
        if let node = fields.value("media") { ext.media = try media(node, fields.fullPath("media")) }
        return ext
    }
}
