// Focus and the scheduled summary (device.notification_summary, device.focus): when the user sees a delivered notification.
//
// The notification is delivered as before (the extension runs, the gap check happens, the
// letter counts as delivered at its first presentation); only the moment the user sees it
// moves. That moment is a pure function of the first presentation and the device's draws, so
// it is worked out once per letter at the end of an arm (`recordSeenLatency`): the mechanism
// adds no event, changes no step of the chain, and the shortcuts stay valid.

/// `device.notification_summary` (docs/model.md §10, Focus and the scheduled summary): the
/// share of users who have the app's notifications delivered in a scheduled summary, and the
/// summary's times of the day.
package struct NotificationSummary: Hashable, Sendable {
    /// The probability that a user is one with a summary schedule.
    package var share: Double
    /// Times of the day in [0h, 24h), ascending and distinct, at least one.
    package var times: [SimTime]
    /// Each user shifts each time by an offset uniform in [0, spread) (at most a day); zero: no shift.
    package var spread: SimTime = .zero

    package init(share: Double, times: [SimTime], spread: SimTime = .zero) { self.share = share; self.times = times; self.spread = spread }
}

/// `device.focus` (docs/model.md §10): the share of users with a Focus that silences the app
/// during daily windows.
package struct FocusSchedule: Hashable, Sendable {
    /// The probability that a user is one with Focus windows.
    package var share: Double
    /// Daily windows (`every` one day; an `end` past 24h ends the next day), at least one.
    package var windows: [OfflineWindow]

    package init(share: Double, windows: [OfflineWindow]) { self.share = share; self.windows = windows }
}

extension Scenario.Device {
    /// Whether some user of this device section may have notifications held (a share above 0).
    package var holdsNotifications: Bool {
        (self.notificationSummary?.share ?? 0) > 0 || (self.focus?.share ?? 0) > 0
    }
}

extension Scenario {
    /// Whether the run reports the latency seen by the user: some device of it (the top level's
    /// or a segment's, on APNs) may have notifications held. Every device of such a run records
    /// it, so that the seen latency covers the same letters as the delivered one.
    package var measuresSeenLatency: Bool {
        self.seenLatencyInSomeSegment || (channel == .apns && device.holdsNotifications)
            || segments.contains { $0.channel == .apns && $0.device.holdsNotifications }
    }
}

/// What one device's user does with the app's notifications: drawn once per device (stream
/// `notificationHolding`, three uniforms always, so one share does not move another's draws)
/// and, when the device holds anything and some pushes are time-sensitive, each letter's
/// interruption level (stream `timeSensitive`, one uniform per letter). Shared by both arms.
struct HoldingDraws {
    /// The summary's times of the day in microseconds; empty: no summary for this user.
    var summary: [Int64] = []
    /// The user's Focus intervals, sorted and disjoint, laid out a day past the run's end so
    /// that a window open at the end ends where it would; empty: no Focus.
    var focus: [Range<Int64>] = []
    /// Whether the user lets time-sensitive notifications break through (not turned off).
    var timeSensitiveBreaks = true
    /// Each letter's interruption level: true for time-sensitive; empty: none is.
    var timeSensitive: [Bool] = []

    var holds: Bool { !summary.isEmpty || !focus.isEmpty }

