// Focus and the scheduled summary: what the rest of PushSim reads of it, declared with it (its streams; its keys' types and its cost where it has them).
import Foundation

/// Its streams, each identified as before (a frozen number or its name's hash), so no draw moves.
extension StreamPurpose {
    package static let notificationHolding = StreamPurpose(named: "notificationHolding") // whether a user has a summary, Focus windows, time-sensitive off (device.notification_summary, device.focus)
    package static let timeSensitive = StreamPurpose(named: "timeSensitive")     // whether a letter is sent time-sensitive (apns.time_sensitive)
}

/// Its cost in the resource estimate (``CostModel/mechanismLoads(_:_:)``).
extension CostModel {
    /// Focus (docs/model.md §10): a Focus user's windows, laid out once per device to a day
    /// past the end, and searched (binary search, twice) for each delivered letter at the
    /// arm's end; no event.
    package static func focusLoad(_ s: Scenario, _ c: LoadInput) -> MechanismLoad? {
        let L = c.letters, armCount = c.armCount, end = c.end
        if let focus = s.device.focus, focus.share > 0 {
            let windows = repetitions(focus.windows, end: end + Double(SimTime.day))
            let search = 2 * log2(max(2, windows.intervals)) * eventsPerSearchStep
            return MechanismLoad(key: "device.focus",
                                 eventsPerDevice: focus.share * (layoutEvents(windows) + armCount * L * search),
                                 bytesPerDevice: bytesPerInterval * windows.intervals,
                                 fix: "lengthen device.focus's windows (their every), or shorten the duration")
        }
        return nil
    }

    /// The scheduled summary (docs/model.md §10): at the arm's end, each delivered letter of
    /// a summary user looks for its next time among the summary's times of the day, in
    /// order: half of them on average.
    package static func notificationSummaryLoad(_ s: Scenario, _ c: LoadInput) -> MechanismLoad? {
        let L = c.letters, armCount = c.armCount
        if let summary = s.device.notificationSummary, summary.share > 0, !summary.times.isEmpty {
            let times = Double(summary.times.count)
            return MechanismLoad(key: "device.notification_summary",
                                 eventsPerDevice: summary.share * armCount * L * times / 2 * eventsPerScanStep,
                                 bytesPerDevice: 8 * times,
                                 fix: "give device.notification_summary fewer times, or lower mail.rate")
        }
        return nil
    }
}
