// Combinations docs/model.md did not mention, pinned: the binary interface with a finite XIVA capacity, media on the capacity path, reinstalls with a token limit (all allowed).
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
import PushSimTestSupport

@Suite struct CombinationRulesTests {
    private func at(_ t: Int64, lost: Bool = false) -> ScriptedLetter {
        ScriptedLetter(time: t, lost: lost, xivaLatency: 50 * ms, apnsLatency: 100 * ms, processing: 200 * ms)
    }

    /// All three read without an error.
    @Test func theCombinationsAreAllowed() throws {
        let text = minimalScenario + """
            apns: {interface: binary}
            xiva: {capacity: 10/s}
            extension:
              media: {share: 0.5, size: 100KB, bandwidth: 1Mbit/s}
            """
        #expect(throws: Never.self) { try ScenarioLoader.parse(text: text + "\n", file: "t.yaml", overrides: []) }
        let reinstalls = minimalScenario + "device: {reinstall: 1/30d}\napns: {token_limit: 5}\n"
        #expect(throws: Never.self) { try ScenarioLoader.parse(text: reinstalls, file: "t.yaml", overrides: []) }
    }

    /// The binary interface with a finite capacity: the re-request waits for the partition's
    /// XIVA server (served at once here, 1 s of service, then 300 ms back) and its re-sent copy
    /// joins the partition's connection (writes take no time: `connection_rate: forever`).
    @Test func theBinaryInterfaceWithAFiniteCapacity() {
        var s = tinyScenario()
        s.xiva.requestError = 0
        s.apns.interface = .binary
        s.xiva.capacityPerMicrosecond = 1 / 1e6
        var w = ScriptedWorld(s, letters: [at(1 * hour), at(2 * hour, lost: true), at(3 * hour)])
        let on = w.run(.on)
        expectEqual(on.reRequests, 1, "\(w.traceText)")
        expectEqual(on.resent, 1, "\(w.traceText)")
        expectEqual(on.xivaServed, 1, "\(w.traceText)")
        // Letter 2 reaches the device at 3h + 150 ms; the re-request goes at + 350 ms and is
        // answered at + 1.65 s, when the push is shown; the re-sent copy joins the connection
        // 200 ms later, reaches the device 100 ms after that, and is shown after 200 ms.
        expectEqual(w.fate(2), .delivered(latency: 1_650 * ms))
        expectEqual(w.fate(1), .delivered(latency: 1 * hour + 2_150 * ms))
        expectEqual(on.binary.written, 4)
    }

    /// Media on the capacity path: the download (400 ms) and the run's own 200 ms fit in the
    /// 1 s deadline, and so does the answer 300 ms later with capacity forever; with 1 s of
    /// service in XIVA's queue the answer misses the deadline: a time-out, never an overrun.
    @Test func theQueuesWaitMakesATimeoutNotAnOverrun() {
        func run(capacity: Double?) -> Ledger {
            var s = tinyScenario()
            s.xiva.requestError = 0
            s.extension.deadline = span(1 * sec)
            s.extension.media = MediaAttachments(share: 1, size: constant(50_000), bandwidth: constant(1_000_000), cacheHit: 0)
            s.xiva.capacityPerMicrosecond = capacity
            var w = ScriptedWorld(s, letters: [at(1 * hour), at(2 * hour, lost: true), at(3 * hour)])
            w.world.draws.mediaBytes = [0, 0, 50_000]
            return w.run(.on)
        }
        let forever = run(capacity: nil)
        expectEqual(forever.extensionTimeouts, 0)
        expectEqual(forever.media.overruns, 0)
        expectEqual(forever.reRequests, 1)
        let queued = run(capacity: 1 / 1e6)
        expectEqual(queued.extensionTimeouts, 1)
        expectEqual(queued.media.overruns, 0)
        expectEqual(queued.reRequests, 1)
    }
}
