// Decoding the `xiva` section: version 1's keys and the shared server's (outages, capacity, partitions).
import PushSimCore

extension ScenarioDecoder {
    static func xiva(_ fields: Fields, scenario: Scenario) throws -> Scenario.Xiva {
        var xiva = scenario.xiva
        try fields.decode("drop", "a probability", ValueParsers.probability) { xiva.drop = $0 }
        try fields.decode("latency", "a distribution", ValueParsers.distribution) { xiva.latency = $0 }
        try fields.decode("retention", "a duration or `forever`", ValueParsers.durationOrForever) { xiva.retention = $0 }
        try fields.decode("request_latency", "a distribution", ValueParsers.distribution) { xiva.requestLatency = $0 }
        try fields.decode("request_error", "a probability", ValueParsers.probability) { xiva.requestError = $0 }
        try fields.decode("resend_latency", "a distribution", ValueParsers.distribution) { xiva.resendLatency = $0 }

        if let node = fields.value("outages"), !node.isEmpty {
            xiva.outages = try outages(node, fields.fullPath("outages"), runEnd: scenario.end)
        }
        try fields.decode("outage_mode", "delay or drop", anyStyle: true, suggesting(XivaOutageMode.self)) { xiva.outageMode = $0 }
        if let node = fields.value("capacity") {
            xiva.capacityPerMicrosecond = try rateOrForever(node, fields.fullPath("capacity"), example: "100/s", noun: "capacity",
                                                            stopped: "a server that serves nothing would hold every re-request",
                                                            step: "one service")
        }
        try fields.decode("queue_timeout", "a duration or `forever`", ValueParsers.durationOrForever) { xiva.queueTimeout = $0 }
        if let node = fields.value("partitions") {
            let devices = scenario.devices
            xiva.partitions = try value(node, fields.fullPath("partitions"), "an integer from 1 to devices (\(devices))") { (t) throws(ValueParsers.Failure) in
                // Read in the one integer grammar first (`+500` is no integer), then compared.
                let n = try ValueParsers.integer(t, in: 1...Int.max)
                guard n > devices else { return n }
                throw ValueParsers.Failure("expected at most one partition per device (devices: \(devices)), found `\(t)`: a partition holds at least one device")
            }
        }
        try retry(fields, into: &xiva)
        try fields.decode("resend_buffer", "an integer from 0 to 1000000", { (t) throws(ValueParsers.Failure) in
            // The buffer is a count of notifications kept per connection: a memory bound, not a policy.
            try ValueParsers.integer(t, in: 0...1_000_000)
        }) { xiva.resendBuffer = $0 }
        return xiva
    }

    /// A rate per microsecond, or nil for `forever`: one step at that rate (`1/rate`) is a whole
    /// number of microseconds, so the rate must be positive and its step fit the clock.
    static func rateOrForever(_ node: YAMLNode, _ path: String, example: String, noun: String, stopped: String,
                              step: String) throws -> Double? {
        let rate = try value(node, path, "a rate such as `\(example)`, or `forever`") { (t) throws(ValueParsers.Failure) -> Double? in
            t == "forever" ? nil : try ValueParsers.rate(t)
        }
        guard let rate else { return nil }
        guard rate > 0 else {
            throw ScenarioError(location: node.location, message: "`\(path)`: expected a \(noun) greater than 0 (or `forever`), found \(node.foundDescription): \(stopped)")
        }
        guard (1 / rate).rounded(.toNearestOrAwayFromZero) < Double(Int64.max / 2) else {
            throw ScenarioError(location: node.location, message: "`\(path)`: the \(noun) \(node.foundDescription) is so small that \(step) would pass the last instant the clock can hold; expected a larger rate")
        }
        return rate
    }

    /// A value of an enumeration by its raw value; an unknown one names the nearest.
    static func suggesting<E: RawRepresentable & CaseIterable>(_ type: E.Type) -> Parser<E> where E.RawValue == String {
        { (text: String) throws(ValueParsers.Failure) -> E in
            if let value = E(rawValue: text) { return value }
            let names = E.allCases.map(\.rawValue)
            let hint = Suggestion.nearest(to: text, among: names).map { "; did you mean `\($0)`?" } ?? ""
            throw ValueParsers.Failure("expected one of \(names.joined(separator: ", ")), found `\(text)`\(hint)")
        }
    }

