// The main app's background-push hook of the client protocol's version 2 (queue.background_pushes): known answers on one phone, the throttle, the same pushes as background-push sync, a client without the hook, its rules, determinism.
import ExampleTeamGapClient
import Foundation
import PushSimClient
import PushSimClientRunner
import PushSimTestSupport
import Testing

/// An extension that never asks (it shows every push and saves the newest position) and an app
/// that, woken by a background push, re-requests (or shows itself) every position between the
/// saved one and the newest, then saves the newest.
struct AppSyncsInBackground: ServiceExtensionClient {
    struct State: Sendable {
        var saved: Int32 = 0
    }
    var shows = false
    /// Breaks a rule at the app: asks past the newest position.
    var breaks = false
    /// Whether the woken app acts at all (false: the same extension, an app that does nothing).
    var appActs = true

    func freshState() -> State { State() }

    func pushArrived(_ push: ArrivingPush, state: inout State) -> ExtensionAnswer {
        state.saved = max(state.saved, push.payload.position)
        return .show
    }

    func backgroundPushArrived(_ push: BackgroundPush, state: inout State) -> AppAnswer {
        if breaks { return .reRequest([1...(push.newestPosition + 1)]) }
        guard appActs else { return .nothing }
        let saved = state.saved
        state.saved = max(saved, push.newestPosition)
        guard saved > 0, push.newestPosition - 1 >= saved + 1 else { return .nothing }
        let missed = (saved + 1)...(push.newestPosition - 1)
        return shows ? .summarize([missed]) : .reRequest([missed])
    }
}

/// The same extension, written before the hook existed: it has none.
struct ExtensionWithoutAppHook: ServiceExtensionClient {
    func freshState() -> Int32 { 0 }
    func pushArrived(_ push: ArrivingPush, state: inout Int32) -> ExtensionAnswer {
        let p = push.payload.position
        defer { state = max(state, p) }
        return state > 0 && p > state + 1 && p - state - 1 <= Int32(push.repeatMaxCount) ? .reRequest([(state + 1)...(p - 1)]) : .show
    }
}

@Suite struct BackgroundPushHookTests {
    typealias S = CheckTestSupport
    typealias T = StatefulClientTests

    /// Letters at 5, 20, 30 and 40 s (positions 1 to 4) on one phone offline from 10 to 100 s,
    /// every latency constant (XIVA 0, APNs 100 ms). The background pushes travel as the alert
    /// pushes do: the first arrives at 5.1 s and wakes the app; those of 2, 3 and 4 wait in APNs'
    /// store, each replacing the one before, and the newest (position 4) is handed over at
    /// 100.1 s, 95 s after the first wake-up: a throttle of 60/h (one a minute) lets it through.
    static let letters: [Double] = [5, 20, 30, 40]
    static let offline: [(Double, Double)] = [(10, 100)]
    static let sets = ["queue.background_pushes=true", "device.background_sync.throttle=60/h"]

