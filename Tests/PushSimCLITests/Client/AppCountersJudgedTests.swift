// `ab` and `check` judge the main app's work (the `app` object's requests and summaries), paired per device, and read the counts per device an earlier version wrote.
import Foundation
import PushSimClient
import PushSimClientRunner
import PushSimTestSupport
import Testing

@Suite struct AppCountersJudgedTests {
    typealias S = CheckTestSupport

    /// 300 phones for two days, background pushes at most 6 an hour: the same extension as A
    /// (its app does nothing) and as B (its app, woken, asks XIVA for what it missed).
    static func scenario(in folder: String) throws -> String {
        let path = folder + "/app.yaml"
        // The text ends inside `device:`: the throttle joins it.
        try S.write(S.scenarioText(name: "app", devices: 300) + """

              background_sync:
                throttle: 6/h
            queue:
              background_pushes: true
            """, to: path)
        return path
    }

    static let clients = [NamedClient(AppSyncsInBackground(appActs: false), name: "quiet-app", version: "1"),
                          NamedClient(AppSyncsInBackground(), name: "syncing-app", version: "2")]

    static func row(_ document: [String: Any], _ metric: String) throws -> [String: Any] {
        let arms = try #require(document["arms"] as? [[String: Any]])
        let metrics = try #require(arms.first { $0["queue"] as? String == "on" }?["metrics"] as? [[String: Any]])
        return try #require(metrics.first { $0["metric"] as? String == metric }, "no \(metric)")
    }

    /// B's app re-requests where A's does nothing: `ab`, paired per device, calls its requests
    /// (and the re-sent pushes they bring) worse and its delivery better.
    @Test func abJudgesTheAppsRequests() throws {
        let folder = try S.temporaryFolder()
        defer { S.remove(folder) }
        let scenario = try Self.scenario(in: folder)
        let result = PushSim.command(["ab", scenario, "--a", "client=quiet-app", "--b", "client=syncing-app", "--json", "--jobs", "2"],
                                     clients: Self.clients)
        expectEqual(result.status, 1, "\(result.output)\(result.errors)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect((document["worse"] as? [String] ?? []).contains("on.app.re_requests"), "\(document["worse"] ?? "")")
        let requests = try Self.row(document, "app.re_requests")
        expectEqual(requests["baseline"] as? Int, 0)
        #expect((requests["now"] as? Int ?? 0) > 0, "\(requests)")
        expectEqual(requests["verdict"] as? String, "worse", "\(requests)")
        let pairing = try #require(document["pairing"] as? [String: Any])
        expectEqual(pairing["paired"] as? Bool, true, "\(pairing)")
        let summaries = try Self.row(document, "app.summaries")
        expectEqual(summaries["verdict"] as? String, "identical", "\(summaries)")
        let text = PushSim.command(["ab", scenario, "--a", "client=quiet-app", "--b", "client=syncing-app", "--jobs", "2"], clients: Self.clients)
        #expect(text.output.contains("app.re_requests"), "\(text.output)")
    }

    /// `check` against A's baseline: B's requests fail the gate, paired per device on the counts
    /// kept beside the baseline; A itself is identical.
    @Test func checkJudgesTheAppsRequestsPairedPerDevice() throws {
        let folder = try S.temporaryFolder()
        defer { S.remove(folder) }
        let scenario = try Self.scenario(in: folder)
        let results = folder + "/results"
        let made = PushSim.command(["check", scenario, "--results", results, "--update", "--set", "client=quiet-app"], clients: Self.clients)
        expectEqual(made.status, 0, "\(made.errors)")
        let counts = try String(contentsOfFile: results + "/app/device-counts.csv", encoding: .utf8)
        #expect(counts.contains(",app.re_requests,app.summaries,"), "\(counts.prefix(600))")
        let same = PushSim.command(["check", scenario, "--results", results, "--set", "client=quiet-app"], clients: Self.clients)
        expectEqual(same.status, 0, "\(same.output)")
        let changed = PushSim.command(["check", scenario, "--results", results, "--set", "client=syncing-app"], clients: Self.clients)
        expectEqual(changed.status, 1, "\(changed.output)\(changed.errors)")
        #expect(changed.output.contains("paired per device"), "\(changed.output)")
        let verdict = try #require(changed.output.split(separator: "\n").first { $0.contains("REGRESSION") }, "\(changed.output)")
        #expect(verdict.contains("on.app.re_requests"), "\(verdict)")
        #expect(changed.output.split(separator: "\n").contains { $0.contains("app.re_requests") && $0.contains("WORSE") }, "\(changed.output)")
    }

    /// Counts per device written before the app's keys existed (no `app.*` column): read with
    /// those counts 0, so a baseline whose app did nothing still pairs per device; one whose app
    /// counted something cannot pair, and the check says why.
    @Test func countsPerDeviceOfAnEarlierVersionAreStillRead() throws {
        let folder = try S.temporaryFolder()
        defer { S.remove(folder) }
        let scenario = try Self.scenario(in: folder)
        for (client, pairs) in [("quiet-app", true), ("syncing-app", false)] {
            let results = folder + "/results-" + client
            let made = PushSim.command(["check", scenario, "--results", results, "--update", "--set", "client=" + client], clients: Self.clients)
            expectEqual(made.status, 0, "\(made.errors)")
            let path = results + "/app/device-counts.csv"
            try Self.withoutAppColumns(try String(contentsOfFile: path, encoding: .utf8)).write(toFile: path, atomically: true, encoding: .utf8)
            #expect(!(try String(contentsOfFile: path, encoding: .utf8)).contains("app."))
            let again = PushSim.command(["check", scenario, "--results", results, "--set", "client=" + client], clients: Self.clients)
            expectEqual(again.status, 0, "\(again.output)\(again.errors)")
            if pairs {
                #expect(again.output.contains("paired per device"), "\(again.output)")
            } else {
                #expect(again.output.contains("was written before `app.re_requests` was kept per device"), "\(again.output)")
            }
        }
    }

    /// The file with the `app.*` columns taken out, as an earlier version wrote it.
    static func withoutAppColumns(_ text: String) -> String {
        var drop: Set<Int> = []
        var out: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            if fields.first == "keys" {
                drop = Set(fields.indices.filter { fields[$0].hasPrefix("app.") })
            }
            if fields.first == "keys" || fields.first == "on" || fields.first == "off" {
                // A row's values start at its third field; the keys line's at its second.
                let shift = fields.first == "keys" ? 0 : 1
                fields = fields.indices.filter { !drop.contains($0 - shift) || $0 < 1 + shift }.map { fields[$0] }
            }
            out.append(fields.joined(separator: ","))
        }
        return out.joined(separator: "\n")
    }
}
