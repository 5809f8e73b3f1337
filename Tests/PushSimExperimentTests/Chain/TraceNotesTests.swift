// Tests that a trace says why an extension ran out of time: its drawn processing, each answer's time.
import Testing
@testable import PushSimScenarioFile
@testable import PushSimExperiment
@testable import PushSimCore

@Suite struct TraceNotesTests {
    @Test func deadlinesSayWhatTheTimeWentOn() throws {
        let text = """
        name: t
        duration: 2d
        devices: 1
        seed: 3
        mail: {rate: 200/d}
        connectivity: {online: exponential(2h), offline: exponential(1h)}
        xiva: {request_latency: uniform(0, 4s)}
        extension: {deadline: 2s, processing: uniform(0, 3s)}
        """
        let scenario = try ScenarioLoader.parse(text: text, file: "t.yaml")
        let on = Simulator.trace(scenario, device: 0, arm: .on).entries.map(\.text)
        #expect(on.contains { $0.hasPrefix("extension started, processing ") })
        #expect(on.contains { $0.hasPrefix("extension started") && $0.hasSuffix(" > deadline 2s") })
        #expect(on.contains { $0.contains("re-request sent for positions") && $0.contains(", answer in ") })
        #expect(on.contains { $0.contains(", after the deadline at 2s from arrival") })
        #expect(on.contains("extension deadline hit before its processing ended"))
        #expect(on.contains("extension deadline hit waiting for the re-request's answer"))
        let off = Simulator.trace(scenario, device: 0, arm: .off).entries.map(\.text)
        // The off arm settles its runs without events, and says what the deadline event would.
        #expect(off.contains { $0.hasPrefix("extension started") && $0.hasSuffix(" > deadline 2s") })
        #expect(off.contains("extension deadline hit before its processing ended"))
    }
}
