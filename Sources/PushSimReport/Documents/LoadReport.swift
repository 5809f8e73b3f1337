// The load series of a run (docs/model.md §14): its summary in the JSON and the table, load.csv, load.svg.
import Foundation
import PushSimCore
import PushSimExperiment

/// One quantity's per-bin values summarized: the mean, p99 and p99.9 over the complete bins of
/// the measured window [warm-up, duration), and the peak bin over the whole run (drain included).
package struct LoadStatistics: Equatable, Sendable {
    package var total: Int
    package var mean: Double
    package var p99: Int
    package var p999: Int
    package var peak: Int
    /// The first bin holding the peak.
    package var peakBin: Int

    package init(_ series: LoadSeries, _ q: LoadQuantity, frame: LoadFrame) {
        let window = frame.measuredBins
        // The window's values as a histogram of counts (a bin's count is small): the nearest-rank
        // percentiles from its running sum, without sorting the bins. One pass over the stored
        // bins, read in place (bins past the stored ones hold 0).
        var histogram: [Int] = [0]
        var sum = 0, total = 0, peak = 0, peakBin = 0
        let stride = LoadSeries.quantityCount, bins = series.bins
        series.counts.withUnsafeBufferPointer { counts in
            for b in 0..<bins {
                let v = counts[b &* stride &+ q.rawValue]
                total &+= v
                if v > peak { peak = v; peakBin = b }
                guard v > 0, window.contains(b) else { continue }
                if v >= histogram.count { histogram.append(contentsOf: repeatElement(0, count: v - histogram.count + 1)) }
                histogram[v] += 1
                sum &+= v
            }
        }
        // The window's zeros, stored or not, are what the histogram has not counted.
        histogram[0] = window.count - min(window.count, histogram.reduce(0, +))
        mean = window.isEmpty ? 0 : Double(sum) / Double(window.count)
        p99 = LoadStatistics.nearestRank(histogram, of: window.count, 0.99)
        p999 = LoadStatistics.nearestRank(histogram, of: window.count, 0.999)
        self.total = total; self.peak = peak; self.peakBin = peakBin
    }

    /// The nearest-rank p-quantile of `n` values given as a histogram (`histogram[v]` values
    /// equal to v); 0 for none.
    static func nearestRank(_ histogram: [Int], of n: Int, _ p: Double) -> Int {
        guard n > 0 else { return 0 }
        let rank = min(max(Int((p * Double(n)).rounded(.up)), 1), n)
        var seen = 0
        for (v, count) in histogram.enumerated() {
            seen += count
            if seen >= rank { return v }
        }
        return histogram.count - 1
    }
}

