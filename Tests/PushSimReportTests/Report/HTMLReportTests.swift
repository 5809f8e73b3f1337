// report.html: self-contained (no reference outside the page), every number it ties to the JSON
// equal to the document's, the answer in words, how it was made; for a run, a sweep, an optimize
// and a calibration (the committed results' documents), and the same page from the same files.
import Foundation
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
@testable import PushSimExperiment
@testable import PushSimReport
import PushSimTestSupport

@Suite struct HTMLReportTests {
    static func runFiles(_ text: String = "name: t\nduration: 1d\ndevices: 20\n") throws -> [(name: String, contents: String)] {
        let scenario = try ScenarioLoader.parse(text: text, file: "t.yaml", overrides: [])
        return RunSummary.files(Simulator.run(scenario), scenario: scenario)
    }

    static func check(_ html: String, _ json: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        #expect(HTMLPageProbe.externalReferences(html).isEmpty, "\(HTMLPageProbe.externalReferences(html))", sourceLocation: sourceLocation)
        let (compared, wrong) = HTMLPageProbe.mismatches(html, document: try JSONValue.parse(json))
        #expect(compared >= 10, "only \(compared) numbers tied to the JSON", sourceLocation: sourceLocation)
        #expect(wrong.isEmpty, "\(wrong.prefix(5))", sourceLocation: sourceLocation)
        #expect(!html.contains("<script"), sourceLocation: sourceLocation)
    }

    @Test func aRunsPageAnswersInWordsWithTheJSONsNumbers() throws {
        let files = try HTMLReport.$commandLine.withValue("pushsim run t.yaml --out 'a b'") { try Self.runFiles() }
        let html = try #require(files.first { $0.name == HTMLReport.name }?.contents)
        let json = try #require(files.first { $0.name == "summary.json" }?.contents)
        try Self.check(html, json)
        #expect(html.contains("of letters are lost instead of"))
        #expect(html.contains("<code class=\"command\">pushsim run t.yaml --out &#39;a b&#39;</code>") || html.contains("<code class=\"command\">pushsim run t.yaml --out 'a b'</code>"))
        #expect(html.contains(PushSimVersion.commit) && html.contains("data-json=\"pushsim_version\""))
        #expect(html.contains("<svg role=\"img\""), "the load chart inline")
        // Made again from the same files (as `pushsim report` does), it is the same page.
        let again = try #require(try HTMLReport.page(for: files.filter { $0.name != HTMLReport.name },
                                                     command: "pushsim run t.yaml --out 'a b'"))
        expectEqual(again, html)
    }

    @Test func theCheckCatchesAPlantedReferenceAndAWrongNumber() throws {
        let files = try Self.runFiles()
        let html = try #require(files.first { $0.name == HTMLReport.name }?.contents)
        #expect(!HTMLPageProbe.externalReferences(html.replacingOccurrences(of: "</main>", with: "<img src=\"x.png\"></main>")).isEmpty)
        #expect(!HTMLPageProbe.externalReferences(html.replacingOccurrences(of: "</style>", with: "@import 'a.css';</style>")).isEmpty)
        #expect(!HTMLPageProbe.externalReferences(html.replacingOccurrences(of: "</main>", with: "<a href=\"https://x.org\">x</a></main>")).isEmpty)
        let json = try JSONValue.parse(try #require(files.first { $0.name == "summary.json" }?.contents))
        let planted = html.replacingOccurrences(of: "data-json=\"runs.0.letters\" data-scale=\"1.0000000000\" data-digits=\"0\">",
                                                with: "data-json=\"runs.0.letters\" data-scale=\"1.0000000000\" data-digits=\"0\">9")
        #expect(planted != html)
        #expect(!HTMLPageProbe.mismatches(planted, document: json).wrong.isEmpty)
    }

    /// The committed results of a sweep, an optimize and a calibration, and a charted folder.
    @Test(arguments: ["results/designs/sweep", "results/repeat-max-count/nights", "results/repeat-max-count/optimize/field-balanced",
                      "results/field-calibrated/calibration", "results/quickstart"])
    func theCommittedResultsPages(_ folder: String) throws {
        let path = Shell.packageRoot + "/" + folder
        let names = try FileManager.default.contentsOfDirectory(atPath: path).sorted()
        let files = try names.filter { $0.hasSuffix(".json") || $0.hasSuffix(".svg") }.map {
            ($0, try String(contentsOfFile: path + "/" + $0, encoding: .utf8))
        }
        let html = try #require(try HTMLReport.page(for: files, command: nil))
        let document = try #require(files.first { HTMLReport.documents.contains($0.0) })
        try Self.check(html, document.1)
        #expect(html.contains("class=\"answer\""))
        #expect(html.contains("not recorded: this page was made from the folder"))
        #expect(!html.contains("=?"), "a setting not found")
        for chart in names where chart.hasSuffix(".svg") { #expect(html.contains("\(chart) (also a file beside this page)")) }
    }

    /// A sweep's setting whose key holds dots (`queue.repeat_max_count`) is found and shown; a
    /// time's half-width is written in its mean's unit, to two significant digits.
    @Test func dottedSettingsAndIntervalsOfTimeReadAsWritten() throws {
        let json = """
        {"scenario": "s", "replications": 3, "axes": [{"path": "queue.repeat_max_count", "values": [0, 50]}],
         "points": [{"set": {"queue.repeat_max_count": 0}, "runs": [{"queue": "on", "loss_rate": {"mean": 0.002, "ci95": 0.0005},
                      "duplicate_rate": {"mean": 0, "ci95": 0}, "latency_s": {"p99": {"mean": 474, "ci95": 6.987}}}]},
                    {"set": {"queue.repeat_max_count": 50}, "runs": [{"queue": "on", "loss_rate": {"mean": 0.0021, "ci95": 0.0004},
                      "duplicate_rate": {"mean": 0, "ci95": 0}, "latency_s": {"p99": {"mean": 30, "ci95": 0.5}}}]}]}
        """
        let html = try #require(try HTMLReport.page(for: [("sweep.json", json)], command: nil))
        #expect(html.contains("<b>queue.repeat_max_count=0</b>") && html.contains("queue.repeat_max_count=50, with the queue"))
        #expect(!html.contains("=?"))
        // 474 s ± 6.987 s: 7.9 min ± 0.12 min, not ± 6.987 s.
        #expect(html.contains(">7.9 min</span> ± <span") && html.contains(">0.12 min</span>"), "\(html)")
        #expect(html.contains("the two intervals overlap"))
        let (compared, wrong) = HTMLPageProbe.mismatches(html, document: try JSONValue.parse(json))
        #expect(compared >= 10 && wrong.isEmpty, "\(wrong)")
    }

    @Test func simulatedTimeAndNumbersAreWrittenAsTheTablesWriteThem() {
        expectEqual(HTMLText.clock(0), "0s")
        expectEqual(HTMLText.clock(59), "59s")
        expectEqual(HTMLText.clock(86_400), "1d")
        expectEqual(HTMLText.clock(491_940), "5d16h39m")
        expectEqual(HTMLText.clock(3_661), "1h1m1s")
        expectEqual(HTMLText.grouped(559_901), "559,901")
        expectEqual(HTMLText.grouped(-1_000), "-1,000")
        expectEqual(HTMLText.grouped(12), "12")
        expectEqual(HTMLText.fixed(-0.0001, 2), "0.00")
        expectEqual(HTMLText.fixed(9.5604, 2), "9.56")
        expectEqual(HTMLText.escape("<a href=\"x\">&</a>"), "&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;")
    }
}
