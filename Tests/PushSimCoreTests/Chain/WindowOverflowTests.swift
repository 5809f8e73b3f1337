// Windows near the end of the clock's range: laid out without any arithmetic that could trap.
import Testing
@testable import PushSimCore
import PushSimTestSupport

@Suite struct WindowOverflowTests {
    let day = SimTime.day

    @Test func farRepeatingWindowsNeverOverflow() {
        // Once a trap in the layout (k·every); the reader refuses such windows, the layout must
        // still survive them when a scenario is built in code.
        var s = Scenario(name: "far", duration: SimTime(microseconds: day), devices: 1)
        s.connectivity.windows = [OfflineWindow(start: SimTime(microseconds: 73_000_000 * day),
                                                end: SimTime(microseconds: 73_000_001 * day),
                                                every: SimTime(microseconds: 36_500_000 * day))]
        // Repeating for every whole k, the repetition k = −2 falls on the first day.
        expectEqual(ConnectivityTimeline.windowIntervals(s), [0..<day])
        s.connectivity.windows = [OfflineWindow(start: SimTime(microseconds: Int64.max - 10),
                                                end: SimTime(microseconds: Int64.max - 1),
                                                every: SimTime(microseconds: Int64.max / 2))]
        #expect(ConnectivityTimeline.windowIntervals(s).isEmpty)
    }

    @Test func repeatingWindowStillCoversTheFirstHoursOfTheRun() {
        var s = Scenario(name: "night", duration: SimTime(microseconds: 2 * day), devices: 1)
        s.drain = .zero
        let hour = SimTime.hour
        s.connectivity.windows = [OfflineWindow(start: SimTime(microseconds: 23 * hour),
                                                end: SimTime(microseconds: 31 * hour),
                                                every: SimTime(microseconds: day))]
        expectEqual(ConnectivityTimeline.windowIntervals(s), [0..<(7 * hour), (23 * hour)..<(31 * hour), (47 * hour)..<(48 * hour)])
    }
}
