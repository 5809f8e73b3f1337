// The client protocol's version 2: the built-in clients through it, the team's client (batching, a rate cap, a summary) on worlds with known answers, its rules, and the client named in every result.
import ExampleTeamGapClient
import Foundation
import PushSimClient
import PushSimClientRunner
import PushSimTestSupport
import Testing

@Suite struct StatefulClientTests {
    typealias S = CheckTestSupport

    /// One phone, constant latencies, letters from a trace, offline in the given windows (in
    /// seconds): every push's path is known.
    static func onePhone(letters: [Double], offline: [(Double, Double)], in folder: String) throws -> String {
        let windows = offline.map { "    - {start: \(Int($0.0 * 1000))ms, end: \(Int($0.1 * 1000))ms}" }.joined(separator: "\n")
        let scenario = """
            name: onephone
            seed: 1
            duration: 10m
            drain: 5m
            devices: 1
            mail:
              trace: letters.csv
            connectivity:
              windows:
            \(windows)
            xiva:
              latency: 0s
              request_latency: 300ms
              resend_latency: 200ms
            apns:
              latency: 100ms
            extension:
              processing: 100ms
            queue:
              mode: on
            """
        try S.write(scenario, to: folder + "/onephone.yaml")
        try S.write("time,device\n" + letters.map { "\($0),0\n" }.joined(), to: folder + "/letters.csv")
        return folder + "/onephone.yaml"
    }

    static func queueArm(_ json: String) throws -> [String: Any] {
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let runs = try #require(document["runs"] as? [[String: Any]])
        return try #require(runs.first { $0["queue"] as? String == "on" })
    }

