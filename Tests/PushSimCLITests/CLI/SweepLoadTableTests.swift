// sweep.md's (and optimize.md's) load section and the load charts of a sweep run with --fleet or --load-bin: the figures of sweep.json, n/a with the reason, nothing without the options.
import Foundation
import Testing
@testable import PushSimCLI
import PushSimTestSupport

private let herd = SmallScenarios.path("thundering-herd")
private let small = ["--set", "devices=300", "--set", "xiva.partitions=1", "--set", "duration=1d14h", "--jobs", "1"]

@Suite struct SweepLoadTableTests {
    /// The section's rows: one per point and arm in each table (per 1 000 phones, then the
    /// fleet), each with six figures, as sweep.json says them; the charts written and readable.
    @Test func theLoadSectionAndChartsCarryEveryPointAndArm() throws {
        let dir = TemporaryDirectory()
        let sweep = runPushsim(["sweep", herd, "--only-vary", "--vary", "xiva.capacity=14/s,28/s", "--load-bin", "1s", "--fleet", "1M",
                                "--out", dir.file("s")] + small)
        expectEqual(sweep.status, 0, "\(sweep.err)")
        let md = try String(contentsOfFile: dir.file("s/sweep.md"), encoding: .utf8)
        let section = try #require(md.components(separatedBy: "## Load on XIVA and APNs").dropFirst().first)
        let body = section.components(separatedBy: "\n## ").first ?? section
        #expect(body.contains("Per 1 000 phones, a second:") && body.contains("At the fleet (`--fleet`), a second:"))
        let rows = body.split(separator: "\n").filter { $0.hasPrefix("| 14/s |") || $0.hasPrefix("| 28/s |") }
        // The herd runs its queue arm only.
        expectEqual(rows.count, 2 * 2, "two points × two tables: \(rows)")
        for row in rows { expectEqual(row.split(separator: "|").count, 2 + 6, "\(row)") }
        #expect(!body.contains("n/a ["), "1 s bins give every figure")
        // The busiest second of the queue arm's re-requests per 1 000 phones, as sweep.json says it.
        let root = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir.file("s/sweep.json")))) as? [String: Any]
        let arm = ((root?["points"] as? [[String: Any]])?.first?["runs"] as? [[String: Any]])?.last
        let peak = ((((arm?["load"] as? [String: Any])?["re_requests"] as? [String: Any])?["per_1000"] as? [String: Any])?["peak_per_s_1s"]
            as? [String: Any])?["mean"] as? Double
        let onRow = try #require(rows.first { $0.hasPrefix("| 14/s | on |") })
        let cells = onRow.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        let shown = try #require(cells[3].split(separator: " ").first.flatMap { Double($0) }, "\(cells[3])")
        #expect(abs(shown - (try #require(peak))) <= 0.0051 * max(1, shown), "\(cells[3]) against \(peak ?? 0)")
        for name in ["load_re_requests.svg", "load_pushes_sent.svg"] {
            let svg = try String(contentsOfFile: dir.file("s/\(name)"), encoding: .utf8)
            expectEqual(SVGTextBoxes.overlaps(svg)?.isEmpty, true, "\(name): \(SVGTextBoxes.overlaps(svg) ?? [])")
            #expect(md.contains("](\(name))"))
            #expect(svg.contains("· busiest second") && svg.contains("· busiest minute (its count / 60)") && svg.contains("· mean"))
        }
    }

    /// Binned by the minute (`--fleet` alone) the busiest second is n/a with its reason, in the
    /// table and under the charts' title; a sweep with neither option has no section, no chart.
    @Test func aFigureTheBinsCannotGiveIsNamedAndAPlainSweepHasNone() throws {
        let dir = TemporaryDirectory()
        let sweep = runPushsim(["sweep", herd, "--only-vary", "--vary", "xiva.capacity=14/s", "--fleet", "1M", "--out", dir.file("s")] + small)
        expectEqual(sweep.status, 0, "\(sweep.err)")
        let md = try String(contentsOfFile: dir.file("s/sweep.md"), encoding: .utf8)
        #expect(md.contains("## Load on XIVA and APNs") && md.contains("n/a [1]") && md.contains("give --load-bin 1s for the busiest second"))
        let svg = try String(contentsOfFile: dir.file("s/load_pushes_sent.svg"), encoding: .utf8)
        #expect(svg.contains("n/a (busiest second): the run is binned by the minute") && !svg.contains("· busiest second<"))
        let plain = runPushsim(["sweep", herd, "--only-vary", "--vary", "xiva.capacity=14/s", "--out", dir.file("p")] + small)
        expectEqual(plain.status, 0, "\(plain.err)")
        let plainMd = try String(contentsOfFile: dir.file("p/sweep.md"), encoding: .utf8)
        #expect(!plainMd.contains("## Load on XIVA and APNs"))
        #expect(!FileManager.default.fileExists(atPath: dir.file("p/load_re_requests.svg")))
        // A later plain sweep into the first folder removes its load charts.
        let again = runPushsim(["sweep", herd, "--only-vary", "--vary", "xiva.capacity=14/s", "--out", dir.file("s")] + small)
        expectEqual(again.status, 0, "\(again.err)")
        #expect(!FileManager.default.fileExists(atPath: dir.file("s/load_pushes_sent.svg")))
    }

    /// optimize.md carries the same section, a row per candidate (its queue arm), each with six
    /// figures, and the busiest second of its re-requests as optimize.json says it.
    @Test func optimizeShowsEachCandidatesLoad() throws {
        let dir = TemporaryDirectory()
        let optimize = runPushsim(["optimize", herd, "--over", "xiva.capacity=14/s,28/s", "--first-stage", "2", "--max-replications", "2",
                                   "--indifference", "0.5%", "--load-bin", "1s", "--fleet", "1M", "--out", dir.file("o")] + small)
        expectEqual(optimize.status, 0, "\(optimize.err)")
        let md = try String(contentsOfFile: dir.file("o/optimize.md"), encoding: .utf8)
        let section = try #require(md.components(separatedBy: "## Load on XIVA and APNs").dropFirst().first)
        let body = section.components(separatedBy: "\n## ").first ?? section
        #expect(body.contains("Per 1 000 phones, a second:") && body.contains("At the fleet (`--fleet`), a second:"))
        let rows = body.split(separator: "\n").filter { $0.hasPrefix("| `xiva.capacity=") }
        expectEqual(rows.count, 2 * 2, "two candidates × two tables: \(rows)")
        for row in rows { expectEqual(row.split(separator: "|").count, 1 + 6, "\(row)") }
        let json = try String(contentsOfFile: dir.file("o/optimize.json"), encoding: .utf8)
        #expect(json.contains("peak_per_s_1s"), "optimize.json carries the load the table shows")
        let plain = runPushsim(["optimize", herd, "--over", "xiva.capacity=14/s,28/s", "--first-stage", "2", "--max-replications", "2",
                                "--indifference", "0.5%", "--out", dir.file("p")] + small)
        expectEqual(plain.status, 0, "\(plain.err)")
        #expect(!(try String(contentsOfFile: dir.file("p/optimize.md"), encoding: .utf8)).contains("## Load on XIVA and APNs"))
    }
}
