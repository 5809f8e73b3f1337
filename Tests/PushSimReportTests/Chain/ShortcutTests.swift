// The shortcuts checked: every bundled scenario, small, with and without them, and pinned as golden JSON.
//
// Re-record the golden files after an intended change of results with
//   PUSHSIM_RECORD_GOLDEN=1 swift test --filter ShortcutTests
// then review the diff of Tests/PushSimReportTests/Golden/runs/ and commit it.
import Foundation
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
@testable import PushSimExperiment
@testable import PushSimReport
import PushSimTestSupport

enum BundledScenarios {
    /// The repository's `scenarios/` folder, found from this file's place in it.
    static let folder: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scenarios")

    static var names: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".yaml") }.sorted()
    }

    /// Devices per scenario in these tests: enough for every mechanism to act, small enough
    /// for a debug build.
    static let devices = 16

    static func small(_ name: String) throws -> Scenario {
        try ScenarioLoader.load(path: folder.appendingPathComponent(name).path, overrides: ["devices=\(devices)"])
    }

    static func goldenURL(_ name: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Golden").appendingPathComponent("runs")
            .appendingPathComponent(name.replacingOccurrences(of: ".yaml", with: ".json"))
    }
}

@Suite struct ShortcutTests {
    @Test func thereAreBundledScenarios() {
        #expect(BundledScenarios.names.count >= 6)
    }

    /// With every step scheduled as an event, each arm counts the same (all but `events`,
    /// which must then be larger) and the first devices' traces read the same, line by line.
    @Test(arguments: BundledScenarios.names)
    func shortcutsChangeNothingButTheEventCount(_ name: String) throws {
        let scenario = try BundledScenarios.small(name)
        let devices = 0..<scenario.devices
        let taken = Simulator.simulateSegments(scenario, devices: devices, arms: scenario.arms, shortcuts: .taken)
        let scheduled = Simulator.simulateSegments(scenario, devices: devices, arms: scenario.arms, shortcuts: .scheduled)
        for a in scenario.arms.indices {
            var fast = taken.totals[a], slow = scheduled.totals[a]
            #expect(fast.letters > 0, "\(name): no letters at this size")
            // The provider's answers need every arrival at APNs as an event (docs/model.md §9): no shortcut is taken.
            if ChainParameters(scenario).providerAnswers {
                expectEqual(slow.events, fast.events, "\(name) arm \(a): a shortcut was taken past the provider's answers")
            } else {
                #expect(slow.events > fast.events, "\(name) arm \(a): the shortcuts saved no events")
            }
            fast.events = 0; slow.events = 0
            expectEqual(fast, slow, "\(name) arm \(a): the ledgers differ with shortcuts off")
        }
        expectEqual(taken.segments.count, scheduled.segments.count)
        for device in 0..<3 {
            for arm in scenario.arms {
                let fast = Simulator.trace(scenario, device: device, arm: arm, shortcuts: .taken)
                let slow = Simulator.trace(scenario, device: device, arm: arm, shortcuts: .scheduled)
                let fastText = TraceReport.text(TraceReport.window(fast.entries))
                let slowText = TraceReport.text(TraceReport.window(slow.entries))
                expectEqual(fastText, slowText, "\(name) device \(device) queue \(arm.rawValue): traces differ")
            }
        }
    }

    /// The contract's JSON of each bundled scenario at a small size, byte for byte: any drift
    /// in any result shows here, in `swift test`.
    @Test(arguments: BundledScenarios.names)
    func aSmallRunMatchesItsGoldenJSON(_ name: String) throws {
        let scenario = try BundledScenarios.small(name)
        let text = Simulator.run(scenario).json.prettyText + "\n"
        let url = BundledScenarios.goldenURL(name)
        if ProcessInfo.processInfo.environment["PUSHSIM_RECORD_GOLDEN"] == "1" {
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        let golden = try String(contentsOf: url, encoding: .utf8)
        expectEqual(text, golden, "\(name): the small run's JSON changed; if on purpose, re-record with PUSHSIM_RECORD_GOLDEN=1")
    }
}