    @Test(arguments: [false, true])
    func theBuiltInClientsInVersionTwoGiveTheirOwnNumbers(intended: Bool) throws {
        let folder = try S.temporaryFolder()
        defer { S.remove(folder) }
        let scenario = folder + "/clients.yaml"
        try S.write(S.scenarioText(name: "clients", devices: 150), to: scenario)
        // Device id changes and reinstalls: pushes of another install, positions forgotten.
        let sets = ["queue.client=\(intended ? "intended" : "literal")", "device.id_change=1/2d", "device.reinstall=1/3d"]
        let builtIn = S.pushsim(["run", scenario, "--json", "--no-write", "--jobs", "1"] + sets.flatMap { ["--set", $0] })
        expectEqual(builtIn.status, 0, "\(builtIn.err)")
        let client: BuiltInServiceExtensionClient = intended ? .intended : .literal
        let viaVersionTwo = try PushSim.run(scenarioAt: scenario, overrides: sets, jobs: 2, client: client)
        // Two counters read the saved position, which a version-2 client keeps to itself: they
        // count from the newest position it was shown (the intended client's saved position).
        let readingTheSavedPosition = ["missed_gap_positions", "positions_in_forgotten_gaps"]
        func withoutThem(_ json: String) throws -> String {
            json.replacing(try Regex("\"(\(readingTheSavedPosition.joined(separator: "|")))\":[0-9]+"), with: "")
        }
        if intended { #expect(viaVersionTwo == builtIn.out) } else { #expect(try withoutThem(viaVersionTwo) == withoutThem(builtIn.out)) }
        #expect(try Self.queueArm(viaVersionTwo)["re_requests"] as? Int ?? 0 > 0)
    }

    /// Gaps 2...3 (found at 100.1 s) and 5...5 (found at 101.0 s, 0.9 s later) fall in one
    /// 2-second batch: one re-request for both ranges, at 102.1 s; every letter delivered.
    @Test func aBatchMergesTwoGapsASecondApartIntoOneReRequest() throws {
        let folder = try S.temporaryFolder()
        defer { S.remove(folder) }
        let scenario = try Self.onePhone(letters: [5, 20, 30, 40, 100.6, 100.7], offline: [(10, 100), (100.5, 100.9)], in: folder)
        let team = try Self.queueArm(try PushSim.run(scenarioAt: scenario, client: TeamGapClient()))
        expectEqual(team["re_requests"] as? Int, 1)
        expectEqual(team["resent"] as? Int, 3)
        expectEqual(team["delivered"] as? Int, 6)
        // The built-in client asks twice, once per gap.
        let builtIn = try Self.queueArm(S.pushsim(["run", scenario, "--json", "--no-write"]).out)
        expectEqual(builtIn["re_requests"] as? Int, 2)
        let trace = PushSim.command(["trace", scenario, "--device", "0"], client: TeamGapClient())
        expectEqual(trace.status, 0, "\(trace.errors)")
        #expect(trace.output.contains("00:01:40.100  h00  device   #4   the client waits until 1m42s100ms"), "\(trace.output)")
        // The batch closes 2 s after the first gap, and asks for both in one request.
        #expect(trace.output.contains("00:01:42.100  h00  device   #4   the client is woken"), "\(trace.output)")
        #expect(trace.output.contains("00:01:42.100  h00  device        the same re-request also asks for positions 5...5"), "\(trace.output)")
    }

    /// Four gaps 10 s apart, each asked for after its own 2-second batch: the fourth falls in
    /// the same minute as the first three, so the cap of 3 a minute summarizes it.
    @Test func theCapHoldsTheFourthReRequestOfAMinute() throws {
        let folder = try S.temporaryFolder()
        defer { S.remove(folder) }
        let scenario = try Self.onePhone(letters: [5, 20, 30, 106, 107, 116, 117, 126, 127],
                                         offline: [(10, 100), (105, 110), (115, 120), (125, 130)], in: folder)
        let team = try Self.queueArm(try PushSim.run(scenarioAt: scenario, client: TeamGapClient()))
        expectEqual(team["re_requests"] as? Int, 3)
        expectEqual(team["summaries"] as? Int, 1)
        // With room for four a minute, the fourth is asked for too.
        let roomier = try Self.queueArm(try PushSim.run(scenarioAt: scenario, client: TeamGapClient(requestsPerMinute: 4)))
        expectEqual(roomier["re_requests"] as? Int, 4)
        expectEqual(roomier["summaries"] as? Int, 0)
    }

    /// A client that asks for its own push's position breaks a rule: exit 2, a message naming
    /// the rule, the device and the letter, and no results folder.
    @Test func aClientThatBreaksARuleStopsTheCommandAndNothingIsWritten() throws {
        struct AsksForItself: ServiceExtensionClient {
            func freshState() -> Int { 0 }
            func pushArrived(_ push: ArrivingPush, state: inout Int) -> ExtensionAnswer {
                state += 1
                return state == 3 ? .reRequest([push.payload.position...push.payload.position]) : .show
            }
        }
        struct WaitsTooLong: ServiceExtensionClient {
            func freshState() -> Int { 0 }
            func pushArrived(_ push: ArrivingPush, state: inout Int) -> ExtensionAnswer { .wait(until: push.deadline.adding(seconds: 1)) }
        }
        let folder = try S.temporaryFolder()
        defer { S.remove(folder) }
        let scenario = folder + "/rules.yaml"
        try S.write(S.scenarioText(name: "rules", devices: 30), to: scenario)
        let out = folder + "/out"
        let own = PushSim.command(["run", scenario, "--out", out, "--jobs", "2"], client: AsksForItself(), name: "AsksForItself")
        expectEqual(own.status, 2)
        #expect(own.errors.contains("the client AsksForItself broke a rule of the client protocol"), "\(own.errors)")
        #expect(own.errors.contains("holds the push's own position") && own.errors.contains("on device 0"), "\(own.errors)")
        #expect(!FileManager.default.fileExists(atPath: out))
        let late = PushSim.command(["sweep", scenario, "--vary", "queue.repeat_max_count=5,10", "--out", out], client: WaitsTooLong())
        expectEqual(late.status, 2)
        #expect(late.errors.contains("no later than the run's deadline"), "\(late.errors)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func parallelRunsAreRefusedWithAVersionTwoClient() throws {
        let folder = try S.temporaryFolder()
        defer { S.remove(folder) }
        let scenario = folder + "/parallel.yaml"
        try S.write(S.scenarioText(name: "parallel", devices: 10) + "\nextension:\n  concurrency: parallel\n", to: scenario)
        let result = PushSim.command(["run", scenario, "--no-write"], client: TeamGapClient())
        expectEqual(result.status, 2)
        #expect(result.errors.contains("parallel.yaml:") && result.errors.contains("protocol version 2"), "\(result.errors)")
    }

    /// summary.json names the client and its version; `check` against a baseline another
    /// version made names the change.
    @Test func everyResultNamesItsClientAndCheckNamesAClientChange() throws {
        let folder = try S.temporaryFolder()
        defer { S.remove(folder) }
        let scenario = try Self.onePhone(letters: [5, 20, 30, 40, 100.6, 100.7], offline: [(10, 100), (100.5, 100.9)], in: folder)
        let results = folder + "/results"
        let made = PushSim.command(["run", scenario, "--out", results + "/onephone"], client: TeamGapClient(), name: "team-gap", version: "1.3")
        expectEqual(made.status, 0, "\(made.errors)")
        let summary = try String(contentsOfFile: results + "/onephone/summary.json", encoding: .utf8)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(summary.utf8)) as? [String: Any])
        let client = try #require(document["client"] as? [String: Any])
        #expect(client["name"] as? String == "team-gap" && client["version"] as? String == "1.3")
        #expect(client["protocol"] as? Int == 2 && client["kind"] as? String == "user")
        let markdown = try String(contentsOfFile: results + "/onephone/summary.md", encoding: .utf8)
        #expect(markdown.contains("the extension's client team-gap 1.3 (protocol 2)"))
        let checked = PushSim.command(["check", scenario, "--results", results], client: TeamGapClient(), name: "team-gap", version: "1.4")
        #expect(checked.output.contains("what changed in the extension: client team-gap 1.3 (protocol 2) → team-gap 1.4 (protocol 2)"),
                "\(checked.output)\(checked.errors)")
        let builtIn = S.pushsim(["check", scenario, "--results", results])
        #expect(builtIn.out.contains("client team-gap 1.3 (protocol 2) → intended (built-in)"), "\(builtIn.out)")
    }
}

