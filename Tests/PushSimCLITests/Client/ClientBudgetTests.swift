// A user's client whose answers make work no estimate can see: stopped at --max-events, named.
import Foundation
import PushSimClient
import PushSimClientRunner
import PushSimTestSupport
import Testing

/// Re-requests every position before the push's own on every push: each answer sends the
/// letters again, and each of those pushes asks again.
struct ReRequestEverything: ExtensionClient {
    func decide(_ push: PushPayload, saved: SavedState, limits: ClientLimits) -> ClientStep {
        guard push.position > 1 else { return ClientStep(.show, saved: SavedState(position: push.position, deviceIdHash: saved.deviceIdHash)) }
        return ClientStep(.reRequest(positions: 1...Int32.max), saved: saved)
    }
}

@Suite struct ClientBudgetTests {
    /// An 8-hour, 20-letter run made 3.67 M events under --max-events 1e5 (10 hours never ended).
    @Test func aClientThatReRequestsEverythingIsStoppedAtTheLimitAndNamed() throws {
        let dir = TemporaryDirectory()
        let scenario = dir.write("one.yaml", ClientBudgetCommandsTests.one)
        let started = Date()
        let result = PushSim.command(["run", scenario, "--no-write", "--max-events", "1e5", "--out", dir.file("o")],
                                     client: ReRequestEverything(), name: "ReRequestEverything")
        expectEqual(result.status, 2, "\(result.errors)")
        #expect(result.errors.contains("refusing to go on with 'one': the answers of the user's client ReRequestEverything made the run pass about"), "\(result.errors)")
        #expect(result.errors.contains("over the limit of 100000 (--max-events)"), "\(result.errors)")
        #expect(Date().timeIntervalSince(started) < 60)
        #expect(!FileManager.default.fileExists(atPath: dir.file("o")))
        // Within the limit, the same client's run goes through.
        let within = PushSim.command(["run", scenario, "--no-write", "--set", "duration=10m", "--set", "mail.rate=6/d"],
                                     client: ReRequestEverything(), name: "ReRequestEverything")
        expectEqual(within.status, 0, "\(within.errors)")
    }
}