    static func app(_ arm: [String: Any]) throws -> [String: Any] { try #require(arm["app"] as? [String: Any], "\(arm)") }

    /// At 100.1 s the app, woken with position 4 while it saved 1, asks XIVA for 2...3 in one
    /// request (answered at 100.4 s, re-sent to APNs at 100.6 s, delivered at 100.7 s): all four
    /// letters delivered, 2 re-sent, nothing lost; the extension asked for nothing.
    @Test func anAppWokenByABackgroundPushReRequestsWhatItMissed() throws {
        let folder = try S.temporaryFolder()
        defer { S.remove(folder) }
        let scenario = try T.onePhone(letters: Self.letters, offline: Self.offline, in: folder)
        let arm = try T.queueArm(try PushSim.run(scenarioAt: scenario, overrides: Self.sets, client: AppSyncsInBackground()))
        let app = try Self.app(arm)
        expectEqual(app["background_pushes"] as? Int, 4)
        expectEqual(app["background_wakes"] as? Int, 2)
        #expect(app["background_held"] as? Int == 0 && app["background_dropped"] as? Int == 0)
        #expect(app["re_requests"] as? Int == 1 && app["summaries"] as? Int == 0)
        expectEqual(arm["re_requests"] as? Int, 0)
        expectEqual(arm["resent"] as? Int, 2)
        #expect(arm["delivered"] as? Int == 4 && arm["lost"] as? Int == 0)
        // The hook was asked twice (5.1 s, 100.1 s), the second time with the newest position 4.
        let trace = PushSim.command(["trace", scenario, "--device", "0"] + Self.sets.flatMap { ["--set", $0] }, client: AppSyncsInBackground())
        expectEqual(trace.status, 0, "\(trace.errors)")
        expectEqual(trace.output.components(separatedBy: "background push woke the app: ").count - 1, 2, "\(trace.output)")
        #expect(trace.output.contains("background push woke the app: it asks XIVA again for 2 position(s) in 1 range(s), answer in 300ms"), "\(trace.output)")
        #expect(trace.output.contains("XIVA sends a background push (newest position 4)"), "\(trace.output)")
        // Without the key no background push is sent and 2...3 are lost, as before the hook.
        let without = try T.queueArm(try PushSim.run(scenarioAt: scenario, client: AppSyncsInBackground()))
        #expect(without["delivered"] as? Int == 2 && without["lost"] as? Int == 2 && without["app"] == nil)
    }

    /// The same app showing 2...3 itself: both summarized, in one summary.
    @Test func anAppWokenByABackgroundPushCanShowTheGapItself() throws {
        let folder = try S.temporaryFolder()
        defer { S.remove(folder) }
        let scenario = try T.onePhone(letters: Self.letters, offline: Self.offline, in: folder)
        let arm = try T.queueArm(try PushSim.run(scenarioAt: scenario, overrides: Self.sets, client: AppSyncsInBackground(shows: true)))
        let app = try Self.app(arm)
        #expect(app["re_requests"] as? Int == 0 && app["summaries"] as? Int == 1)
        #expect(arm["summarized"] as? Int == 2 && arm["summaries"] as? Int == 1)
        #expect(arm["delivered"] as? Int == 2 && arm["resent"] as? Int == 0)
    }

    /// The default throttle (3/h: one wake-up per 20 minutes) holds the push of 100.1 s until
    /// 1 205.1 s, after the run's end (900 s): one wake-up, one held, nothing asked for.
    @Test func theDefaultThrottleHoldsTheSecondPushPastTheEnd() throws {
        let folder = try S.temporaryFolder()
        defer { S.remove(folder) }
        let scenario = try T.onePhone(letters: Self.letters, offline: Self.offline, in: folder)
        let arm = try T.queueArm(try PushSim.run(scenarioAt: scenario, overrides: ["queue.background_pushes=true"], client: AppSyncsInBackground()))
        let app = try Self.app(arm)
        #expect(app["background_pushes"] as? Int == 4 && app["background_wakes"] as? Int == 1 && app["background_held"] as? Int == 1)
        expectEqual(app["re_requests"] as? Int, 0)
        #expect(arm["delivered"] as? Int == 2 && arm["lost"] as? Int == 2)
    }

    /// Letters at 5 and 30 s, online: the second push comes 25 s after the first wake-up, within
    /// the minute the throttle (60/h) asks for. Held, it wakes the app at 65.1 s; dropped, never.
    @Test(arguments: [("hold", 2, 1, 0), ("drop", 1, 0, 1)])
    func theThrottleHoldsOrDropsAPushThatComesTooSoon(mode: String, wakes: Int, held: Int, dropped: Int) throws {
        let folder = try S.temporaryFolder()
        defer { S.remove(folder) }
        let scenario = try T.onePhone(letters: [5, 30], offline: [(500, 510)], in: folder)
        let arm = try T.queueArm(try PushSim.run(scenarioAt: scenario, overrides: Self.sets + ["device.background_sync.over_throttle=\(mode)"],
                                                 client: AppSyncsInBackground()))
        let app = try Self.app(arm)
        expectEqual(app["background_pushes"] as? Int, 2)
        #expect(app["background_wakes"] as? Int == wakes && app["background_held"] as? Int == held && app["background_dropped"] as? Int == dropped)
        #expect(arm["delivered"] as? Int == 2 && app["re_requests"] as? Int == 0)
    }

    /// The queue design's background pushes are background-push sync's: the same stream, the same
    /// way through APNs and the same throttle, so on the same scenario they are sent, wake the
    /// app, are held and dropped exactly as often.
    @Test(arguments: ["hold", "drop"])
    func theBackgroundPushesAreBackgroundSyncs(mode: String) throws {
        let folder = try S.temporaryFolder()
        defer { S.remove(folder) }
        let scenario = folder + "/sync.yaml"
        try S.write(S.scenarioText(name: "sync", devices: 60), to: scenario)
        let throttle = ["device.background_sync.throttle=6/h", "device.background_sync.over_throttle=\(mode)"]
        let queue = try T.queueArm(try PushSim.run(scenarioAt: scenario, overrides: throttle + ["queue.background_pushes=true"],
                                                   client: AppSyncsInBackground()))
        let sync = try T.queueArm(try PushSim.run(scenarioAt: scenario, overrides: throttle + ["recovery=background_sync"],
                                                  client: AppSyncsInBackground()))
        let app = try Self.app(queue)
        let design = try #require(sync["background_sync"] as? [String: Any], "\(sync)")
        #expect((app["background_pushes"] as? Int ?? 0) > 1_000)
        expectEqual(app["background_pushes"] as? Int, design["pushes"] as? Int)
        expectEqual(app["background_wakes"] as? Int, design["wakes"] as? Int)
        expectEqual(app["background_held"] as? Int, design["held"] as? Int)
        expectEqual(app["background_dropped"] as? Int, design["dropped"] as? Int)
        #expect((app["background_held"] as? Int ?? 0) + (app["background_dropped"] as? Int ?? 0) > 0)
    }

    /// A client without the hook (written before it) sees background pushes change nothing of
    /// the chain: every count of the queue arm but the app's object, the events and the pushes
    /// sent in the load is the run's without them.
    @Test func aClientWithoutTheHookChangesNothingOfTheChain() throws {
        let folder = try S.temporaryFolder()
        defer { S.remove(folder) }
        let scenario = folder + "/quiet.yaml"
        try S.write(S.scenarioText(name: "quiet", devices: 60), to: scenario)
        var without = try T.queueArm(try PushSim.run(scenarioAt: scenario, client: ExtensionWithoutAppHook()))
        var with = try T.queueArm(try PushSim.run(scenarioAt: scenario, overrides: ["queue.background_pushes=true"], client: ExtensionWithoutAppHook()))
        let app = try Self.app(with)
        #expect((app["background_pushes"] as? Int ?? 0) > 0 && app["re_requests"] as? Int == 0 && app["summaries"] as? Int == 0)
        #expect(without["app"] == nil)
        for key in ["app", "events", "load", "harms_and_costs"] {
            without.removeValue(forKey: key)
            with.removeValue(forKey: key)
        }
        #expect(NSDictionary(dictionary: without).isEqual(to: with), "\(without)\n\(with)")
        #expect((without["re_requests"] as? Int ?? 0) > 0)
    }

    /// The app's answer is held to the main app's rules: exit 2, the rule, the device, "when a
    /// background push woke the app", nothing written.
    @Test func anAppThatBreaksARuleWhenWokenStopsTheCommand() throws {
        let folder = try S.temporaryFolder()
        defer { S.remove(folder) }
        let scenario = try T.onePhone(letters: Self.letters, offline: Self.offline, in: folder)
        let out = folder + "/out"
        let result = PushSim.command(["run", scenario, "--out", out] + Self.sets.flatMap { ["--set", $0] },
                                     client: AppSyncsInBackground(breaks: true), name: "AppSyncsInBackground")
        expectEqual(result.status, 2)
        #expect(result.errors.contains("the client AppSyncsInBackground broke a rule of the client protocol"), "\(result.errors)")
        #expect(result.errors.contains("lies outside the positions the extension has seen (1...1)"), "\(result.errors)")
        #expect(result.errors.contains("on device 0 at "), "\(result.errors)")
        #expect(result.errors.contains("when a background push woke the app"), "\(result.errors)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// The key is checked as every key: a value that is no boolean, or the key beside another
    /// design, names the file's line and column; exit 2.
    @Test(arguments: [("  background_pushes: sometimes", "`true` or `false`"),
                      ("  background_pushes: true\nrecovery: catch_up\ndevice:\n  app_open: 1h", "expected `recovery: queue`")])
    func theKeyIsChecked(line: String, message: String) throws {
        let folder = try S.temporaryFolder()
        defer { S.remove(folder) }
        let scenario = try T.onePhone(letters: Self.letters, offline: Self.offline, in: folder)
        let text = try String(contentsOfFile: scenario, encoding: .utf8) + "\n" + line + "\n"
        try S.write(text, to: scenario)
        let result = PushSim.command(["run", scenario, "--no-write"], client: AppSyncsInBackground())
        expectEqual(result.status, 2)
        #expect(result.errors.contains("onephone.yaml:21:"), "\(result.errors)")
        #expect(result.errors.contains(message), "\(result.errors)")
    }

    /// The same run gives the same bytes, for any --jobs.
    @Test func theBackgroundHookIsDeterministic() throws {
        let folder = try S.temporaryFolder()
        defer { S.remove(folder) }
        let scenario = folder + "/sync.yaml"
        try S.write(S.scenarioText(name: "sync", devices: 80), to: scenario)
        let sets = ["queue.background_pushes=true", "device.background_sync.throttle=6/h"]
        let one = try PushSim.run(scenarioAt: scenario, overrides: sets, jobs: 1, client: AppSyncsInBackground())
        let three = try PushSim.run(scenarioAt: scenario, overrides: sets, jobs: 3, client: AppSyncsInBackground())
        expectEqual(one, three)
        let arm = try T.queueArm(one)
        #expect((try Self.app(arm)["re_requests"] as? Int ?? 0) > 0)
    }
}


/// The team's release 1.5 (examples/team-client): its app, woken by a background push, asks for
/// what the extension has not seen; 1.4 leaves background pushes alone.
@Suite struct TeamClientBackgroundPushTests {
    @Test func theTeamsNextReleaseCatchesUpWhenWoken() throws {
        let team = FuzzCorpus.repositoryRoot + "/examples/team-client/pushsim/scenarios/team.yaml"
        let sets = ["devices=60", "queue.background_pushes=true"]
        let current = try StatefulClientTests.queueArm(try PushSim.run(scenarioAt: team, overrides: sets, client: TeamGapClient()))
        let next = try StatefulClientTests.queueArm(try PushSim.run(scenarioAt: team, overrides: sets,
                                                                     client: TeamGapClient(catchUpOnBackgroundPush: true)))
        let quiet = try BackgroundPushHookTests.app(current), woken = try BackgroundPushHookTests.app(next)
        expectEqual(quiet["re_requests"] as? Int, 0)
        #expect((woken["re_requests"] as? Int ?? 0) > 0, "\(woken)")
        // The same pushes, the same throttle: the world's counts do not depend on the client.
        for key in ["background_pushes", "background_wakes", "background_held", "background_dropped"] {
            expectEqual(quiet[key] as? Int, woken[key] as? Int, "\(key)")
        }
        // The extension asks less: the app asked first for some of what it would have found.
        #expect((next["re_requests"] as? Int ?? 0) <= (current["re_requests"] as? Int ?? 0))
    }
}
