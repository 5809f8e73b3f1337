// The keys a scenario file may hold, section by section: what unknown keys and `--set` paths are checked against.

/// The key layout of docs/scenarios.md §2 and §2a, as the key tables (Keys/) declare it: the
/// lists unknown keys are checked against and the shape `--set`, `--vary` and `sweep:` paths walk.
package enum ScenarioSchema {
    /// The top-level keys' declarations, sections and `segments` included.
    static let topLevel: [KeyInfo] = TopLevelKeys.table.infos

    /// Sections and their keys, in the tables' order.
    static let sections: [(name: String, keys: [String])] = topLevel.compactMap { info in
        guard case .mapping(let keys) = info.shape else { return nil }
        return (info.name, keys.map(\.name))
    }

    /// Every key allowed at the top of the file, `segments` and `sweep` included.
    static let topLevelKeys = topLevel.map(\.name)

    /// The keys of one offline window.
    static let windowKeys = ConnectivityKeys.window.infos.map(\.name)

    /// The keys of one XIVA outage (docs/scenarios.md §2a, XIVA as a shared server): no `spread`.
    static let outageKeys = XivaKeys.outage.infos.map(\.name)
    /// The keys of one APNs outage: a XIVA outage's, with `share`, `segment` and `answer`.
    static let apnsOutageKeys = ApnsKeys.outage.infos.map(\.name)
    /// The keys of `apns.store`.
    static let storeKeys = ApnsKeys.store.infos.map(\.name)
    /// The keys of `apns.token_refresh`.
    static let tokenRefreshKeys = ApnsKeys.tokenRefresh.infos.map(\.name)

    /// The keys of `extension.media`.
    static let mediaKeys = ExtensionKeys.media.infos.map(\.name)

    /// The keys of `mail.bursts`.
    static let burstKeys = MailKeys.bursts.infos.map(\.name)

    /// The keys of `xiva.retry`.
    static let retryKeys = XivaKeys.retry.infos.map(\.name)

    /// The keys of `device.background_sync`.
    static let backgroundSyncKeys = DeviceKeys.backgroundSync.infos.map(\.name)

    /// The keys of `device.sleep`.
    static let sleepKeys = DeviceKeys.sleep.infos.map(\.name)
    /// The keys of `device.low_power` and of one of its daily windows.
    static let lowPowerKeys = DeviceKeys.lowPower.infos.map(\.name)
    static let dailyWindowKeys = DeviceKeys.dailyWindow.infos.map(\.name)
    /// The keys of `device.notification_summary` and `device.focus`.
    static let notificationSummaryKeys = DeviceKeys.notificationSummary.infos.map(\.name)
    static let focusKeys = DeviceKeys.focus.infos.map(\.name)

    /// The keys of one segment (docs/scenarios.md §2a, Populations).
    static let segmentKeys = SegmentKeys.table.infos.map(\.name)

    /// Sections every device shares: a segment cannot give them.
    static let sharedSections = topLevel.filter { $0.scope == .shared && !$0.children.isEmpty }.map(\.name)

    static func keys(ofSection name: String) -> [String]? {
        sections.first { $0.name == name }?.keys
    }

    /// The keys a segment's section may give: its top-level keys but the top-level-only ones.
    static func keys(ofSegmentSection name: String) -> [String]? {
        guard case .mapping(let keys)? = segmentItem.first(where: { $0.name == name })?.shape else { return nil }
        return keys.map(\.name)
    }

    /// Where a key of a top-level section may be written: its own scope, or its section's.
    static func scope(of key: String, inSection section: String) -> KeyScope? {
        guard let holder = topLevel.first(where: { $0.name == section }),
              let info = holder.children.first(where: { $0.name == key }) else { return nil }
        return info.scope ?? holder.scope
    }

    /// What one segment may hold, as a segment's paths reach it: its sections cut to the keys a
    /// segment may give, without `name` (how `segments.NAME.…` finds the segment).
    static let segmentItem: [KeyInfo] = SegmentKeys.table.infos.filter { $0.name != "name" }.map { info in
        guard case .mapping(let keys) = info.shape else { return info }
        let given = keys.filter { (key: KeyInfo) in (key.scope ?? info.scope) == .topLevelAndSegment }
        return KeyInfo(info.name, info.type, default: info.defaultValue, scope: info.scope, example: info.example,
                       shape: .mapping(given), help: info.help)
    }

    /// The whole file's settable layout (`sweep` is not a scenario key).
    static let fileShape: KeyShape = .mapping(topLevel.filter { if case .sweepAxes = $0.shape { return false } else { return true } })

    /// What a segment holds, as a mapping.
    static let segmentShape: KeyShape = .mapping(segmentItem)

    /// Every path `--set` and `sweep` accept at the top level: values, whole sections, section
    /// keys and their own keys (`mail.bursts.rate`), the whole `segments` list.
    static let settablePaths: [String] = paths(in: fileShape, prefix: "")

    /// The paths inside one segment, `segments.NAME.` left out.
    static let segmentSettablePaths: [String] = paths(in: segmentShape, prefix: "")

    private static func paths(in shape: KeyShape, prefix: String) -> [String] {
        guard case .mapping(let entries) = shape else { return [] }
        return entries.flatMap { entry -> [String] in
            let path = prefix.isEmpty ? entry.name : prefix + "." + entry.name
            return [path] + paths(in: entry.shape, prefix: path)
        }
    }

    /// The sections that hold `key`, for "it belongs under …" hints.
    static func sectionsHolding(_ key: String) -> [String] {
        sections.filter { $0.keys.contains(key) }.map(\.name)
    }

    /// Checks a dotted path; on failure, the index of the first bad segment and why. A segment's
    /// NAME is not checked here (the document knows the names: ``ScenarioOverrides`` does).
    package static func checkPath(_ segments: [String]) -> (segment: Int, message: String)? {
        let path = segments.joined(separator: ".")
        if let empty = segments.firstIndex(where: \.isEmpty) {
            return (empty, "expected a dotted key path such as `queue.repeat_max_count`, found \(path.isEmpty ? "nothing" : "`\(path)`")")
        }
        guard let first = segments.first else {
            return (0, "expected a dotted key path such as `queue.repeat_max_count`, found nothing")
        }
        if first == "sweep" { return (0, "`sweep` cannot be set this way: expected the path of a scenario key") }
        // Not a key of the file: the command line's choice of client (ScenarioLoader.choose).
        if segments == [ScenarioLoader.clientSetting] { return nil }
        return walk(segments, from: 0, in: fileShape, suggestions: settablePaths, suggestionPrefix: "")
    }

    /// The keys of one item when `segments` names a list that is replaced whole
    /// (`connectivity.windows`, `segments.NAME.connectivity.windows`); nil otherwise. `calibrate
    /// --fit` reaches one item's value through it (`connectivity.windows.0.length.mean`).
    package static func listItemKeys(_ segments: [String]) -> [String]? {
        guard checkPath(segments) == nil else { return nil }
        var shape = fileShape
        var i = 0
        while i < segments.count {
            switch shape {
            case .mapping(let entries):
                guard let entry = entries.first(where: { $0.name == segments[i] }) else { return nil }
                shape = entry.shape
            case .namedList:
                shape = segmentShape   // segments[i] is the segment's NAME
            case .value, .list, .sweepAxes:
                return nil
            }
            i += 1
        }
        if case .list(let items) = shape, !items.isEmpty { return items.map(\.name) }
        return nil
    }

    private static func walk(_ segments: [String], from i: Int, in shape: KeyShape,
                             suggestions: [String], suggestionPrefix: String) -> (segment: Int, message: String)? {
        guard i < segments.count else { return nil }
        let here = segments[..<i].joined(separator: ".")
        switch shape {
        case .value, .sweepAxes:
            // `connectivity.offline.mean.x`: the argument is reachable, what follows it is not.
            if i + 1 < segments.count, ScenarioOverrides.distributionArguments.values.contains(where: { $0.contains(segments[i]) }) {
                return (i + 1, "`\(here).\(segments[i])` can be at most one argument of a distribution, a single value: it has no key `\(segments[i + 1])`")
            }
            return (i, "`\(here)` holds a single value: it has no key `\(segments[i])`")
        case .list:
            return (i, "`\(here)` holds a list, which can only be replaced whole: it has no key `\(segments[i])`")
        case .mapping(let entries):
            guard let entry = entries.first(where: { $0.name == segments[i] }) else {
                return (i, unknownPathMessage(segments, suggestions: suggestions, prefix: suggestionPrefix))
            }
            return walk(segments, from: i + 1, in: entry.shape, suggestions: suggestions, suggestionPrefix: suggestionPrefix)
        case .namedList:
            let name = segments[i]
            guard i + 1 < segments.count else {
                return (i, "`\(here).\(name)` is one segment: set its keys (`\(here).\(name).share`, `\(here).\(name).mail.rate`, …) or the whole `\(here)` list")
            }
            let key = segments[i + 1]
            if key == "name" {
                return (i + 1, "a segment's `name` cannot be set: it is how `\(here).\(name).…` finds the segment; set the whole `\(here)` list to rename one")
            }
            if sharedSections.contains(key) {
                return (i + 1, "`\(key)` is shared by every device and cannot be set in a segment: set `\(key)` at the top level")
            }
            if i + 2 < segments.count, scope(of: segments[i + 2], inSection: key) == .topLevel {
                let path = key + "." + segments[i + 2]
                return (i + 2, "`\(path)` is top-level only: set `\(path)`")
            }
            return walk(segments, from: i + 1, in: segmentShape, suggestions: segmentSettablePaths, suggestionPrefix: here + "." + name)
        }
    }

    private static func unknownPathMessage(_ segments: [String], suggestions: [String], prefix: String) -> String {
        let path = segments.joined(separator: ".")
        let tail = prefix.isEmpty ? path : segments.dropFirst(prefix.split(separator: ".").count).joined(separator: ".")
        let suggestion = Suggestion.nearest(to: tail, among: suggestions)
            .map { "; did you mean `\(prefix.isEmpty ? $0 : prefix + "." + $0)`?" } ?? ""
        return "unknown key path `\(path)`\(suggestion)"
    }
}
