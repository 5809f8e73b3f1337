// Bad input to background-push sync (recovery: background_sync, device.background_sync): refused at file:line:column, exit 2, nothing written.
import Foundation
import Testing
@testable import PushSimCLI
import PushSimScenarioFile
import PushSimTestSupport

@Suite struct BackgroundSyncInputTests {
    private static let device = minimalScenario + "recovery: background_sync\ndevice:\n  "

    /// Each bad value, its expected place and words.
    static let cases: [(text: String, place: String, words: String)] = [
        (device + "background_sync: {force_quit: 1.5}\n", "t.yaml:6:33", "probability"),
        (device + "background_sync: {force_quit: -1%}\n", "t.yaml:6:33", "probability"),
        (device + "background_sync: {throttle: 0/h}\n", "t.yaml:6:31", "a rate above 0"),
        (device + "background_sync: {throttle: 3}\n", "t.yaml:6:31", "rate"),
        (device + "background_sync: {over_throttle: later}\n", "t.yaml:6:36", "hold or drop"),
        (device + "background_sync: {delay: exponential(0s)}\n", "t.yaml:6:28", "MEAN > 0"),
        (device + "background_sync: {throtle: 2/h}\n", "t.yaml:6:21", "throttle"),
        (minimalScenario + "channel: fcm\nrecovery: background_sync\n", "t.yaml:5:11", "channel: apns"),
    ]

    @Test(arguments: 0..<cases.count)
    func badValuesAreLocated(_ index: Int) {
        let bad = Self.cases[index]
        let error = scenarioError(bad.text)
        #expect(place(error) == bad.place && error?.message.contains(bad.words) == true, "\(place(error)): \(error?.message ?? "accepted")")
    }

    /// Good values read as written; without the mapping the design runs with the defaults.
    @Test func goodValuesReadAsWritten() throws {
        let s = try ScenarioLoader.parse(text: Self.device + "background_sync: {throttle: 2/h, over_throttle: drop, force_quit: 25%, delay: 3s}\n", file: "t.yaml")
        expectEqual(s.recovery, .backgroundSync)
        #expect(s.device.backgroundSync?.spacing == 30 * minute && s.device.backgroundSync?.overThrottle == .drop)
        expectEqual(s.device.backgroundSync?.forceQuit, 0.25)
        let plain = try ScenarioLoader.parse(text: minimalScenario + "recovery: background_sync\n", file: "t.yaml")
        #expect(plain.recovery == .backgroundSync && plain.device.backgroundSync == nil)
    }

    /// Through the command line: exit 2, the place on standard error, no results folder.
    @Test func theCommandRefusesWithStatus2AndWritesNothing() throws {
        try expectRefusedThroughTheCommandLine([Self.cases[0], Self.cases[2], Self.cases[7]].map { ($0.text, $0.place) }, label: "background-sync")
    }
}
