// Bad input to Focus and the scheduled summary (device.notification_summary, device.focus, device.time_sensitive_off, apns.time_sensitive): refused at file:line:column, exit 2, nothing written.
import Foundation
import Testing
@testable import PushSimCLI
import PushSimScenarioFile
import PushSimTestSupport

@Suite struct FocusSummaryInputTests {
    private static let device = minimalScenario + "device:\n  "

    /// Each bad value, its expected place and words.
    static let cases: [(text: String, place: String, words: String)] = [
        (device + "notification_summary: {share: 1.5, times: [18h]}\n", "t.yaml:5:33", "probability"),
        (device + "notification_summary: {share: -10%, times: [18h]}\n", "t.yaml:5:33", "probability"),
        (device + "focus: {share: 2, windows: [{start: 22h, end: 7h}]}\n", "t.yaml:5:18", "probability"),
        (device + "time_sensitive_off: 120%\n", "t.yaml:5:23", "probability"),
        (minimalScenario + "apns:\n  time_sensitive: 1.01\n", "t.yaml:5:19", "probability"),
        (device + "notification_summary: {share: 30%, times: [8h, 24h]}\n", "t.yaml:5:50", "a time of the day from 0h to before 24h"),
        (device + "notification_summary: {share: 30%, times: [25:00]}\n", "t.yaml:5:46", "a time of the day from 0h to before 24h"),
        (device + "notification_summary: {share: 30%, times: [18:75]}\n", "t.yaml:5:46", "a time of the day from 0h to before 24h"),
        (device + "notification_summary: {share: 30%, times: [-1h]}\n", "t.yaml:5:46", "cannot be negative"),
        (device + "notification_summary: {share: 30%, times: []}\n", "t.yaml:5:45", "a list of times of the day"),
        (device + "notification_summary: {share: 30%}\n", "t.yaml:5:25", "missing required key `times`"),
        (device + "focus: {share: 30%, windows: []}\n", "t.yaml:5:32", "a list of daily windows"),
        (device + "focus: {share: 30%}\n", "t.yaml:5:10", "missing required key `windows`"),
        (device + "focus: {share: 30%, windows: [{start: 22h, end: 31h}]}\n", "t.yaml:5:51", "a time of day from 0h to 24h"),
    ]

    @Test(arguments: 0..<cases.count)
    func badValuesAreLocated(_ index: Int) {
        let bad = Self.cases[index]
        let error = scenarioError(bad.text)
        #expect(place(error) == bad.place && error?.message.contains(bad.words) == true, "\(place(error)): \(error?.message ?? "accepted")")
    }

    /// Good values read as written: `18:00` and `18h` are the same time, listed once, sorted; `08:15` is a clock time.
    @Test func clockTimesAndDurationsReadAlike() throws {
        let s = try ScenarioLoader.parse(text: Self.device + "notification_summary: {share: 30%, times: [18:00, 7h30m, 18h, 08:15]}\n", file: "t.yaml")
        expectEqual(s.device.notificationSummary?.times.map(\.microseconds), [7 * hour + 30 * minute, 8 * hour + 15 * minute, 18 * hour])
    }

    /// A quoted time of the day reads as the unquoted one (YAML 1.1 tools quote `12:30`, which
    /// they would read as a number); a quoted time outside the day is refused where it is written.
    @Test func aQuotedTimeOfDayIsAccepted() throws {
        let quoted = try ScenarioLoader.parse(text: Self.device + "notification_summary: {share: 30%, times: [\"12:30\", '8h']}\n", file: "t.yaml")
        let plain = try ScenarioLoader.parse(text: Self.device + "notification_summary: {share: 30%, times: [12:30, 8h]}\n", file: "t.yaml")
        expectEqual(quoted.device.notificationSummary?.times, plain.device.notificationSummary?.times)
        expectEqual(quoted.device.notificationSummary?.times.map(\.microseconds), [8 * hour, 12 * hour + 30 * minute])
        let error = scenarioError(Self.device + "notification_summary: {share: 30%, times: [\"25:00\"]}\n")
        #expect(place(error) == "t.yaml:5:46" && error?.message.contains("a time of the day from 0h to before 24h") == true,
                "\(place(error)): \(error?.message ?? "accepted")")
    }

    /// Through the command line: exit 2, the place on standard error, no results folder.
    @Test func theCommandRefusesWithStatus2AndWritesNothing() throws {
        try expectRefusedThroughTheCommandLine([Self.cases[0], Self.cases[5], Self.cases[9]].map { ($0.text, $0.place) }, label: "focus")
    }
}
