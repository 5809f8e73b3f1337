// The designs compared on one footing: `sweep --vary recovery=…` reports every design's letters shown twice and costs, in sweep.md, sweep.csv and sweep.json, with n/a and its reason where a design cannot have a figure.
import Foundation
import Testing
@testable import PushSimCLI
import PushSimTestSupport

@Suite struct DesignComparisonTests {
    @Test func aSweepOfTheDesignsShowsBackgroundSyncsHarmsAndCosts() throws {
        let dir = TemporaryDirectory()
        let out = dir.file("out")
        let run = runPushsim(["sweep", Shell.packageRoot + "/scenarios/designs.yaml", "--set", "devices=40",
                              "--vary", "recovery=queue,catch_up,background_sync", "--replications", "2", "--jobs", "1", "--out", out])
        expectEqual(run.status, 0, "\(run.err)")
        let markdown = try String(contentsOfFile: out + "/sweep.md", encoding: .utf8)
        #expect(markdown.contains("## Harms and costs, every design on the same footing"))
        let syncRow = try #require(markdown.split(separator: "\n").first { $0.hasPrefix("| background_sync | on |") && $0.contains("n/a [") })
        #expect(syncRow.contains(" % |") && !syncRow.contains("| — |"), "\(syncRow)")
        #expect(markdown.contains("sends XIVA no re-request"))

        // sweep.csv: every run row of background sync's queue arm: its letters shown twice are its
        // duplicates plus its syncs followed by the push, both over its letters; n/a for XIVA requests.
        let rows = try String(contentsOfFile: out + "/sweep.csv", encoding: .utf8).split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let header = rows[0]
        func column(_ name: String) throws -> Int { try #require(header.firstIndex(of: name), "\(name)") }
        let kind = try column("kind"), design = try column("recovery"), queue = try column("queue")
        let letters = try column("letters"), duplicates = try column("duplicates"), synced = try column("background_sync.shown_twice")
        let shownTwice = try column("harms_and_costs.shown_twice_rate"), requests = try column("harms_and_costs.xiva_requests_per_letter")
        let silent = try column("harms_and_costs.silent_pushes_per_letter"), fetches = try column("harms_and_costs.fetches_per_letter")
        let syncRuns = rows.filter { $0[kind] == "run" && $0[design] == "background_sync" && $0[queue] == "on" }
        expectEqual(syncRuns.count, 2)
        for row in syncRuns {
            let n = try #require(Double(row[letters]))
            let expected = (try #require(Double(row[duplicates])) + (try #require(Double(row[synced])))) / n
            #expect(abs((Double(row[shownTwice]) ?? -1) - expected) < 1e-12, "\(row[shownTwice]) against \(expected)")
            #expect(expected > 0.05)
            #expect(row[requests] == "n/a" && Double(row[silent]) == 1 && (Double(row[fetches]) ?? 0) > 0)
        }
        // The queue's own: re-requests, no silent push, no fetch.
        let queueRun = try #require(rows.first { $0[kind] == "run" && $0[design] == "queue" && $0[queue] == "on" })
        #expect(Double(queueRun[requests]) != nil && queueRun[silent] == "n/a" && queueRun[fetches] == "n/a")

        // sweep.json: the reason where the number would be.
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/sweep.json"))) as? [String: Any])
        let points = try #require(json["points"] as? [[String: Any]])
        let syncArm = try #require((points[2]["runs"] as? [[String: Any]])?.last)
        let set = try #require(syncArm["harms_and_costs"] as? [String: Any])
        let na = try #require(set["xiva_requests_per_letter"] as? [String: Any])
        #expect(na["mean"] is NSNull && (na["not_applicable"] as? String)?.isEmpty == false)
        #expect(((set["shown_twice_rate"] as? [String: Any])?["mean"] as? Double ?? 0) > 0.05)
    }

    /// `run` shows the same figures: in its terminal output and in summary.json.
    @Test func aRunShowsTheSameSet() throws {
        let dir = TemporaryDirectory()
        let out = dir.file("out")
        let run = runPushsim(["run", Shell.packageRoot + "/scenarios/designs.yaml", "--set", "devices=20", "--set", "recovery=background_sync",
                              "--jobs", "1", "--out", out, "--long"])
        expectEqual(run.status, 0, "\(run.err)")
        // The terminal shows them with the long table (the default fits one screen).
        #expect(run.out.contains("## Harms and costs") && run.out.contains("| on | background sync |"))
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/summary.json"))) as? [String: Any])
        let arms = try #require(summary["harms_and_costs"] as? [[String: Any]])
        let on = try #require(arms.first { $0["queue"] as? String == "on" })
        expectEqual(on["design"] as? String, "background_sync")
        #expect((on["shown_twice_rate"] as? Double ?? 0) > 0 && on["xiva_requests_per_letter"] == nil)
        expectEqual(((on["not_applicable"] as? [String: String])?["xiva_requests_per_letter"])?.isEmpty, false)
    }
}