/// `check` against a baseline another client made: paired device by device on the counts
/// `check --update` keeps beside the baseline, where a replay cannot reproduce it.
@Suite struct ClientChangePairingTests {
    typealias S = CheckTestSupport

    static let team = FuzzCorpus.repositoryRoot + "/examples/team-client/pushsim/scenarios/team.yaml"

    @Test func aChangedClientIsPairedPerDeviceOnTheStoredCountsAndItsRegressionFails() throws {
        let folder = try S.temporaryFolder()
        defer { S.remove(folder) }
        let results = folder + "/results"
        let sets = ["--set", "devices=400"]
        let made = PushSim.command(["check", Self.team, "--results", results, "--update"] + sets, client: TeamGapClient(), version: "1.3")
        expectEqual(made.status, 0, "\(made.errors)")
        let stored = results + "/team/" + "device-counts.csv"
        #expect(FileManager.default.fileExists(atPath: stored))
        // The same client: every device's difference is 0, and the check says identical.
        let same = PushSim.command(["check", Self.team, "--results", results] + sets, client: TeamGapClient(), version: "1.3")
        #expect(same.status == 0 && same.output.contains("paired per device"), "\(same.output)")
        // The seeded batching bug: paired, its lost letters fail the gate, the change is named.
        let buggy = PushSim.command(["check", Self.team, "--results", results] + sets,
                                    client: TeamGapClient(forgetsJoinedGaps: true), version: "1.3+bug")
        expectEqual(buggy.status, 1, "\(buggy.output)\(buggy.errors)")
        #expect(buggy.output.contains("paired per device"), "\(buggy.output)")
        #expect(buggy.output.contains("on.lost"), "the lost letters themselves fail, not only their cause: \(buggy.output)")
        #expect(buggy.output.contains("client TeamGapClient 1.3 (protocol 2) → TeamGapClient 1.3+bug (protocol 2)"))
        // Without the stored counts the same check cannot pair, and says why.
        try FileManager.default.removeItem(atPath: stored)
        let unpaired = PushSim.command(["check", Self.team, "--results", results] + sets,
                                       client: TeamGapClient(forgetsJoinedGaps: true), version: "1.3+bug")
        #expect(unpaired.output.contains("independent:"), "\(unpaired.output)")
    }

    @Test func storedCountsThatNoLongerAddUpAreNotUsedAndAMalformedFileIsBadInput() throws {
        let (folder, scenario, baseline) = try S.scenarioWithBaseline(S.scenarioText(name: "stale", devices: 120), name: "stale")
        defer { S.remove(folder) }
        let results = (baseline as NSString).deletingLastPathComponent
        let updated = S.pushsim(["check", scenario, "--results", (results as NSString).deletingLastPathComponent, "--update"])
        expectEqual(updated.status, 0, "\(updated.err)")
        let stored = results + "/device-counts.csv"
        let text = try String(contentsOfFile: stored, encoding: .utf8)
        // One device's letters changed by hand: the counts no longer add up to the summary.
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let row = try #require(lines.firstIndex { $0.hasPrefix("on,") })
        var fields = lines[row].split(separator: ",").map(String.init)
        fields[2] = String((Int(fields[2]) ?? 0) + 1)
        lines[row] = fields.joined(separator: ",")
        try lines.joined(separator: "\n").write(toFile: stored, atomically: true, encoding: .utf8)
        let stale = S.pushsim(["check", scenario, "--results", (results as NSString).deletingLastPathComponent])
        #expect(stale.out.contains("does not add up to it"), "\(stale.out)")
        // A count that is not a number: exit 2, the file, line and column.
        fields[3] = "x"
        lines[row] = fields.joined(separator: ",")
        try lines.joined(separator: "\n").write(toFile: stored, atomically: true, encoding: .utf8)
        let bad = S.pushsim(["check", scenario, "--results", (results as NSString).deletingLastPathComponent])
        expectEqual(bad.status, 2)
        #expect(bad.err.contains("device-counts.csv:\(row + 1):"), "\(bad.err)")
        // A run into the folder replaces the summary and removes the counts made with the old one.
        let rerun = S.pushsim(["run", scenario, "--out", results])
        expectEqual(rerun.status, 0, "\(rerun.err)")
        #expect(!FileManager.default.fileExists(atPath: stored))
    }
}
