// docs/model.md §10, Focus and the scheduled summary, pinned: a summary at 18:00 shows a 17:05 letter at 18:00; a time-sensitive push breaks through a Focus unless the user turned that off; delivery itself does not move.
import Testing
@testable import PushSimCore
import PushSimTestSupport

@Suite struct FocusSummaryRulesTests {
    /// Each letter is shown 350 ms after it is written (50 ms to APNs, 100 ms to the phone, 200 ms processing).
    private func at(_ t: Int64) -> ScriptedLetter {
        ScriptedLetter(time: t, xivaLatency: 50 * ms, apnsLatency: 100 * ms, processing: 200 * ms)
    }

    /// A scenario that measures the seen latency; the user's draws are set by hand below.
    private let scenario = tinyScenario(on: .apns) {
        $0.xiva.requestError = 0
        $0.device.notificationSummary = NotificationSummary(share: 1, times: [span(18 * hour)])
    }

    private func world(_ letters: [ScriptedLetter], summary: [Int64] = [], focus: [Range<Int64>] = [],
                       timeSensitive: [Bool] = [], breaks: Bool = true, alertsOff: Bool = false) -> ScriptedWorld {
        var w = ScriptedWorld(scenario, letters: letters, alertsOff: alertsOff)
        w.world.draws.holding.summary = summary
        w.world.draws.holding.focus = focus
        w.world.draws.holding.timeSensitive = timeSensitive
        w.world.draws.holding.timeSensitiveBreaks = breaks
        return w
    }

    /// The example: a summary at 18:00 shows a letter of 17:05 at 18:00. Seen latency
    /// 55 min; the delivered latency stays 350 ms, in both arms.
    @Test func aSummaryAt18ShowsA1705LetterAt18() throws {
        for arm in [Arm.off, .on] {
            var w = world([at(17 * hour + 5 * minute)], summary: [18 * hour])
            let l = w.run(arm)
            expectEqual(w.fate(0), .delivered(latency: 350 * ms), "\(arm)\n\(w.traceText)")
            let seen = try #require(l.focusSummary.seenLatency)
            expectEqual(seen.total, 1)
            expectEqual(seen.maximum, 55 * minute)
            expectEqual(l.latency.maximum, 350 * ms)
            expectEqual(l.focusSummary.heldInSummary, 1)
            expectEqual(l.focusSummary.heldByFocus, 0)
            expectEqual(l.focusSummary.brokeThrough, 0)
        }
    }

    /// After the day's last summary a letter waits for the next day's first: 19:00 → 8:00, 13 h.
    /// One delivered at a summary's very time is seen then.
    @Test func afterTheLastSummaryTheNextDaysFirstShowsIt() throws {
        var w = world([at(18 * hour - 350 * ms), at(19 * hour)], summary: [8 * hour, 18 * hour])
        let l = w.run(.off)
        let seen = try #require(l.focusSummary.seenLatency)
        // The histogram keeps the largest value exactly; below it, buckets within 1/256.
        #expect(seen.total == 2 && seen.maximum == 13 * hour && seen.percentile(0.5) < 1 * SimTime.second)
        expectEqual(w.world.draws.holding.nextSummary(atOrAfter: 18 * hour), 18 * hour)
        expectEqual(w.world.draws.holding.nextSummary(atOrAfter: day + 3 * hour), day + 8 * hour)
    }

    /// A time-sensitive push breaks through a Focus window (17h–19h): seen when delivered.
    @Test func aTimeSensitivePushBreaksThroughAFocus() throws {
        var w = world([at(17 * hour + 5 * minute)], focus: [17 * hour..<19 * hour], timeSensitive: [true])
        let l = w.run(.on)
        let seen = try #require(l.focusSummary.seenLatency)
        expectEqual(seen.maximum, 350 * ms)
        expectEqual(l.focusSummary.brokeThrough, 1)
        expectEqual(l.focusSummary.heldByFocus, 0)
    }

    /// A user who turned time-sensitive off sees the same push when the Focus ends: 19:00, 1 h 55 min after the letter.
    @Test func aUserWhoTurnedTimeSensitiveOffDoesNotSeeItBreakThrough() throws {
        var w = world([at(17 * hour + 5 * minute)], focus: [17 * hour..<19 * hour], timeSensitive: [true], breaks: false)
        let l = w.run(.on)
        let seen = try #require(l.focusSummary.seenLatency)
        expectEqual(seen.maximum, 1 * hour + 55 * minute)
        expectEqual(l.focusSummary.brokeThrough, 0)
        expectEqual(l.focusSummary.heldByFocus, 1)
        expectEqual(w.fate(0), .delivered(latency: 350 * ms))
    }

    /// Outside a Focus window nothing waits and nothing breaks through; a summary due inside a
    /// Focus (18:00 inside 17:30–18:30) is silenced with the rest until the Focus ends.
    @Test func aFocusHoldsOnlyInsideItsWindowsAndSilencesASummary() throws {
        var outside = world([at(16 * hour)], focus: [17 * hour..<19 * hour], timeSensitive: [true])
        let o = outside.run(.off)
        expectEqual(o.focusSummary.seenLatency?.maximum, 350 * ms)
        expectEqual(o.focusSummary.brokeThrough, 0)
        expectEqual(o.focusSummary.heldByFocus, 0)
        var both = world([at(17 * hour + 5 * minute)], summary: [18 * hour], focus: [17 * hour + 30 * minute..<18 * hour + 30 * minute])
        let b = both.run(.off)
        expectEqual(b.focusSummary.seenLatency?.maximum, 1 * hour + 25 * minute)
        // Counted once, under the Focus whose end showed it (the summary was silenced).
        expectEqual(b.focusSummary.heldInSummary, 0)
        expectEqual(b.focusSummary.heldByFocus, 1)
    }

