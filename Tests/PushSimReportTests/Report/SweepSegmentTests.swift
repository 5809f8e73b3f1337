// Per-segment sweep metrics: every metric of each segment under `segments.NAME.`, in the JSON, the CSV and a sweep.md block.
import Testing
@testable import PushSimScenarioFile
@testable import PushSimExperiment
@testable import PushSimReport
@testable import PushSimCore
import PushSimTestSupport

@Suite struct SweepSegmentTests {
    static let text = SweepFixture.text + """

    segments:
      - name: riders
        share: 50%
        connectivity:
          windows:
            - {start: 8h, end: 9h, every: 1d}
      - name: homebodies
        share: 50%
    """

    @Test func everyMetricPerSegmentMatchesThatSegmentsOwnRun() throws {
        let plan = try SweepPlan(axes: [SweepAxis(path: "queue.repeat_max_count", values: ["1", "10"])], replications: 2) {
            try ScenarioLoader.parse(text: Self.text, file: "segments.yaml", overrides: $0)
        }
        let result = SweepRunner.run(plan)
        expectEqual(result.segments, ["riders", "homebodies"])
        // Replication 0 of point 0 is a plain run at repeat_max_count=1: its segments' JSON numbers.
        let plain = Simulator.run(try ScenarioLoader.parse(text: Self.text, file: "s", overrides: ["queue.repeat_max_count=1"]))
        let on = try #require(result.points[0].replications[0].arms.last)
        for segment in plain.segments {
            let own = try #require(segment.arms.last)
            let expected = ArmMetrics(own, offArm: segment.arms.first)
            for (name, value) in expected.values {
                #expect(on.values["segments.\(segment.name).\(name)"] == value, "\(segment.name) \(name)")
            }
            #expect(segment.arms.last?.ledger.letters ?? 0 > 0)
        }
        // The totals are unchanged by the segments' metrics.
        expectEqual(on.values["loss_rate"], plain.arms.last?.ledger.lossRate)
        let md = result.markdown
        #expect(md.contains("\n## Segment `riders`\n") && md.contains("\n## Segment `homebodies`\n"))
        #expect(md.contains("\n### Compared with `queue.repeat_max_count=10`, seed by seed\n"))
        #expect(result.metricNames.contains("segments.riders.summarized_rate"))
        #expect(result.json.text.contains("\"segments\":{\"homebodies\":{"))
    }
}
