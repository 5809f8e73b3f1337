// `pushsim ab`: two variants on the same worlds — several clients in one program, chosen by name — and `check`'s smallest detectable change.
import ExampleTeamGapClient
import Foundation
import PushSimClient
import PushSimClientRunner
import PushSimTestSupport
import Testing

@Suite struct ABComparisonTests {
    typealias S = CheckTestSupport

    static let team = FuzzCorpus.repositoryRoot + "/examples/team-client/pushsim/scenarios/team.yaml"

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    static func row(_ document: [String: Any], arm: String, metric: String) throws -> [String: Any] {
        let arms = try #require(document["arms"] as? [[String: Any]])
        let metrics = try #require(arms.first { $0["queue"] as? String == arm }?["metrics"] as? [[String: Any]])
        return try #require(metrics.first { $0["metric"] as? String == metric })
    }

    /// The same variant twice: every device does exactly the same, so every metric is identical.
    @Test func theSameVariantTwiceIsIdentical() throws {
        let folder = try S.temporaryFolder()
        defer { S.remove(folder) }
        let scenario = folder + "/ab.yaml"
        try S.write(S.scenarioText(name: "ab", devices: 120), to: scenario)
        let same = S.pushsim(["ab", scenario, "--a", "client=intended", "--b", "client=intended", "--jobs", "2"])
        expectEqual(same.status, 0, "\(same.err)")
        #expect(same.out.contains("identical: B gives exactly A's numbers"), "\(same.out)")
        #expect(same.out.contains("paired per device"), "\(same.out)")
        let nothing = S.pushsim(["ab", scenario])
        #expect(nothing.status == 2 && nothing.err.contains("--b PATH=VALUE"), "\(nothing.err)")
    }

    /// A setting that makes B summarize far more (no re-request at all past a gap of 0) fails
    /// as `check` would, and the report names the change; the paired noise is narrower than
    /// the independent noise of two runs of this size.
    @Test func aWorseSettingFailsAndPairingNarrowsTheNoise() throws {
        let folder = try S.temporaryFolder()
        defer { S.remove(folder) }
        let scenario = folder + "/ab.yaml"
        try S.write(S.scenarioText(name: "ab", devices: 200), to: scenario)
        let worse = S.pushsim(["ab", scenario, "--b", "queue.repeat_max_count=0", "--json", "--jobs", "2"])
        expectEqual(worse.status, 1, "\(worse.out)\(worse.err)")
        let document = try Self.json(worse.out)
        expectEqual(document["outcome"] as? String, "regression")
        #expect((document["worse"] as? [String] ?? []).contains("on.summarized"), "\(document["worse"] ?? "")")
        let changes = try #require(document["scenario_changes"] as? [[String: Any]])
        #expect(changes.contains { $0["key"] as? String == "queue.repeat_max_count" && $0["now"] as? String == "0" })
        let summarized = try Self.row(document, arm: "on", metric: "summarized")
        let pairedNoise = try #require(summarized["noise"] as? Double)
        let textual = S.pushsim(["ab", scenario, "--b", "queue.repeat_max_count=0", "--jobs", "2"])
        #expect(textual.out.contains("WORSE: B is worse than A") && textual.out.contains("queue.repeat_max_count"), "\(textual.out)")
        // Independent noise of the same runs (check without a replay), for comparison: a
        // baseline made at another seed cannot be paired.
        try S.write(S.scenarioText(name: "ab", devices: 200), to: folder + "/base.yaml")
        let made = S.pushsim(["check", folder + "/base.yaml", "--results", folder + "/r", "--update", "--set", "seed=99"])
        expectEqual(made.status, 0, "\(made.err)")
        let independent = S.pushsim(["check", folder + "/base.yaml", "--results", folder + "/r", "--json",
                                     "--set", "queue.repeat_max_count=0"])
        let independentRow = try Self.row(try Self.json(independent.out), arm: "on", metric: "summarized")
        let independentNoise = try #require(independentRow["noise"] as? Double)
        #expect(pairedNoise < independentNoise, "paired \(pairedNoise) against independent \(independentNoise)")
    }

