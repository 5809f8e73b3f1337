// A time axis people can read: bins of a round duration, ticks at whole minutes, hours or days, labels that never overlap.
import PushSimCore

/// How a chart of a per-minute series over simulated time bins and labels its x axis: the bin
/// width is the smallest round duration (1, 2, 5, 10, 15, 20, 30 minutes; 1, 2, 3, 6, 12 hours;
/// 1, 2, 5, 10… days) that keeps at most `maxBins` bins; bins start at multiples of it counted
/// from time 0; ticks are labelled at multiples of the smallest round step (a multiple of the
/// bin) whose labels, estimated at 0.6 em a character (``SVGText/estimatedWidth(_:fontSize:bold:)``),
/// stand at least `gap` pixels apart. Any chart with a time axis of minutes can use it.
package struct TimeAxisTicks: Equatable, Sendable {
    /// Minutes a bin spans.
    package let binMinutes: Int
    /// The first bin's first minute: a multiple of `binMinutes`.
    package let firstMinute: Int
    package let bins: Int
    /// Minutes between labelled ticks: a multiple of `binMinutes`.
    package let tickMinutes: Int

    /// The round bin widths, in minutes, before whole multiples of days.
    static let binLadder = [1, 2, 5, 10, 15, 20, 30, 60, 120, 180, 360, 720, 1440]
    /// The round tick steps, in minutes, before whole multiples of days.
    static let tickLadder = [1, 2, 5, 10, 15, 30, 60, 120, 180, 360, 720, 1440]
    /// Multiples of a day past the ladders.
    static let dayMultiples = [2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000]
    /// The least space between two labels, in pixels.
    package static let gap = 10.0

    /// The axis of minutes `firstMinute...lastMinute` drawn `axisWidth` pixels wide (from the
    /// first bin's tick to the last's) with labels of `fontSize`.
    package init(firstMinute: Int, lastMinute: Int, maxBins: Int, axisWidth: Double, fontSize: Double) {
        let low = max(0, min(firstMinute, lastMinute)), high = max(firstMinute, lastMinute, 0)
        let needed = max(1, (high - low + 1 + max(1, maxBins) - 1) / max(1, maxBins))
        let roundWidths = Self.binLadder + Self.dayMultiples.map { $0 * 1440 }
        // Past the ladder (more than 10 000 days a bin) the width needed itself.
        let width = roundWidths.first { $0 >= needed } ?? needed
        binMinutes = width
        self.firstMinute = (low / width) * width
        bins = max(1, (high - self.firstMinute) / width + 1)
        let perBin = bins > 1 ? axisWidth / Double(bins - 1) : axisWidth
        let candidates = (Self.tickLadder + Self.dayMultiples.map { $0 * 1440 }).filter { $0 % width == 0 }
            + [2, 5, 10, 20, 50, 100, 200, 500, 1000].map { $0 * width }
        let first = self.firstMinute, count = bins
        func fits(_ step: Int) -> Bool {
            var widest = 0.0
            for bin in 0..<count where (first + bin * width) % step == 0 {
                let labelWidth: Double = SVGText.estimatedWidth(Self.label(minute: first + bin * width), fontSize: fontSize)
                widest = max(widest, labelWidth)
            }
            return Double(step / width) * perBin >= widest + Self.gap
        }
        tickMinutes = candidates.first(where: fits) ?? width * max(1, count)
    }

    /// The bin of a minute at or after `firstMinute`.
    package func bin(ofMinute minute: Int) -> Int { min(bins - 1, max(0, (minute - firstMinute) / binMinutes)) }

    /// The label of each bin: the time of its start at a tick, "" elsewhere. When no tick falls
    /// inside the axis, the first bin is labelled, so the axis always says where it is.
    package var labels: [String] {
        var out = (0..<bins).map { b -> String in
            let minute = firstMinute + b * binMinutes
            return minute % tickMinutes == 0 ? Self.label(minute: minute) : ""
        }
        if out.allSatisfy(\.isEmpty), !out.isEmpty { out[0] = Self.label(minute: firstMinute) }
        return out
    }

    /// A time since the start of the run in whole units (`1d12h`, `45m`, `0`).
    package static func label(minute: Int) -> String {
        SimTime(microseconds: Int64(minute) * SimTime.minute).description
    }

    /// The bin width in words: "minute by minute", "per 10 minutes", "per hour", "per 2 days".
    package var binDescription: String {
        if binMinutes == 1 { return "minute by minute" }
        func per(_ n: Int, _ unit: String) -> String { n == 1 ? "per \(unit)" : "per \(n) \(unit)s" }
        if binMinutes % 1440 == 0 { return per(binMinutes / 1440, "day") }
        if binMinutes % 60 == 0 { return per(binMinutes / 60, "hour") }
        return per(binMinutes, "minute")
    }
}
