// End-to-end tests of `pushsim report DIR` and of the report.html the result commands write:
// the page of a folder is the page its command wrote but for the command line; merged shards
// give the page of one run; bad folders are refused with exit 2 and nothing written.
import Foundation
import Testing
@testable import PushSimCLI
@testable import PushSimReport
import PushSimTestSupport

@Suite struct ReportCommandTests {
    static let scenario = "name: page\nduration: 1d\ndevices: 12\n"

    @Test func aFoldersPageIsTheRunsPageAndTheMergedShardsPage() throws {
        let dir = TemporaryDirectory()
        let file = dir.write("page.yaml", Self.scenario)
        let run = runPushsim(["run", file, "--out", dir.file("run"), "--jobs", "1"])
        expectEqual(run.status, 0, "\(run.err)")
        let written = try String(contentsOfFile: dir.file("run/report.html"), encoding: .utf8)
        #expect(written.contains("<code class=\"command\">pushsim run \(file) --out \(dir.file("run")) --jobs 1</code>"))
        // Shards merged into a folder: the same page as the run's, made by `merge --out` and by `report`.
        var parts: [String] = []
        for k in 0..<2 {
            let part = runPushsim(["run", file, "--shard", "\(k)/2", "--json", "--jobs", "1"])
            expectEqual(part.status, 0, "\(part.err)")
            parts.append(dir.write("part-\(k).json", part.out))
        }
        expectEqual(runPushsim(["merge"] + parts + ["--out", dir.file("merged")]).status, 0)
        for folder in ["run", "merged"] {
            let made = runPushsim(["report", dir.file(folder)])
            expectEqual(made.status, 0, "\(made.err)")
            expectEqual(made.out, dir.file(folder) + "/report.html\n")
        }
        let fromRun = try String(contentsOfFile: dir.file("run/report.html"), encoding: .utf8)
        let fromMerge = try String(contentsOfFile: dir.file("merged/report.html"), encoding: .utf8)
        expectEqual(fromRun, fromMerge)
        #expect(fromRun.contains("not recorded: this page was made from the folder by <code>pushsim report</code>"))
        // But for the command row, the page `run` wrote.
        let commandRow = #"<tr><th scope="row">command</th><td>.*?</td></tr>"#
        #expect(written.replacingOccurrences(of: commandRow, with: "", options: .regularExpression)
                == fromRun.replacingOccurrences(of: commandRow, with: "", options: .regularExpression))
    }

    @Test func badFoldersAreRefusedWithNothingWritten() throws {
        let dir = TemporaryDirectory()
        let missing = runPushsim(["report", dir.file("nowhere")])
        #expect(missing.status == 2 && missing.err.contains("pushsim report: \(dir.file("nowhere")): not a folder"))
        try FileManager.default.createDirectory(atPath: dir.file("empty"), withIntermediateDirectories: true)
        let empty = runPushsim(["report", dir.file("empty")])
        #expect(empty.status == 2 && empty.err.contains("no results here: expected one of summary.json, sweep.json, optimize.json, calibrate.json"))
        try FileManager.default.createDirectory(atPath: dir.file("bad"), withIntermediateDirectories: true)
        dir.write("bad/summary.json", "{\"runs\": [")
        let bad = runPushsim(["report", dir.file("bad")])
        #expect(bad.status == 2 && bad.err.contains("summary.json: not a JSON document PushSim wrote: line 1"))
        try expectEqual(FileManager.default.contentsOfDirectory(atPath: dir.file("bad")), ["summary.json"])
        let two = runPushsim(["report", dir.file("bad"), dir.file("empty")])
        #expect(two.status == 2 && two.err.contains("expected one results folder, got 2"))
        expectEqual(runPushsim(["--version"]).out, PushSimVersion.description)
    }

    /// A sweep's charts: no queue-off series where only the queue can give a value, both arms
    /// where both can, and the repeat_max_count axis in proportion to its values.
    @Test func sweepChartsDrawNoArmWhereTheMetricCannotExist() throws {
        let dir = TemporaryDirectory()
        let file = dir.write("page.yaml", Self.scenario)
        let sweep = runPushsim(["sweep", file, "--vary", "queue.repeat_max_count=0,5,50", "--replications", "2",
                                "--out", dir.file("sweep"), "--jobs", "1"])
        expectEqual(sweep.status, 0, "\(sweep.err)")
        let summarized = try String(contentsOfFile: dir.file("sweep/summarized_rate.svg"), encoding: .utf8)
        let loss = try String(contentsOfFile: dir.file("sweep/loss_rate.svg"), encoding: .utf8)
        #expect(!summarized.contains("data-series=\"no recovery (off arm)\"") && summarized.contains("data-series=\"push queue (on arm)\""))
        #expect(loss.contains("data-series=\"no recovery (off arm)\"") && loss.contains("data-series=\"push queue (on arm)\""))
        // Ticks at 0, 5 and 50: the second a tenth of the way.
        let ticks = loss.components(separatedBy: "<text x=\"").dropFirst().compactMap { part -> (Double, String)? in
            guard let x = Double(part.prefix { $0 != "\"" }), let open = part.firstIndex(of: ">"),
                  let close = part.firstIndex(of: "<") else { return nil }
            return (x, String(part[part.index(after: open)..<close]))
        }.filter { ["0", "5", "50"].contains($0.1) && $0.0 > 100 }
        let x = Dictionary(ticks.map { ($0.1, $0.0) }, uniquingKeysWith: { a, _ in a })
        if let x0 = x["0"], let x5 = x["5"], let x50 = x["50"] {
            #expect(abs((x5 - x0) / (x50 - x0) - 0.1) < 0.01)
        } else { Issue.record("ticks 0, 5 and 50 not found: \(ticks)") }
    }

    /// Several sweep folders drawn together: a line per folder in each chart, written to --out;
    /// a folder that is not a sweep's, or sweeps of other axes, are refused with nothing written.
    @Test func sweepsOfSeveralFoldersShareOneFigure() throws {
        let dir = TemporaryDirectory()
        let small = dir.write("small.yaml", Self.scenario)
        let other = dir.write("other.yaml", "name: other\nduration: 1d\ndevices: 8\n")
        for (file, folder) in [(small, "small"), (other, "other")] {
            let sweep = runPushsim(["sweep", file, "--vary", "queue.repeat_max_count=0,5", "--replications", "2",
                                    "--out", dir.file(folder), "--jobs", "1"])
            expectEqual(sweep.status, 0, "\(sweep.err)")
        }
        let together = runPushsim(["report", dir.file("small"), dir.file("other"), "--out", dir.file("figures")])
        expectEqual(together.status, 0, "\(together.err)")
        #expect(together.out.hasPrefix(dir.file("figures") + "/loss_rate.svg\n"))
        let loss = try String(contentsOfFile: dir.file("figures/loss_rate.svg"), encoding: .utf8)
        #expect(loss.contains("data-series=\"page · push queue (on arm)\"") && loss.contains("data-series=\"other · push queue (on arm)\""))
        // Beside the figures: together.json and the page that shows them, with how each folder was made.
        #expect(together.out.hasSuffix(dir.file("figures") + "/report.html\n"), "\(together.out)")
        let page = try String(contentsOfFile: dir.file("figures/report.html"), encoding: .utf8)
        let json = try String(contentsOfFile: dir.file("figures/together.json"), encoding: .utf8)
        #expect(HTMLPageProbe.externalReferences(page).isEmpty, "\(HTMLPageProbe.externalReferences(page))")
        let (compared, wrong) = HTMLPageProbe.mismatches(page, document: try JSONValue.parse(json))
        #expect(compared >= 40 && wrong.isEmpty, "\(compared) compared; \(wrong.prefix(5))")
        #expect(!page.contains("<script"))
        #expect(page.contains(">page</span>: with the queue, the lowest loss is at <b>") && page.contains(">other</span>: with the queue, the lowest loss is at <b>"))
        #expect(page.contains("letters known only from a summary go from"))
        expectEqual(page.components(separatedBy: "(also a file beside this page)").count - 1, 6, "every figure inline")
        for key in ["sources.0.folder", "sources.1.folder", "sources.0.scenario", "sources.1.pushsim_commit", "sources.0.client",
                    "sources.1.seeds.1", "sources.0.points.1.runs.1.loss_rate.ci95", "pushsim_commit"] {
            #expect(page.contains("data-json=\"\(key)\""), "\(key) not on the page")
        }
        #expect(json.contains("\"folder\": \"\(dir.file("small"))\""))
        #expect(page.contains("<code class=\"command\">pushsim report \(dir.file("small")) \(dir.file("other")) --out \(dir.file("figures"))</code>"))
        // Made again from the folder: the same page but for the command.
        expectEqual(runPushsim(["report", dir.file("figures")]).status, 0)
        let again = try String(contentsOfFile: dir.file("figures/report.html"), encoding: .utf8)
        let commandRow = #"<tr><th scope="row">command</th><td>.*?</td></tr>"#
        #expect(again != page && again.replacingOccurrences(of: commandRow, with: "", options: .regularExpression)
                == page.replacingOccurrences(of: commandRow, with: "", options: .regularExpression))
        // Not a sweep's folder, or another axis: refused, nothing written.
        let refused = runPushsim(["report", dir.file("small"), dir.file("nowhere"), "--out", dir.file("none")])
        #expect(refused.status == 2 && refused.err.contains("no sweep.json here"))
        let sweep = runPushsim(["sweep", small, "--vary", "apns.loss=0,5%", "--out", dir.file("loss"), "--jobs", "1"])
        expectEqual(sweep.status, 0, "\(sweep.err)")
        let axes = runPushsim(["report", dir.file("small"), dir.file("loss"), "--out", dir.file("none")])
        #expect(axes.status == 2 && axes.err.contains("share their axis"), "\(axes.err)")
        #expect(!FileManager.default.fileExists(atPath: dir.file("none")))
        let alone = runPushsim(["report", dir.file("small"), "--out", dir.file("none")])
        #expect(alone.status == 2 && alone.err.contains("give two or more"))
    }
}
