// The shortcuts against every mechanism: each switched on alone, and the fuzzed version-2 combinations, with shortcuts taken and scheduled.
import Foundation
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
@testable import PushSimExperiment
import PushSimTestSupport

@Suite struct ShortcutsPerMechanismTests {
    /// Every ledger count but `events` agrees with the shortcuts taken and with every step
    /// scheduled, in total and per segment.
    static func disagreement(_ scenario: Scenario) -> String? {
        let devices = 0..<scenario.devices
        let taken = Simulator.simulateSegments(scenario, devices: devices, arms: scenario.arms, shortcuts: .taken)
        let scheduled = Simulator.simulateSegments(scenario, devices: devices, arms: scenario.arms, shortcuts: .scheduled)
        for a in scenario.arms.indices {
            var fast = taken.totals[a], slow = scheduled.totals[a]
            fast.events = 0; slow.events = 0
            if fast != slow { return "\(scenario.name) arm \(a): ledgers differ with shortcuts off" }
            for s in taken.segments.indices {
                var f = taken.segments[s][a], g = scheduled.segments[s][a]
                f.events = 0; g.events = 0
                if f != g { return "\(scenario.name) segment \(s) arm \(a): ledgers differ with shortcuts off" }
            }
        }
        return nil
    }

    /// Each mechanism alone, on a file with segments and a warm-up: the mechanism's own
    /// statement about the shortcuts (ChainMechanism) holds up against running every step.
    @Test(arguments: VersionTwoFuzz.mechanisms.map(\.name))
    func eachMechanismAloneAgreesWithEveryStepScheduled(_ name: String) throws {
        let mechanism = try #require(VersionTwoFuzz.mechanisms.first { $0.name == name })
        let scenario = try ScenarioLoader.parse(text: VersionTwoFuzz.base(1, devices: 10, days: 2), file: "\(name).yaml",
                                                overrides: mechanism.overrides)
        #expect(Self.disagreement(scenario) == nil)
    }

    /// The fuzzed combinations (a smaller draw than the find test's: each runs twice).
    @Test func fuzzedCombinationsAgreeWithEveryStepScheduled() {
        var problems: [String] = [], valid = 0
        for k in 0..<80 {
            let draw = VersionTwoFuzz.scenario(k)
            guard let scenario = try? ScenarioLoader.parse(text: draw.text, file: "fuzz-\(k).yaml", overrides: draw.overrides) else { continue }
            valid += 1
            if let problem = Self.disagreement(scenario) { problems.append("case \(k) \(draw.mechanisms): \(problem)") }
        }
        #expect(valid >= 40)
        #expect(problems.isEmpty, "\(problems.prefix(5))")
    }

    /// Every mechanism says something about both shortcuts, and the permissions match the
    /// model's argument (docs/model.md): the ones that reorder what reaches the device forbid
    /// settling due copies; only APNs' answers (its outages among them) and the binary connection
    /// forbid settling first copies.
    @Test func theStatementsAreTheArguedOnes() {
        let quiet = ChainParameters(Scenario(name: "quiet", duration: SimTime(microseconds: SimTime.day), devices: 1))
        let forbidDue = ChainMechanism.allCases.filter { !$0.declaration(quiet).permitsSettlingDueCopies }
        let forbidFirst = ChainMechanism.allCases.filter { !$0.declaration(quiet).permitsSettlingFirstCopies }
        expectEqual(forbidDue, [.secondCopies, .providerAnswers, .sleep, .lowPower, .pushKit, .fcm, .media, .binary])
        expectEqual(forbidFirst, [.providerAnswers, .binary, .apnsOutages, .tokenRefresh])
        #expect(ChainParameters(Scenario(name: "quiet", duration: SimTime(microseconds: SimTime.day), devices: 1)).mechanismsPermitSettlingDueCopies)
    }
}