    /// `xiva.outages`: windows with constant times (`start`, `end` or `length`, `every`), none
    /// overlapping or touching another or its own repetitions.
    private static func outages(_ node: YAMLNode, _ listPath: String, runEnd: SimTime) throws -> [XivaOutage] {
        let items = try outageItems(node, listPath)
        var result: [XivaOutage] = []
        for (index, item) in items.enumerated() {
            let fields = try Fields(item, path: "\(listPath)[\(index)]", keys: ScenarioSchema.outageKeys)
            result.append(try outageWindow(fields, item, runEnd: runEnd))
        }
        try checkOutagesApart(result, items: items, node, listPath, runEnd: runEnd)
        return result
    }

    /// A list of outages (XIVA's or APNs'), or the error that says what one looks like.
    static func outageItems(_ node: YAMLNode, _ listPath: String) throws -> [YAMLNode] {
        guard case .sequence(let items) = node.kind else {
            throw ScenarioError(location: node.location, message: "`\(listPath)`: expected a list of outages such as `- {start: 2d10h, end: 2d10h30m}`, found \(node.foundDescription)")
        }
        return items
    }

    /// One outage's window (XIVA's or APNs'): `start`, `end` or `length` (constant), `every`.
    static func outageWindow(_ fields: Fields, _ item: YAMLNode, runEnd: SimTime) throws -> XivaOutage {
        let path = fields.path
        let (start, every) = try windowStartAndPeriod(fields, example: "start: 2d10h", noun: "outage")
        if let every {
            let (_, overflow) = runEnd.microseconds.addingReportingOverflow(every.microseconds)
            guard !overflow, start.microseconds < Int64.max - every.microseconds else {
                throw ScenarioError(location: fields.value("every")?.location ?? item.location,
                                    message: "`\(path).every`: repeating every \(every) passes the last instant the clock can hold (about 292471 years); expected a shorter period, or no `every` for a single outage")
            }
        }
        let end: SimTime
        switch (fields.value("end"), fields.value("length")) {
        case (nil, nil):
            throw ScenarioError(location: item.location, message: "missing required key `end` in `\(path)` (such as `end: 2d10h30m`), or `length` (such as `length: 2h`)")
        case (_?, _?):
            let later = fields.entries.last { $0.key == "end" || $0.key == "length" }
            throw ScenarioError(location: later?.keyLocation ?? item.location, message: "`\(path)`: expected `end` or `length`, not both")
        case (nil, let lengthNode?):
            let length = try value(lengthNode, path + ".length", "a duration") { (t) throws(ValueParsers.Failure) in
                if t.contains("("), (try? ValueParsers.distribution(t)) != nil {
                    throw ValueParsers.Failure("expected a constant duration such as `2h`, found `\(t)`: an outage is the same for every device, so its length is not drawn")
                }
                return try ValueParsers.duration(t)
            }
            let (sum, overflow) = start.microseconds.addingReportingOverflow(length.microseconds)
            guard length > .zero, !overflow, sum < Int64.max else {
                throw ScenarioError(location: lengthNode.location, message: "`\(path).length`: expected a duration greater than 0 that ends before the clock's last instant, found \(lengthNode.foundDescription)")
            }
            end = SimTime(microseconds: sum)
        case (let endNode?, nil):
            end = try windowEnd(endNode, path: path, start: start, every: every, needsEvery: "an outage that crosses a period's end needs `every`")
        }
        if let every, end.microseconds - start.microseconds >= every.microseconds {
            throw ScenarioError(location: fields.keyLocation("every") ?? item.location,
                                message: "`\(path)`: an outage of \(SimTime(microseconds: end.microseconds - start.microseconds)) repeated every \(every) overlaps or touches its own next repetition; expected an outage shorter than its period")
        }
        return XivaOutage(start: start, end: end, every: every)
    }

    /// Two outages of one list that overlap or touch within the run are one outage written
    /// twice: refused, as a list that would lay out too many occurrences.
    static func checkOutagesApart(_ windows: [XivaOutage], items: [YAMLNode], _ node: YAMLNode, _ listPath: String, runEnd: SimTime) throws {
        guard let laid = XivaOutage.layout(windows, runEnd: runEnd) else {
            throw ScenarioError(location: node.location, message: "`\(listPath)`: the outages repeat more than \(XivaOutage.occurrenceLimit) times over the run; expected longer periods")
        }
        for (earlier, later) in zip(laid, laid.dropFirst()) where later.interval.lowerBound <= earlier.interval.upperBound {
            let a = min(earlier.outage, later.outage), b = max(earlier.outage, later.outage)
            let place = items[b]["start"]?.location ?? items[b].location
            let what = a == b ? "its own repetition" : "`\(listPath)[\(a)]`"
            throw ScenarioError(location: place, message: "`\(listPath)[\(b)]` overlaps or touches \(what) (at \(SimTime(microseconds: max(later.interval.lowerBound, 0)))); expected outages that leave time between them (merge them into one)")
        }
    }
}
