// Bad input to device.low_power and extension.media's memory limit: refused at file:line:column, exit 2, nothing written.
import Foundation
import Testing
@testable import PushSimCLI
import PushSimTestSupport

@Suite struct LowPowerAndMemoryLimitInputTests {
    private static let media = "extension:\n  media: {share: 1, size: 1MB, bandwidth: 1Mbit/s, "

    /// Each bad value, its expected place and words.
    static let cases: [(text: String, place: String, words: String)] = [
        (minimalScenario + "device:\n  low_power: {share: 1.5}\n", "t.yaml:5:22", "probability"),
        (minimalScenario + "device:\n  low_power: {share: -10%}\n", "t.yaml:5:22", "probability"),
        (minimalScenario + "device:\n  low_power: {windows: [{start: 18h, end: 23h}]}\n", "t.yaml:5:14", "missing required key `share`"),
        (minimalScenario + "device:\n  low_power: {share: 20%, windows: [{start: 25h, end: 23h}]}\n", "t.yaml:5:45", "a time of day from 0h to 24h"),
        (minimalScenario + "device:\n  low_power: {share: 20%, windows: [{start: 18h, end: 30h}]}\n", "t.yaml:5:55", "a time of day from 0h to 24h"),
        (minimalScenario + "device:\n  low_power: {share: 20%, windows: [{start: 24h, end: 2h}]}\n", "t.yaml:5:45", "starts before 24h"),
        (minimalScenario + "device:\n  low_power: {share: 20%, windows: [{start: 18h, end: 18h}]}\n", "t.yaml:5:55", "is empty"),
        (minimalScenario + "device:\n  low_power: {share: 20%, windows: []}\n", "t.yaml:5:36", "a list of daily windows"),
        (minimalScenario + "device:\n  low_power: {share: 20%, windows: [{start: 18h, end: 23h, every: 1d}]}\n", "t.yaml:5:60", "every"),
        (minimalScenario + "device:\n  low_power: {share: 20%, release_order: random}\n", "t.yaml:5:42", "held, shuffled or latency"),
        (minimalScenario + media + "memory_limit: 0}\n", "t.yaml:5:66", "greater than 0"),
        (minimalScenario + media + "memory_limit: 0MB}\n", "t.yaml:5:66", "greater than 0"),
        (minimalScenario + media + "memory_limit: 24MB, decode_factor: 0}\n", "t.yaml:5:87", "0.01 to 1000"),
    ]

    @Test(arguments: 0..<cases.count)
    func badValuesAreLocated(_ index: Int) {
        let bad = Self.cases[index]
        let error = scenarioError(bad.text)
        #expect(place(error) == bad.place && error?.message.contains(bad.words) == true, "\(place(error)): \(error?.message ?? "accepted")")
    }

    /// Through the command line: exit 2, the place on standard error, no results folder.
    @Test func theCommandRefusesWithStatus2AndWritesNothing() throws {
        try expectRefusedThroughTheCommandLine([Self.cases[0], Self.cases[3], Self.cases[10]].map { ($0.text, $0.place) }, label: "lowpower")
    }
}
