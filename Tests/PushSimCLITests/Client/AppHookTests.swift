// The main app's hook of the client protocol's version 2 (the user opens the app): known answers on one phone, its rules, a hook that does nothing, determinism; and a waiting run's log row at its wake.
import ExampleTeamGapClient
import Foundation
import PushSimClient
import PushSimClientRunner
import PushSimTestSupport
import Testing

/// An extension that never asks (it shows every push and notes the gaps it saw) and an app that,
/// opened, re-requests them (or shows them itself) in one answer.
struct AppCatchesUp: ServiceExtensionClient {
    struct State: Sendable {
        var saved: Int32 = 0
        var gaps: [ClosedRange<Int32>] = []
    }
    var shows = false
    /// Breaks a rule at the app: `outside` asks past the newest position seen, `overlap` asks twice for one.
    var breaks: String? = nil

    func freshState() -> State { State() }

    func pushArrived(_ push: ArrivingPush, state: inout State) -> ExtensionAnswer {
        let p = push.payload.position
        if state.saved > 0 && p > state.saved + 1 { state.gaps.append((state.saved + 1)...(p - 1)) }
        state.saved = max(state.saved, p)
        return .show
    }

    func appOpened(_ opening: AppOpening, state: inout State) -> AppAnswer {
        if breaks == "outside" && opening.newestPosition > 0 { return .reRequest([1...(opening.newestPosition + 5)]) }
        if breaks == "overlap" && opening.newestPosition > 1 { return .summarize([1...2, 2...2]) }
        guard !state.gaps.isEmpty else { return .nothing }
        defer { state.gaps = [] }
        return shows ? .summarize(state.gaps) : .reRequest(state.gaps)
    }
}

@Suite struct AppHookTests {
    typealias S = CheckTestSupport
    typealias T = StatefulClientTests

    /// Letters at 5, 20, 30 and 40 s (positions 1 to 4) on one phone offline from 10 to 100 s:
    /// APNs keeps the newest, so position 4 arrives at 100.1 s after 1, and 2...3 are missing.
    /// The app opens every 30 s (the first within 30 s of the start).
    static let letters: [Double] = [5, 20, 30, 40]
    static let offline: [(Double, Double)] = [(10, 100)]
    static let opens = ["device.app_open=30s"]

    /// The extension asks for nothing; the app, opened after 100.1 s (within 30 s), asks XIVA for
    /// 2...3 in one request: both are sent again and delivered. Without the hook (no openings,
    /// or the team's release before it) they are lost.
    @Test func anAppThatReRequestsAtItsOpeningRecoversWhatTheExtensionLeft() throws {
        let folder = try S.temporaryFolder()
        defer { S.remove(folder) }
        let scenario = try T.onePhone(letters: Self.letters, offline: Self.offline, in: folder)
        let arm = try T.queueArm(try PushSim.run(scenarioAt: scenario, overrides: Self.opens, client: AppCatchesUp()))
        expectEqual(arm["re_requests"] as? Int, 0)
        let app = try #require(arm["app"] as? [String: Any], "\(arm)")
        expectEqual(app["re_requests"] as? Int, 1)
        expectEqual(app["summaries"] as? Int, 0)
        // Openings: every 30 s over the 10 minutes and the 5-minute drain, the first within 30 s
        // (30 in 900 s); the 3 that fall in the offline 90 s are not asked.
        expectEqual(app["opens"] as? Int, 27)
        expectEqual(arm["resent"] as? Int, 2)
        expectEqual(arm["delivered"] as? Int, 4)
        expectEqual(arm["lost"] as? Int, 0)
        // Without openings the app is never asked: 2...3 are lost, and no "app" object is written.
        let closed = try T.queueArm(try PushSim.run(scenarioAt: scenario, client: AppCatchesUp()))
        #expect(closed["delivered"] as? Int == 2 && closed["lost"] as? Int == 2)
        #expect(closed["app"] == nil)
        let trace = PushSim.command(["trace", scenario, "--device", "0"] + Self.opens.flatMap { ["--set", $0] }, client: AppCatchesUp())
        expectEqual(trace.status, 0, "\(trace.errors)")
        #expect(trace.output.contains("opened the app: it asks XIVA again for 2 position(s) in 1 range(s), answer in 300ms"), "\(trace.output)")
        #expect(trace.output.contains("XIVA answers the app's re-request: its positions sent again"), "\(trace.output)")
    }