    mutating func generate(_ scenario: Scenario, device: Int, letters: Int) {
        summary.removeAll(keepingCapacity: true)
        focus.removeAll(keepingCapacity: true)
        timeSensitive.removeAll(keepingCapacity: true)
        timeSensitiveBreaks = true
        // Focus and the summary are iOS's: PushKit's calls and FCM's Android have neither.
        guard scenario.channel == .apns else { return }
        var rng = RandomStream(seed: scenario.seed, device: device, purpose: .notificationHolding)
        let summaryDraw = rng.nextUnit(), focusDraw = rng.nextUnit(), offDraw = rng.nextUnit()
        // The spreads' offsets come next, drawn whether or not this user has a summary or a
        // Focus, so that one share does not move the other's offsets: one per summary time,
        // then one per Focus window with a spread, in list order.
        let summarySpread = scenario.device.notificationSummary?.spread.microseconds ?? 0
        let summaryOffsets = summarySpread > 0
            ? (scenario.device.notificationSummary?.times ?? []).map { _ in Int64(rng.nextUnit() * Double(summarySpread)) } : []
        let focusWindows = scenario.device.focus.map { ConnectivityTimeline.shiftedBySpread($0.windows, &rng) } ?? []
        if let s = scenario.device.notificationSummary, summaryDraw < s.share {
            summary = s.times.map(\.microseconds)
            if !summaryOffsets.isEmpty {
                // Shifted past midnight, a time is the next day's at that time of day.
                summary = Array(Set(zip(summary, summaryOffsets).map { ($0 + $1) % SimTime.day })).sorted()
            }
        }
        if scenario.device.focus.map({ focusDraw < $0.share }) ?? false {
            focus = ConnectivityTimeline.windowIntervals(focusWindows, end: scenario.end.microseconds + SimTime.day)
        }
        timeSensitiveBreaks = !(offDraw < scenario.device.timeSensitiveOff)
        let share = scenario.apns.timeSensitiveShare
        guard holds && share > 0 else { return }
        var levels = RandomStream(seed: scenario.seed, device: device, purpose: .timeSensitive)
        timeSensitive.reserveCapacity(letters)
        for _ in 0..<letters { timeSensitive.append(levels.nextUnit() < share) }
    }

    /// The first summary at or after t (times of the day repeat every day; t ≥ 0).
    func nextSummary(atOrAfter t: Int64) -> Int64 {
        let midnight = t - t % SimTime.day, timeOfDay = t - midnight
        if let time = summary.first(where: { $0 >= timeOfDay }) { return midnight + time }
        return midnight + SimTime.day + (summary.first ?? 0)
    }
}

extension HoldingDraws {
    /// When the user sees letter i, first presented at `delivered`, and how it got there
    /// (docs/model.md §10, Focus and the scheduled summary). A time-sensitive notification
    /// breaks through both unless the user turned that off; otherwise the summary holds it
    /// until its next time, and a Focus window holding that instant until the window ends (a
    /// summary due inside a Focus is silenced with the rest, and the letter counts as the
    /// Focus's, not the summary's). Only for a user who holds.
    func seen(letter i: Int, deliveredAt delivered: Int64) -> (time: Int64, summary: Bool, focus: Bool, brokeThrough: Bool) {
        let wouldHold = !summary.isEmpty || focus.interval(holding: delivered) != nil
        if wouldHold && timeSensitiveBreaks && i < timeSensitive.count && timeSensitive[i] {
            return (delivered, false, false, true)
        }
        var t = delivered
        let inSummary = !summary.isEmpty
        if inSummary { t = nextSummary(atOrAfter: t) }
        // Counted once, under the hold that showed it: a summary silenced by a Focus showed
        // nothing, the Focus's end did.
        guard let window = focus.interval(holding: t) else { return (t, inSummary, false, false) }
        return (window.upperBound, false, true, false)
    }
}

extension DeviceWorld {
    /// Records every counted delivered letter's seen latency and what held it (end of an arm,
    /// only when the run measures it: nothing here runs otherwise). A user who holds nothing,
    /// and a phone whose display is off (it shows nothing to hold), see each letter when it is
    /// delivered.
    func recordSeenLatency(into account: inout Ledger) {
        // Taken out of the ledger while it is filled, so recording copies no buffer.
        var histogram = account.focusSummary.seenLatency ?? LatencyHistogram()
        account.focusSummary.seenLatency = nil
        let holding = draws.holding
        if !holding.holds || draws.alertsOff {
            for i in countedLetters where letterStates[i].delivered {
                histogram.record(letterStates[i].firstDelivery - draws.letters[i].time)
            }
        } else {
            var counters = account.focusSummary
            for i in countedLetters where letterStates[i].delivered {
                let seen = holding.seen(letter: i, deliveredAt: letterStates[i].firstDelivery)
                histogram.record(seen.time - draws.letters[i].time)
                if seen.summary { counters.heldInSummary += 1 }
                if seen.focus { counters.heldByFocus += 1 }
                if seen.brokeThrough { counters.brokeThrough += 1 }
            }
            account.focusSummary = counters
        }
        account.focusSummary.seenLatency = histogram
    }
}
