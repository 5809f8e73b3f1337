// Trace lines carry their kind: connectivity flips, clear times, fates; readers act on the kind, not the words.
import Testing
@testable import PushSimScenarioFile
@testable import PushSimExperiment
@testable import PushSimCore

@Suite struct TraceKindTests {
    @Test func flipsFatesAndClearTimesAreTyped() throws {
        // The golden trace's device (an offline window: two flips), with collapse ids so clear
        // times are drawn.
        let scenario = try ScenarioLoader.parse(text: TraceFixture.text, file: "t.yaml", overrides: ["queue.collapse_id=true"])
        let (entries, ledger) = Simulator.trace(scenario, device: 0, queueOn: true)
        let flips = entries.filter { if case .connectivity = $0.kind { return true } else { return false } }
        #expect(!flips.isEmpty)
        for flip in flips {
            guard case .connectivity(let online) = flip.kind else { continue }
            #expect(flip.text == (online ? "online" : "offline") && flip.lane == .device && flip.letter == nil)
        }
        // Flips alternate.
        for (a, b) in zip(flips, flips.dropFirst()) { #expect(a.kind != b.kind) }
        let fates = entries.filter { $0.kind == .fate }
        #expect(fates.count == ledger.letters && fates.allSatisfy { $0.text.hasPrefix("end of run: ") })
        let clears = entries.filter { $0.kind == .clearScheduled }
        #expect(!clears.isEmpty && clears.allSatisfy { $0.text.hasPrefix("will clear at ") && $0.letter == nil })
        // Nothing else claims a kind.
        #expect(entries.filter { $0.kind == .step }.count == entries.count - flips.count - fates.count - clears.count)
        #expect(!entries.contains { $0.kind == .step && ($0.text == "online" || $0.text == "offline" || $0.text.hasPrefix("end of run")) })
    }
}
