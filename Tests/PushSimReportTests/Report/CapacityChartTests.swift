// capacity.svg: each seed's least capacity with the bracket its search closed, the seeds' mean with its interval, the target named; or, out of reach, each seed's ceiling against the target.
import Foundation
import Testing
@testable import PushSimCore
@testable import PushSimExperiment
@testable import PushSimReport
import PushSimTestSupport

@Suite struct CapacityChartTests {
    /// A search on a closed form: seed r reaches 99.5 % from `thresholds[r]` per 1 000 a second
    /// up, and 90 % below; with no limit 99.5 %.
    static func answer(target: Double, thresholds: [Double] = [20, 24, 28]) throws -> CapacityAnswer {
        let settings = CapacitySearchSettings(target: target, replications: thresholds.count, start: 10, resolution: 0.01)
        return try CapacitySearch.run(settings, seeds: thresholds.indices.map { UInt64.max - UInt64($0) }) { capacity, r in
            CapacityObservation(share: capacity >= thresholds[r] ? 0.995 : 0.9, timeoutsPerReRequest: 0, errorsPerReRequest: 0,
                                requestErrorsPerReRequest: 0.005, reRequests: 1000)
        }
    }

    static func report(_ answer: CapacityAnswer) -> CapacityReport {
        CapacityReport(scenario: "herd", answer: answer, simulatedPartition: 1000, partitions: 10, partition: 100_000, fleet: 8_000_000)
    }

    /// A point per seed, higher for a seed that needs more; a bar per seed (its bracket) and one
    /// for the mean; the mean's interval shaded; the target in the title; nothing overlapping.
    @Test func eachSeedsAnswerWithItsBracketAndTheMeansInterval() throws {
        let answer = try Self.answer(target: 0.99)
        let reached = answer.seeds.compactMap(\.reached)
        try #require(reached.count == 3)
        for (r, t) in [20.0, 24, 28].enumerated() { #expect(reached[r] >= t && reached[r] <= t * 1.011, "seed \(r): \(reached[r])") }
        let report = Self.report(answer)
        let svg = report.chart.svg
        let seeds = ChartTruthTests.pointYs(svg, series: SVGText.escape("a seed's least capacity reaching 99 %"))
        expectEqual(seeds.count, 3)
        expectEqual(seeds, seeds.sorted(by: >), "screen y falls as the capacity rises: \(seeds)")
        expectEqual(ChartTruthTests.pointYs(svg, series: SVGText.escape("the seeds' mean")).count, 1)
        expectEqual(svg.components(separatedBy: "class=\"interval\"").count - 1, 4, "a bracket per seed and the mean's interval")
        #expect(svg.contains("class=\"zone\"") && svg.contains("95 % interval of the mean"))
        #expect(svg.contains("keeping 99 % of re-requests answered in time"))
        #expect(svg.contains("the fleet of 8,000,000 phones"))
        expectEqual(SVGTextBoxes.overlaps(svg)?.isEmpty, true, "\(SVGTextBoxes.overlaps(svg) ?? [])")
        #expect(CapacityReport.files.contains(CapacityReport.svgName))
        // Seeds of twenty digits are named by their place on the axis, and in full under it.
        #expect(svg.contains(">#3</text>") && svg.contains("#1 = \(UInt64.max)"))
    }

    /// Out of reach (99.9 % against a ceiling of 99.5 %): each seed's share with no limit,
    /// against the target shaded, and what caps it under the title.
    @Test func outOfReachDrawsTheCeilingAgainstTheTarget() throws {
        let answer = try Self.answer(target: 0.999)
        #expect(answer.perThousand == nil)
        let svg = Self.report(answer).chart.svg
        #expect(svg.contains("No XIVA capacity keeps 99.90 %"))
        expectEqual(ChartTruthTests.pointYs(svg, series: "share answered in time with no limit").count, 4)
        #expect(svg.contains("the target, 99.90 % or more") && svg.contains("capped by error answers"))
        expectEqual(SVGTextBoxes.overlaps(svg)?.isEmpty, true, "\(SVGTextBoxes.overlaps(svg) ?? [])")
    }
}
