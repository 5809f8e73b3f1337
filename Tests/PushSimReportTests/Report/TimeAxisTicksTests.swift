// The time axis of charts over simulated time: round bins, ticks at whole units, and no two texts of a chart overlapping.
import Testing
@testable import PushSimCore
@testable import PushSimReport
import PushSimTestSupport

@Suite struct TimeAxisTicksTests {
    func axis(_ first: Int, _ last: Int) -> TimeAxisTicks {
        TimeAxisTicks(firstMinute: first, lastMinute: last, maxBins: XivaQueueReport.maxBins,
                      axisWidth: SVGChart.Layout.categoryAxisWidth, fontSize: SVGChart.Layout.tickSize)
    }

    @Test func binsAreRoundAndTicksFallOnWholeUnits() {
        // The span the issue showed "per 85 minutes": about 7 days of minutes.
        let week = axis(1800, 1800 + 10_150)
        expectEqual(week.binMinutes, 120)
        #expect(week.bins <= XivaQueueReport.maxBins)
        expectEqual(week.tickMinutes % 1440, 0, "\(week.tickMinutes)")
        expectEqual(week.binDescription, "per 2 hours")
        for (b, label) in week.labels.enumerated() where !label.isEmpty {
            expectEqual((week.firstMinute + b * week.binMinutes) % week.tickMinutes, 0)
            #expect(!label.contains("m"), "\(label)")      // whole days: "2d", never "1d6h11m"
        }
        let minutes = axis(2159, 2161)
        expectEqual(minutes.binMinutes, 1)
        expectEqual(minutes.bins, 3)
        expectEqual(minutes.binDescription, "minute by minute")
        expectEqual(minutes.labels, ["1d11h59m", "1d12h", "1d12h1m"])
        let day = axis(0, 1440)
        expectEqual(day.binMinutes, 15)
        expectEqual(day.tickMinutes % 60, 0)
        expectEqual(axis(0, 59 * 1440).binDescription, "per 12 hours")
        expectEqual(axis(0, 60 * 1440).binDescription, "per day")
        expectEqual(axis(0, 400 * 1440).binMinutes % 1440, 0)
    }

    @Test func everyBinOfTheSeriesLandsInItsOwnBin() {
        let a = axis(1000, 5000)
        expectEqual(a.bin(ofMinute: a.firstMinute), 0)
        expectEqual(a.bin(ofMinute: 5000), a.bins - 1)
        #expect(a.firstMinute % a.binMinutes == 0 && a.firstMinute <= 1000)
    }

    /// Queue series over spans from three minutes to two months.
    static let queueCharts: [String] = [(2160, 2161), (2000, 2100), (1800, 11_950), (0, 2880), (100, 60 * 1440), (0, 400 * 1440)].map {
        let series = XivaQueueSeries(minutes: [$0.0, $0.1], waiting: [791, 3]) ?? XivaQueueSeries()
        return XivaQueueReport.svg(series, scenario: "thundering-herd")
    }

    @Test func noTwoTextsOfAnyChartOverlap() throws {
        let charts = Self.queueCharts + SweepReportTests.result.charts.map(\.svg) + SVGLayoutTests.twoAxisResult.charts.map(\.svg)
        for svg in charts {
            let overlaps = try #require(SVGTextBoxes.overlaps(svg))
            #expect(overlaps.isEmpty, "\(overlaps.prefix(3).map { "\($0.0) × \($0.1)" })")
            #expect((SVGTextBoxes.of(svg)?.count ?? 0) > 5)
        }
    }

    @Test func theProbeSeesAnOverlapWhenThereIsOne() {
        // The old axis: a label every bin of 85 minutes, ten bins wide each, ran into each other.
        let svg = """
        <svg xmlns="http://www.w3.org/2000/svg" font-size="12"><text x="100" y="20" text-anchor="middle">1d6h11m</text>\
        <text x="140" y="20" text-anchor="middle">1d23h12m</text><text x="300" y="20">far</text></svg>
        """
        let overlaps = SVGTextBoxes.overlaps(svg) ?? []
        #expect(overlaps.count == 1 && overlaps.first?.0.text == "1d6h11m")
    }
}