package enum LoadReport {
    package static let csvName = "load.csv"
    package static let svgName = "load.svg"

    /// What the scaled figures assume, said wherever they are shown.
    package static let assumption = "load adds over independent devices, so per-1 000 and fleet figures scale this run's "
        + "counts linearly: exact for the mean; a p99 or peak from fewer devices overstates the fleet's where chance makes it "
        + "(its spread grows as the square root of the devices) and holds where a shared cause does (a time of day, an outage); "
        + "not so inside a shared partition (a finite xiva.capacity), where devices wait for each other"

    /// The arm's `load` object: the bin, the window, and per quantity its statistics, per 1 000
    /// devices, and (with `fleet`) scaled to that many devices, peak also per second.
    package static func json(_ arm: ArmResult, frame: LoadFrame, devices: Int, fleet: Int?) -> JSONValue {
        let binSeconds = Double(frame.bin) / Double(SimTime.second)
        var object: [String: JSONValue] = [
            "bin_s": .double(binSeconds),
            "window_s": .array([.double(Double(frame.warmup) / 1e6), .double(Double(frame.duration) / 1e6)]),
            "devices": .int(devices),
            "assumption": .string(assumption),
        ]
        if let fleet { object["fleet_devices"] = .int(fleet) }
        for q in LoadQuantity.allCases {
            let s = LoadStatistics(arm.ledger.load, q, frame: frame)
            func scaled(_ factor: Double) -> [String: JSONValue] {
                ["mean": .double(s.mean * factor), "p99": .double(Double(s.p99) * factor),
                 "p999": .double(Double(s.p999) * factor), "peak": .double(Double(s.peak) * factor)]
            }
            var entry: [String: JSONValue] = [
                "total": .int(s.total), "mean": .double(s.mean), "p99": .int(s.p99), "p999": .int(s.p999),
                "peak": .int(s.peak), "peak_at_s": .double(Double(Int64(s.peakBin) * frame.bin) / 1e6),
            ]
            if devices > 0 {
                entry["per_1000_devices"] = .object(scaled(1000 / Double(devices)))
                if let fleet {
                    var atFleet = scaled(Double(fleet) / Double(devices))
                    atFleet["peak_per_s"] = .double(Double(s.peak) * Double(fleet) / Double(devices) / binSeconds)
                    atFleet["mean_per_s"] = .double(s.mean * Double(fleet) / Double(devices) / binSeconds)
                    entry["fleet"] = .object(atFleet)
                }
            }
            object[q.key] = .object(entry)
        }
        return .object(object)
    }

    /// The table's load block: per quantity the statistics, then per 1 000 devices and at the fleet.
    static func rows(_ arms: [ArmResult], frame: LoadFrame, devices: Int, fleet: Int?) -> [[String]] {
        let bin = SimTime(microseconds: frame.bin)
        var rows: [[String]] = [["load per \(bin) of simulated time: mean · p99 · p99.9 · peak (at)"]]
        for q in LoadQuantity.allCases {
            let stats = arms.map { LoadStatistics($0.ledger.load, q, frame: frame) }
            guard stats.contains(where: { $0.total > 0 }) else { continue }
            rows.append(["  " + q.label] + stats.map { s in
                String(format: "%.2f · %d · %d · %d", s.mean, s.p99, s.p999, s.peak)
                    + (s.peak > 0 ? " (\(SimTime(microseconds: Int64(s.peakBin) * frame.bin)))" : "")
            })
            if devices > 0 {
                let per = 1000 / Double(devices)
                rows.append(["    per 1 000 devices"] + stats.map { s in
                    [s.mean * per, Double(s.p99) * per, Double(s.p999) * per, Double(s.peak) * per].map(figure).joined(separator: " · ")
                })
                if let fleet {
                    let f = Double(fleet) / Double(devices) / (Double(frame.bin) / Double(SimTime.second))
                    rows.append(["    at \(ReportTable.grouped(fleet)) devices, per second"] + stats.map { s in
                        [s.mean * f, Double(s.p99) * f, Double(s.p999) * f, Double(s.peak) * f].map(figure).joined(separator: " · ")
                    })
                }
            }
        }
        rows.append(["  (\(assumption))"])
        return rows
    }

    /// A scaled figure, about three significant digits, never in exponent form.
    static func figure(_ x: Double) -> String {
        if x == 0 { return "0" }
        if x >= 1000 { return ReportTable.grouped(Int(x.rounded())) }
        if x >= 100 { return String(format: "%.0f", x) }
        if x >= 10 { return String(format: "%.1f", x) }
        if x >= 1 { return String(format: "%.2f", x) }
        return String(format: "%.3f", x)
    }

    /// `bin,start_s,off_letters_in,…,on_summaries`: one row per bin of the run, zeros included,
    /// bins counted from time 0, each arm's five columns in turn.
    package static func csv(_ result: RunResult) -> String {
        var text = "bin,start_s"
        for arm in result.arms { text += LoadQuantity.allCases.map { ",\(arm.name)_\($0.key)" }.joined() }
        text += "\n"
        let frame = result.loadFrame
        let bins = max(frame.runBins, result.arms.map(\.ledger.load.bins).max() ?? 0)
        let columns = result.arms.flatMap { arm in LoadQuantity.allCases.map { arm.ledger.load.values($0) } }
        for b in 0..<bins {
            text += "\(b),\(SVGNumber.text(Double(b) * Double(frame.bin) / 1e6))"
            for column in columns { text += ",\(b < column.count ? column[b] : 0)" }
            text += "\n"
        }
        return text
    }
}

/// Numbers written the one way: integers without a fraction, others with up to 6 digits.
enum SVGNumber {
    static func text(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e15 ? String(Int64(x)) : String(format: "%.6g", x)
    }
}