    /// The app shows 2...3 itself instead: both summarized, one summary, nothing sent again.
    @Test func anAppThatShowsTheGapItselfSummarizesItOnce() throws {
        let folder = try S.temporaryFolder()
        defer { S.remove(folder) }
        let scenario = try T.onePhone(letters: Self.letters, offline: Self.offline, in: folder)
        let arm = try T.queueArm(try PushSim.run(scenarioAt: scenario, overrides: Self.opens, client: AppCatchesUp(shows: true)))
        let app = try #require(arm["app"] as? [String: Any], "\(arm)")
        #expect(app["re_requests"] as? Int == 0 && app["summaries"] as? Int == 1)
        expectEqual(arm["summaries"] as? Int, 1)
        expectEqual(arm["summarized"] as? Int, 2)
        expectEqual(arm["resent"] as? Int, 0)
        expectEqual(arm["delivered"] as? Int, 2)
    }

    /// The team's release 1.4: four gaps in a minute, the fourth summarized by the cap; the app,
    /// opened, asks for it, and it is delivered. Release 1.3 (no catch-up) leaves it summarized.
    @Test func theTeamsAppAsksForWhatTheCapSummarized() throws {
        let folder = try S.temporaryFolder()
        defer { S.remove(folder) }
        let scenario = try T.onePhone(letters: [5, 20, 30, 106, 107, 116, 117, 126, 127],
                                      offline: [(10, 100), (105, 110), (115, 120), (125, 130)], in: folder)
        let opened = try T.queueArm(try PushSim.run(scenarioAt: scenario, overrides: Self.opens, client: TeamGapClient()))
        expectEqual(opened["re_requests"] as? Int, 3)
        let app = try #require(opened["app"] as? [String: Any], "\(opened)")
        expectEqual(app["re_requests"] as? Int, 1)
        expectEqual(opened["lost"] as? Int, 0)
        let before = try T.queueArm(try PushSim.run(scenarioAt: scenario, overrides: Self.opens, client: TeamGapClient(catchUpOnOpen: false)))
        #expect(before["re_requests"] as? Int == 3 && before["summaries"] as? Int == 1 && before["app"] == nil)
        // The summarized letter is delivered once the app asks for it.
        expectEqual((opened["delivered"] as? Int ?? 0), (before["delivered"] as? Int ?? 0) + 1)
    }

    /// A hook that does nothing leaves every number as it was: the openings draw on a stream of
    /// their own and the app does nothing, so the queue arm is the arm without openings.
    @Test func aHookThatDoesNothingLeavesTheNumbersAsTheyWere() throws {
        let folder = try S.temporaryFolder()
        defer { S.remove(folder) }
        let scenario = folder + "/quiet.yaml"
        try S.write(S.scenarioText(name: "quiet", devices: 60), to: scenario)
        var without = try T.queueArm(try PushSim.run(scenarioAt: scenario, client: TeamGapClient(catchUpOnOpen: false)))
        var with = try T.queueArm(try PushSim.run(scenarioAt: scenario, overrides: ["device.app_open=exponential(2h)"],
                                                  client: TeamGapClient(catchUpOnOpen: false)))
        // The openings are events of their own; nothing else moves.
        let events = (without.removeValue(forKey: "events") as? Int ?? 0, with.removeValue(forKey: "events") as? Int ?? 0)
        #expect(events.1 > events.0)
        #expect(NSDictionary(dictionary: without).isEqual(to: with))
        #expect((without["re_requests"] as? Int ?? 0) > 0)
    }