    /// A phone whose display is off shows nothing to hold: seen when delivered (on arrival, 150 ms).
    @Test func aPhoneWithDisplayOffHoldsNothing() throws {
        var w = world([at(17 * hour + 5 * minute)], summary: [18 * hour], alertsOff: true)
        let l = w.run(.off)
        expectEqual(w.fate(0), .delivered(latency: 150 * ms))
        expectEqual(l.focusSummary.seenLatency?.maximum, 150 * ms)
        expectEqual(l.focusSummary.heldInSummary, 0)
    }

    /// The summary changes only what the user sees: the delivered letters, their latencies, the
    /// gap check's work and every other count are those of the same device without it.
    @Test func deliveryAndTheQueueDoNotMove() {
        let letters = (0..<30).map { at(Int64($0) * 47 * minute) }
        var plain = ScriptedWorld(tinyScenario(on: .apns) { $0.xiva.requestError = 0 }, letters: letters, offline: [3 * hour..<5 * hour])
        var held = ScriptedWorld(scenario, letters: letters, offline: [3 * hour..<5 * hour])
        held.world.draws.holding.summary = [8 * hour, 18 * hour]
        for arm in [Arm.off, .on] {
            var a = plain.run(arm), b = held.run(arm)
            #expect(b.focusSummary.heldInSummary == b.delivered && b.focusSummary.seenLatency != nil)
            b.focusSummary = FocusSummaryCounters()
            a.events = 0; b.events = 0
            expectEqual(a, b, "\(arm)")
        }
    }

    /// The draws: over 4000 users at 30 % with a summary, 40 % with Focus and 25 % with
    /// time-sensitive off, each count lies within 4.5 standard deviations of its mean
    /// (σ = √(4000 · p · (1 − p)): 29.0, 31.0, 27.4); a letter's level is time-sensitive at 20 %,
    /// and users without either draw no level.
    @Test func theSharesAreDrawnPerUserAndPerLetter() {
        var s = tinyScenario(duration: 2 * day)
        s.mail.ratePerMicrosecond = 40 / Double(day)
        s.device.notificationSummary = NotificationSummary(share: 0.3, times: [span(8 * hour), span(18 * hour)])
        s.device.focus = FocusSchedule(share: 0.4, windows: [OfflineWindow(start: span(22 * hour), end: span(31 * hour), every: span(day))])
        s.device.timeSensitiveOff = 0.25
        s.apns.timeSensitiveShare = 0.2
        var summaries = 0, focuses = 0, off = 0, letters = 0, sensitive = 0
        for device in 0..<4000 {
            var w = DeviceWorld(scenario: s)
            w.prepare(device: device)
            let h = w.draws.holding
            if !h.summary.isEmpty { summaries += 1; expectEqual(h.summary, [8 * hour, 18 * hour]) }
            if !h.focus.isEmpty { focuses += 1; expectEqual(h.focus.first, 0..<7 * hour) }
            if !h.timeSensitiveBreaks { off += 1 }
            if h.holds {
                expectEqual(h.timeSensitive.count, w.draws.letters.count)
                letters += h.timeSensitive.count; sensitive += h.timeSensitive.filter { $0 }.count
            } else {
                #expect(h.timeSensitive.isEmpty)
            }
        }
        #expect(abs(summaries - 1200) <= 131 && abs(focuses - 1600) <= 140 && abs(off - 1000) <= 124, "\(summaries) \(focuses) \(off)")
        // About 2300 holding users × 80 letters: σ of the share ≈ √(0.16 / letters); 4.5 σ.
        let share = Double(sensitive) / Double(max(letters, 1))
        #expect(letters > 100_000 && abs(share - 0.2) <= 4.5 * (0.16 / Double(letters)).squareRoot(), "\(share) of \(letters)")
    }

    /// Without any of the keys nothing is measured: no histogram, no draws.
    @Test func withoutTheKeysNothingIsMeasured() {
        var w = ScriptedWorld(tinyScenario(on: .apns), letters: [at(17 * hour)])
        let l = w.run(.on)
        #expect(l.focusSummary == FocusSummaryCounters() && !w.world.parameters.measuresSeenLatency)
    }

    /// A summary at 30 min inside a Focus of 29–31 min: a letter delivered at 15 min is seen at
    /// 31 min, when the Focus ends. It counts once, under the Focus (the summary was silenced);
    /// the three counts never add up to more than the delivered letters.
    @Test func aSummarySilencedByAFocusCountsTheLetterUnderTheFocus() throws {
        var w = world([at(15 * minute - 350 * ms + 1 * sec)], summary: [30 * minute], focus: [29 * minute..<31 * minute])
        let l = w.run(.off)
        expectEqual(w.firstDelivery(0), 15 * minute + 1 * sec)
        let seen = try #require(l.focusSummary.seenLatency)
        expectEqual(seen.maximum, 31 * minute - (15 * minute - 350 * ms + 1 * sec))
        expectEqual(l.focusSummary.heldInSummary, 0)
        expectEqual(l.focusSummary.heldByFocus, 1)
        expectEqual(l.focusSummary.brokeThrough, 0)
        // Outside the Focus, the same summary counts it.
        var shown = world([at(15 * minute)], summary: [30 * minute], focus: [40 * minute..<50 * minute])
        let s = shown.run(.off)
        expectEqual(s.focusSummary.heldInSummary, 1)
        expectEqual(s.focusSummary.heldByFocus, 0)
    }
}
