// Decoding `apns.outages` (docs/scenarios.md §2a, APNs outages): windows as XIVA's, for a share of the phones, of a segment, refused or unreachable.
import PushSimCore

extension ScenarioDecoder {
    /// `apns.outages`: windows with constant times, none overlapping or touching another or its
    /// own repetitions (as `xiva.outages`), each with an optional `share`, `segment` and `answer`.
    /// The segment names are checked once the segments are read (``checkAPNsOutageSegments``).
    static func apnsOutages(_ apns: Fields, into scenario: inout Scenario) throws {
        guard let node = apns.value("outages"), !node.isEmpty else { return }
        let listPath = apns.fullPath("outages")
        let items = try outageItems(node, listPath)
        var result: [APNsOutage] = []
        for (index, item) in items.enumerated() {
            let fields = try Fields(item, path: "\(listPath)[\(index)]", keys: ScenarioSchema.apnsOutageKeys)
            var outage = APNsOutage(window: try outageWindow(fields, item, runEnd: scenario.end))
            try fields.decode("share", "a probability greater than 0", { (t) throws(ValueParsers.Failure) in
                let share = try ValueParsers.probability(t)
                guard share > 0 else { throw ValueParsers.Failure("expected a share greater than 0 (an outage for no phone is no outage; remove it), found `\(t)`") }
                return share
            }) { outage.share = $0 }
            if let segment = fields.value("segment") { outage.segment = try string(segment, fields.fullPath("segment")) }
            try fields.decode("answer", "refused or unreachable", anyStyle: true, suggesting(APNsOutageAnswer.self)) { outage.answer = $0 }
            result.append(outage)
        }
        try checkOutagesApart(result.map(\.window), items: items, node, listPath, runEnd: scenario.end)
        scenario.apns.outages = result
    }

    /// Each `segment` an APNs outage names is one of the scenario's segments.
    static func checkAPNsOutageSegments(_ top: Fields, _ scenario: Scenario) throws {
        guard case .sequence(let items)? = try top.section("apns").value("outages")?.kind else { return }
        let names = scenario.segments.map(\.name)
        for (index, outage) in scenario.apns.outages.enumerated() {
            guard let segment = outage.segment, !names.contains(segment) else { continue }
            let place = index < items.count ? (items[index]["segment"] ?? items[index]) : nil
            let path = "apns.outages[\(index)].segment"
            guard !names.isEmpty else {
                throw ScenarioError(location: place?.location, message: "`\(path)`: the scenario has no segments, so an outage cannot name one (found \(YAMLNode.doubleQuoted(segment))); remove `segment` for an outage of every phone")
            }
            let hint = Suggestion.nearest(to: segment, among: names).map { "; did you mean `\($0)`?" } ?? ""
            throw ScenarioError(location: place?.location, message: "`\(path)`: expected the name of a segment (\(names.map { "`\($0)`" }.joined(separator: ", "))), found \(YAMLNode.doubleQuoted(segment))\(hint)")
        }
    }
}

extension ScenarioDecoder {
    /// `apns.store: {slots, keep, per}` (docs/scenarios.md §2a, APNs' offline store). With any
    /// store but the one-slot one, `apns.keep_older` (the one-slot store's rule) is refused.
    static func apnsStore(_ apns: Fields, into scenario: inout Scenario) throws {
        guard let node = apns.value("store") else { return }
        let path = apns.fullPath("store")
        let fields = try Fields(node, path: path, keys: ScenarioSchema.storeKeys)
        var store = APNsStorePolicy()
        try fields.decode("slots", "an integer from 1 to \(APNsStorePolicy.slotLimit), or `unlimited`", { (t) throws(ValueParsers.Failure) -> Int? in
            // Each slot may hold a copy per device: a count of pushes, not a memory hazard.
            t == "unlimited" ? nil : try ValueParsers.integer(t, in: 1...APNsStorePolicy.slotLimit)
        }) { store.slots = $0 }
        try fields.decode("keep", "newest, oldest or random", anyStyle: true, suggesting(APNsStorePolicy.Keep.self)) { store.keep = $0 }
        try fields.decode("per", "app or collapse_id", anyStyle: true, suggesting(APNsStorePolicy.Per.self)) { store.per = $0 }
        if !store.isOneSlot && scenario.apns.keepOlder > 0 {
            throw ScenarioError(location: apns.keyLocation("keep_older") ?? node.location, message: "`apns.keep_older`: the older push kept \"in most cases\" is the one-slot store's rule, but `\(path)` is not the one-slot store; remove `apns.keep_older`, or use `keep: random` or `keep: oldest` in `\(path)`")
        }
        scenario.apns.store = store
    }
}