    /// The app's answers are held to the extension's rules: exit 2, the rule, the device, "when
    /// the user opened the app", nothing written.
    @Test(arguments: [("outside", "lies outside the positions the extension has seen"), ("overlap", "overlap")])
    func anAppThatBreaksARuleStopsTheCommand(breaks: String, rule: String) throws {
        let folder = try S.temporaryFolder()
        defer { S.remove(folder) }
        let scenario = try T.onePhone(letters: Self.letters, offline: Self.offline, in: folder)
        let out = folder + "/out"
        let result = PushSim.command(["run", scenario, "--out", out] + Self.opens.flatMap { ["--set", $0] },
                                     client: AppCatchesUp(breaks: breaks), name: "AppCatchesUp")
        expectEqual(result.status, 2)
        #expect(result.errors.contains("the client AppCatchesUp broke a rule of the client protocol"), "\(result.errors)")
        #expect(result.errors.contains(rule) && result.errors.contains("on device 0"), "\(result.errors)")
        #expect(result.errors.contains("when the user opened the app"), "\(result.errors)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// The same run gives the same bytes, for any --jobs, with the team's app catching up.
    @Test func theAppsCatchUpIsDeterministic() throws {
        let team = FuzzCorpus.repositoryRoot + "/examples/team-client/pushsim/scenarios/team.yaml"
        let sets = ["devices=80", "device.app_open=exponential(3h)"]
        let one = try PushSim.run(scenarioAt: team, overrides: sets, jobs: 1, client: TeamGapClient())
        let two = try PushSim.run(scenarioAt: team, overrides: sets, jobs: 3, client: TeamGapClient())
        let again = try PushSim.run(scenarioAt: team, overrides: sets, jobs: 1, client: TeamGapClient())
        expectEqual(one, two)
        expectEqual(one, again)
        let app = try #require(try T.queueArm(one)["app"] as? [String: Any])
        #expect((app["re_requests"] as? Int ?? 0) > 0)
    }
}

/// The extension's log with a version-2 client that waits: a run's row is its decision's, at
/// the wake, with the gap decided then; the log's totals stay the telemetry's.
@Suite struct WaitingRunLogTests {
    typealias S = CheckTestSupport
    typealias T = StatefulClientTests

    /// The batch of StatefulClientTests' known answer: position 4 reaches the extension at
    /// 100.1 s and waits; position 6 (gap 5...5) at 101.0 s joins the batch; the wake at 102.1 s
    /// asks for 2...3 and 5...5. Position 4's row is logged at 102.1 s with a gap of 3, after
    /// position 6's; XIVA answers 0.3 s later, while the extension waits.
    @Test func aWaitingRunIsLoggedAtItsWakeWithTheGapItDecided() throws {
        let folder = try S.temporaryFolder()
        defer { S.remove(folder) }
        let scenario = try T.onePhone(letters: [5, 20, 30, 40, 100.6, 100.7], offline: [(10, 100), (100.5, 100.9)], in: folder)
        let logs = folder + "/log.csv"
        let run = PushSim.command(["run", scenario, "--json", "--no-write", "--logs", logs], client: TeamGapClient())
        expectEqual(run.status, 0, "\(run.errors)")
        let rows = S.read(logs).split(separator: "\n").dropFirst().map { $0.split(separator: ",").map(String.init) }
        let byPosition = Dictionary(rows.map { ($0[2], $0) }, uniquingKeysWith: { a, _ in a })
        expectEqual(byPosition["4"], ["0", "102100000", "4", "1", "3", "answered"], "\(rows)")
        expectEqual(byPosition["6"], ["0", "101000000", "6", "0", "0", "none"], "\(rows)")
        // In time order: position 6's row before position 4's.
        let times = rows.compactMap { Int64($0[1]) }
        expectEqual(times, times.sorted(), "\(rows)")
        // The totals are the telemetry's: rows with a gap, positions missed, re-requests.
        let arm = try T.queueArm(run.output)
        let telemetry = try #require(arm["telemetry"] as? [String: Any])
        expectEqual(rows.filter { $0[3] == "1" }.count, telemetry["gaps_detected"] as? Int)
        expectEqual(rows.reduce(0) { $0 + (Int($1[4]) ?? 0) }, telemetry["missed_in_gaps"] as? Int)
        expectEqual(rows.filter { ["answered", "error", "timeout", "pending"].contains($0[5]) }.count, arm["re_requests"] as? Int)
        expectEqual(rows.count, telemetry["pushes_seen"] as? Int)
    }
}
