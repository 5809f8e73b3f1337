// A per-phone spread on Low Power Mode windows, Focus windows and summary times: releases spread over the spread, not one instant.
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
@testable import PushSimExperiment
import PushSimTestSupport

@Suite struct WindowSpreadTests {
    private func night(spread: Int64) -> OfflineWindow {
        var w = OfflineWindow(start: span(0), end: span(7 * hour), every: span(day))
        w.spread = span(spread)
        return w
    }

    /// The instant Low Power Mode's window ends on a phone of `seed`, as its held pushes show it:
    /// two letters at 2 h and 3 h are held and handed over when the window ends.
    private func release(seed: UInt64, spread: Int64) -> (Int64, Int64) {
        var s = tinyScenario()
        s.seed = seed
        s.device.lowPower = LowPowerMode(share: 1, windows: [night(spread: spread)], releaseOrder: .held)
        let letters = [2 * hour, 3 * hour].map { ScriptedLetter(time: $0, xivaLatency: 50 * ms, apnsLatency: 100 * ms, processing: 200 * ms) }
        var w = ScriptedWorld(s, letters: letters)
        let l = w.run(.off)
        expectEqual(l.delivered, 2, "\(w.traceText)")
        expectEqual(l.lowPower.held, 2, "\(w.traceText)")
        expectEqual(l.lowPower.released, 2, "\(w.traceText)")
        let end = w.world.draws.lowPowerTimeline.intervals.first { $0.contains(2 * hour) }?.upperBound ?? -1
        return (end, w.firstDelivery(0))
    }

    /// Low Power windows with a 30-minute spread release within those 30 minutes: each phone's
    /// window ends at 7 h plus its offset, uniform in [0, 30 min) (mean 15 min, standard
    /// deviation 30/√12 min), and its held pushes reach it after that end; without a spread every
    /// phone releases at 7 h exactly.
    @Test func lowPowerWindowsWithASpreadReleaseWithinIt() {
        let n = 200
        var ends: [Int64] = []
        for seed in 0..<n {
            let (end, delivered) = release(seed: UInt64(seed), spread: 30 * minute)
            #expect(end >= 7 * hour && end < 7 * hour + 30 * minute)
            // Handed over at the window's end, shown after the processing (200 ms).
            expectEqual(delivered, end + 200 * ms)
            ends.append(end)
        }
        expectEqual(Set(ends).count, n)
        let mean = Double(ends.reduce(0) { $0 + ($1 - 7 * hour) }) / Double(n)
        let sd = Double(30 * minute) / 12.0.squareRoot()
        #expect(abs(mean - Double(15 * minute)) < 4 * sd / Double(n).squareRoot())
        for seed in 0..<5 { expectEqual(release(seed: UInt64(seed), spread: 0).0, 7 * hour) }
    }

    /// Focus windows and summary times take the same per-user shift: each within its spread of
    /// the time written, drawn per user.
    @Test func focusWindowsAndSummaryTimesAreShiftedPerUser() {
        var s = tinyScenario()
        var focus = OfflineWindow(start: span(22 * hour), end: span(31 * hour), every: span(day))
        focus.spread = span(1 * hour)
        s.device.focus = FocusSchedule(share: 1, windows: [focus])
        s.device.notificationSummary = NotificationSummary(share: 1, times: [span(8 * hour), span(18 * hour)], spread: span(20 * minute))
        var starts = Set<Int64>(), firstTimes = Set<Int64>()
        for device in 0..<100 {
            var w = DeviceWorld(scenario: s)
            w.prepare(device: device)
            let holding = w.draws.holding
            // The window that began the first evening, and the two summary times.
            let evening = holding.focus.first { $0.lowerBound >= 20 * hour }!
            #expect(evening.lowerBound >= 22 * hour && evening.lowerBound < 23 * hour)
            expectEqual(evening.upperBound - evening.lowerBound, 9 * hour)
            expectEqual(holding.summary.count, 2)
            #expect(holding.summary[0] >= 8 * hour && holding.summary[0] < 8 * hour + 20 * minute)
            #expect(holding.summary[1] >= 18 * hour && holding.summary[1] < 18 * hour + 20 * minute)
            starts.insert(evening.lowerBound)
            firstTimes.insert(holding.summary[0])
        }
        #expect(starts.count > 90 && firstTimes.count > 90)
    }

    /// The keys: read, printed back, refused beyond a day where written.
    @Test func theSpreadKeysAreReadPrintedBackAndChecked() throws {
        let text = minimalScenario + """
            device:
              low_power: {share: 20%, windows: [{start: 0h, end: 7h, spread: 30m}]}
              focus: {share: 30%, windows: [{start: 22h, end: 7h, spread: 1h}]}
              notification_summary: {share: 10%, times: [8h, 18h], spread: 20m}

            """
        let sc = try ScenarioLoader.parse(text: text, file: "t.yaml")
        expectEqual(sc.device.lowPower?.windows.first?.spread, span(30 * minute))
        expectEqual(sc.device.focus?.windows.first?.spread, span(1 * hour))
        expectEqual(sc.device.notificationSummary?.spread, span(20 * minute))
        let again = try ScenarioLoader.parse(text: ScenarioPrinter.yaml(sc), file: "t.yaml")
        #expect(again.device.lowPower == sc.device.lowPower && again.device.focus == sc.device.focus
                && again.device.notificationSummary == sc.device.notificationSummary)
        let error = scenarioError(minimalScenario + "device:\n  low_power: {share: 20%, windows: [{start: 0h, end: 7h, spread: 25h}]}\n")
        #expect(place(error) == "t.yaml:5:66" && error?.message.contains("`device.low_power.windows[0].spread`: expected a duration from 0 to 24h") == true)
        let summary = scenarioError(minimalScenario + "device:\n  notification_summary: {share: 10%, times: [8h], spread: -1m}\n")
        expectEqual(summary?.message.contains("`device.notification_summary.spread`"), true)
    }
}
