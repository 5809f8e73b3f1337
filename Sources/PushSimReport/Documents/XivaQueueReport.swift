// xiva-queue.csv and xiva-queue.svg: the length of XIVA's re-request queue over the run, minute by minute.
import PushSimCore

/// The files a run with a finite XIVA capacity writes beside its summary (docs/model.md §6):
/// the queue arm's most re-requests waiting in one partition, each minute that had any.
package enum XivaQueueReport {
    package static let csvName = "xiva-queue.csv"
    package static let svgName = "xiva-queue.svg"

    /// `minute,waiting`, one row per minute with any waiting, minutes counted from time 0.
    package static func csv(_ series: XivaQueueSeries) -> String {
        var text = "minute,waiting\n"
        for (minute, waiting) in zip(series.minutes, series.waiting) { text += "\(minute),\(waiting)\n" }
        return text
    }

    /// The most bins the chart draws: longer spans are binned, each bin its largest minute.
    static let maxBins = 120

    /// A line over the span from a minute before the first that had any to a minute after the
    /// last, in bins of a round duration (the largest count of each; 0 where none waited), its
    /// time axis labelled at whole minutes, hours or days that never overlap (``TimeAxisTicks``).
    package static func svg(_ series: XivaQueueSeries, scenario: String) -> String {
        let axis = TimeAxisTicks(firstMinute: max(0, (series.minutes.first ?? 0) - 1), lastMinute: (series.minutes.last ?? 0) + 1,
                                 maxBins: maxBins, axisWidth: SVGChart.Layout.categoryAxisWidth, fontSize: SVGChart.Layout.tickSize)
        var values = Array(repeating: 0.0, count: axis.bins)
        for (minute, waiting) in zip(series.minutes, series.waiting) {
            let b = axis.bin(ofMinute: minute)
            values[b] = max(values[b], Double(waiting))
        }
        let categories = axis.labels
        var chart = SVGChart(
            title: "\(scenario): XIVA re-requests waiting",
            subtitle: "the most waiting at once in any one partition, "
                + axis.binDescription + " (queue arm)",
            xLabel: "time since the start of the run", yLabel: "re-requests waiting",
            categories: categories,
            series: [SVGChart.Series(name: "waiting", values: values.map { $0 }, low: values.map { _ in nil },
                                     high: values.map { _ in nil })],
            percent: false)
        chart.note = "one run: no band"
        // A count over time, 0 most of the time: linear, so a burst reads as its size.
        chart.yAxis = .linear
        return chart.svg
    }
}