    /// Replications pool the devices of several seeds: twice the letters, and a report that says so.
    @Test func replicationsPoolDevicesAtDerivedSeeds() throws {
        let folder = try S.temporaryFolder()
        defer { S.remove(folder) }
        let scenario = folder + "/ab.yaml"
        try S.write(S.scenarioText(name: "ab", devices: 80), to: scenario)
        let one = try Self.json(S.pushsim(["ab", scenario, "--b", "queue.repeat_max_count=5", "--json"]).out)
        let two = try Self.json(S.pushsim(["ab", scenario, "--b", "queue.repeat_max_count=5", "--json", "--replications", "2"]).out)
        let lettersOne = try #require(try Self.row(one, arm: "on", metric: "letters")["baseline"] as? Int)
        let lettersTwo = try #require(try Self.row(two, arm: "on", metric: "letters")["baseline"] as? Int)
        // The second seed's letters are a Poisson count of the same mean: within 5 σ of it.
        let extra = Double(lettersTwo - lettersOne)
        #expect(abs(extra - Double(lettersOne)) < 5 * Double(lettersOne).squareRoot(), "\(lettersOne) then \(lettersTwo)")
        expectEqual(two["replications"] as? Int, 2)
        let pairing = try #require(two["pairing"] as? [String: Any])
        #expect((pairing["description"] as? String ?? "").contains("over 2 replications"))
    }

    /// A program with two clients: each is chosen by name, the built-in ones too; a sweep
    /// takes the client as an axis; an unknown name is refused where it is written.
    @Test func severalClientsAreChosenByNameInAbAndInASweep() throws {
        let folder = try S.temporaryFolder()
        defer { S.remove(folder) }
        let clients = [NamedClient(TeamGapClient(), name: "team", version: "1.3"),
                       NamedClient(TeamGapClient(summarizeAbove: 1), name: "team-eager", version: "1.4")]
        let sets = ["--set", "devices=300"]
        let ab = PushSim.command(["ab", Self.team, "--a", "client=team", "--b", "client=team-eager", "--json"] + sets, clients: clients)
        expectEqual(ab.status, 1, "summarizing every gap of 2 or more is worse: \(ab.output)\(ab.errors)")
        let document = try Self.json(ab.output)
        #expect((document["client_change"] as? String ?? "").contains("team 1.3 (protocol 2) → team-eager 1.4 (protocol 2)"))
        #expect((document["worse"] as? [String] ?? []).contains("on.summarized"))
        let builtIn = PushSim.command(["ab", Self.team, "--b", "client=intended"] + sets, clients: clients)
        #expect(builtIn.output.contains("A: client team 1.3 (protocol 2)") && builtIn.output.contains("B: client intended (built-in)"),
                "\(builtIn.output)\(builtIn.errors)")
        let unknown = PushSim.command(["run", Self.team, "--no-write", "--set", "client=nobody"] + sets, clients: clients)
        expectEqual(unknown.status, 2)
        #expect(unknown.errors.contains("--set:1:8") && unknown.errors.contains("`team-eager`"), "\(unknown.errors)")
        let twice = PushSim.command(["run", Self.team], clients: [clients[0], clients[0]])
        #expect(twice.status == 2 && twice.errors.contains("two clients are named `team`"))
        let out = folder + "/sweep"
        let sweep = PushSim.command(["sweep", Self.team, "--vary", "client=team,team-eager,intended", "--out", out, "--jobs", "2"] + sets,
                                    clients: clients)
        expectEqual(sweep.status, 0, "\(sweep.errors)")
        let table = try String(contentsOfFile: out + "/sweep.csv", encoding: .utf8)
        for name in ["team", "team-eager", "intended"] { #expect(table.contains(name), "\(table)") }
    }

