// `sweep --segment-charts`: every chart once more per segment, drawn from that segment's figures, and removed again by a later sweep without it.
import Foundation
import Testing
@testable import PushSimExperiment
@testable import PushSimReport
@testable import PushSimCLI
import PushSimTestSupport

@Suite struct SweepSegmentChartsTests {
    static let segmented = SweepFixture.text + """

        segments:
          - {name: subway riders, share: 40%, connectivity: {windows: [{start: 8h, end: 9h, every: 1d}]}}
          - {name: home, share: 60%}

        """

    @Test func everyChartIsDrawnForEachSegmentAndRemovedWithoutTheFlag() throws {
        let input = try TemporaryScenario(Self.segmented)
        defer { input.cleanUp() }
        let out = input.directory.appendingPathComponent("out").path
        let console = Console.capturing()
        let status = PushSimTool.main(["sweep", input.path, "--vary", "queue.repeat_max_count=0,5", "--segment-charts",
                                       "--out", out, "--jobs", "1"], console: console)
        expectEqual(status, 0, "\(console.standardError)")
        let files = Set(try FileManager.default.contentsOfDirectory(atPath: out))
        // A name a file should not hold (the space) becomes `_`; the segment's place comes first.
        for spec in SweepResult.chartSpecs {
            #expect(files.contains("segment1-subway_riders-" + spec.file) && files.contains("segment2-home-" + spec.file), "\(files.sorted())")
        }
        let chart = try String(contentsOfFile: out + "/segment1-subway_riders-loss_rate.svg", encoding: .utf8)
        #expect(chart.contains("Letters lost · segment subway riders"))
        let markdown = try String(contentsOfFile: out + "/sweep.md", encoding: .utf8)
        #expect(markdown.contains("(segment2-home-summarized_rate.svg)"))
        // The segment's chart is drawn from its own figures: its points differ from the whole population's.
        let whole = try String(contentsOfFile: out + "/loss_rate.svg", encoding: .utf8)
        let segmentPoints: [Substring] = chart.components(separatedBy: "<circle").dropFirst().map { $0.prefix(40) }
        let wholePoints: [Substring] = whole.components(separatedBy: "<circle").dropFirst().map { $0.prefix(40) }
        #expect(segmentPoints != wholePoints)
        // A later sweep without the flag replaces the folder's sweep whole: no segment chart is left.
        let again = Console.capturing()
        #expect(PushSimTool.main(["sweep", input.path, "--vary", "queue.repeat_max_count=0,5", "--out", out, "--jobs", "1"],
                                 console: again) == 0, "\(again.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasPrefix("segment") }.isEmpty)
    }

    /// `--segments-together`: each chart once more with a line per segment, removed by a later
    /// sweep without the flag; a grid of two axes is refused before it runs.
    @Test func theSegmentsTogetherAreOneFigurePerChart() throws {
        let input = try TemporaryScenario(Self.segmented)
        defer { input.cleanUp() }
        let out = input.directory.appendingPathComponent("out").path
        let console = Console.capturing()
        #expect(PushSimTool.main(["sweep", input.path, "--vary", "queue.repeat_max_count=0,5", "--segments-together",
                                  "--out", out, "--jobs", "1"], console: console) == 0, "\(console.standardError)")
        let chart = try String(contentsOfFile: out + "/segments-loss_rate.svg", encoding: .utf8)
        let probe = try #require(SVGProbe.parse(chart))
        #expect(probe.series == ["subway riders · no recovery (off arm)", "subway riders · push queue (on arm)",
                                 "home · no recovery (off arm)", "home · push queue (on arm)"])
        #expect(chart.contains("Letters lost, by segment"))
        let again = Console.capturing()
        #expect(PushSimTool.main(["sweep", input.path, "--vary", "queue.repeat_max_count=0,5", "--out", out, "--jobs", "1"],
                                 console: again) == 0, "\(again.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasPrefix("segments-") }.isEmpty)
        let grid = Console.capturing()
        #expect(PushSimTool.main(["sweep", input.path, "--vary", "queue.repeat_max_count=0,5", "--vary", "apns.loss=0,5%",
                                  "--segments-together", "--out", out + "2", "--jobs", "1"], console: grid) == 2)
        #expect(grid.standardError.contains("--segments-together draws a sweep of one axis"))
        #expect(!FileManager.default.fileExists(atPath: out + "2"))
    }
}
