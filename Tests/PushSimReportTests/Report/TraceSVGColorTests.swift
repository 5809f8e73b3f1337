// The trace SVG colours a dot by its event's case; checked against the words it once read, on real traces.
import Foundation
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
@testable import PushSimExperiment
@testable import PushSimReport
import PushSimTestSupport

@Suite struct TraceSVGColorTests {
    /// How the SVG coloured a line by its words before events were typed: the reference.
    static func colorByWords(_ text: String) -> String {
        let t = text.lowercased()
        if t.contains("lost") || t.contains("replaced") || t.contains("expired") || t.contains("dropped") || t.contains("network_loss") {
            return "#d62728"
        }
        if t.contains("gap") || t.contains("re-") || t.contains("summary") || t.contains("deadline") { return "#ff7f0e" }
        if t.contains("presented") || t.contains("delivered") { return "#2ca02c" }
        return "#555555"
    }

    /// The colour of a step of the provider's side of APNs (docs/model.md §9, §10): a refusal is
    /// red, the rest grey; nil for the steps the words coloured.
    static func providerColor(_ event: TraceEvent) -> String? {
        switch event {
        case .refused: return "#d62728"
        case .answerLost, .sentAgain, .heldWhileAsleep, .wokenByPriority10, .awake: return "#555555"
        case .endOfRun(.undeliverable): return "#555555"
        default: return nil
        }
    }

    /// Every line of the first devices' traces of every bundled scenario, both arms: the case
    /// gives the colour the words gave, except a lost copy, which is now red whatever its
    /// cause (the words missed `push xiva_drop`, `push unfinished`, …).
    @Test(arguments: BundledScenarios.names)
    func casesColourAsTheWordsDid(_ name: String) throws {
        let scenario = try BundledScenarios.small(name)
        var seen = 0
        for device in 0..<4 {
            for arm in scenario.arms {
                for entry in Simulator.trace(scenario, device: device, arm: arm).entries {
                    seen += 1
                    if case .copyLost = entry.event {
                        expectEqual(TraceSVG.color(entry.event), "#d62728")
                    } else if let colour = Self.providerColor(entry.event) {
                        // The provider's steps came after the words: their colour is the case's own.
                        expectEqual(TraceSVG.color(entry.event), colour)
                    } else {
                        expectEqual(TraceSVG.color(entry.event), Self.colorByWords(entry.text), "\(name): \(entry.text)")
                    }
                }
            }
        }
        #expect(seen > 0)
    }
}