    /// `check` reports, for every metric it judges, the smallest change it catches four times
    /// in five (tolerance + 0.84 standard errors), and says when a margin is below the noise.
    @Test func checkReportsTheSmallestDetectableChange() throws {
        let (folder, scenario, baseline) = try S.scenarioWithBaseline(S.scenarioText(name: "detect", devices: 150), name: "detect")
        defer { S.remove(folder) }
        let checked = S.pushsim(["check", scenario, "--baseline", baseline, "--json", "--set", "queue.repeat_max_count=4",
                                 "--tolerance", "on.summarized=1"])
        let document = try Self.json(checked.out)
        let row = try Self.row(document, arm: "on", metric: "summarized")
        let tolerance = try #require(row["tolerance"] as? Double), noise = try #require(row["noise"] as? Double)
        let detectable = try #require(row["detectable"] as? Double)
        #expect(abs(detectable - (tolerance + 0.8416 * noise / 4)) < 1e-9 * max(1, detectable))
        expectEqual(row["too_small_for_margin"] as? Bool, (noise > 1), "margin 1 letter against noise \(noise)")
        let text = S.pushsim(["check", scenario, "--baseline", baseline, "--set", "queue.repeat_max_count=4", "--tolerance", "on.summarized=1"])
        #expect(text.out.contains("detects"), "\(text.out)")
        if noise > 1 { #expect(text.out.contains("too small to see a change of the margin: on.summarized"), "\(text.out)") }
    }

    /// `check --update --replications R` keeps the pooled run and every device's counts at
    /// every seed; `check --replications R` pairs a changed client with them, and its noise
    /// relative to the metric shrinks as 1/√R (four replications: about half of one's).
    @Test func checkPoolsReplicationsPairedWithTheBaselinesOwnCounts() throws {
        let folder = try S.temporaryFolder()
        defer { S.remove(folder) }
        let results = folder + "/results"
        let sets = ["--set", "devices=150"]
        let made = PushSim.command(["check", Self.team, "--results", results, "--update", "--replications", "4"] + sets,
                                   client: TeamGapClient(), version: "1.3")
        expectEqual(made.status, 0, "\(made.errors)")
        for name in ["summary.json", "replications.json", "replication-counts.csv"] {
            #expect(FileManager.default.fileExists(atPath: results + "/team/" + name), "\(name)")
        }
        let same = PushSim.command(["check", Self.team, "--results", results, "--replications", "4"] + sets,
                                   client: TeamGapClient(), version: "1.3")
        #expect(same.status == 0 && same.output.contains("identical"), "\(same.output)\(same.errors)")
        #expect(same.output.contains("paired per device over 4 replications"), "\(same.output)")
        let changed = PushSim.command(["check", Self.team, "--results", results, "--replications", "4", "--json"] + sets,
                                      client: TeamGapClient(summarizeAbove: 12), version: "1.4")
        let pooled = try Self.json(changed.output)
        #expect((pooled["client_change"] as? String ?? "").contains("TeamGapClient 1.3 (protocol 2) → TeamGapClient 1.4 (protocol 2)"))
        expectEqual(pooled["replications"] as? Int, 4)
        let single = try Self.json(PushSim.command(["check", Self.team, "--results", results, "--json"] + sets,
                                                   client: TeamGapClient(summarizeAbove: 12), version: "1.4").output)
        func relativeNoise(_ document: [String: Any]) throws -> Double {
            let row = try Self.row(document, arm: "on", metric: "delivered")
            return try #require(row["noise"] as? Double) / max(1, try #require(row["baseline"] as? Double))
        }
        let ratio = try relativeNoise(pooled) / relativeNoise(single)
        #expect(ratio > 0.25 && ratio < 0.8, "pooled over one seed's relative noise: \(ratio), about 1/√4 expected")
        let fewer = PushSim.command(["check", Self.team, "--results", results, "--replications", "2"] + sets, client: TeamGapClient())
        #expect(fewer.status == 2 && fewer.errors.contains("give --replications 4"), "\(fewer.errors)")
    }
}
