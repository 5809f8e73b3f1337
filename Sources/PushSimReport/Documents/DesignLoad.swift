// The harm and cost set's costs as a load on the servers: per 1 000 phones a second (the mean, the busiest second, the busiest minute) and at a fleet.
import PushSimCore
import PushSimExperiment

/// Each cost of ``DesignMetrics`` as a rate a server sees (docs/model.md §7, Harms and costs of
/// every design; docs/model.md §14): the mean a second over the measured window, and the peak a
/// second at two resolutions, the busiest second (`peak_per_s_1s`) and the busiest minute
/// (`peak_per_s_1m`, its count over 60), per 1 000 phones and (with `--fleet N`) for N phones,
/// assuming load adds over independent devices (``LoadReport/assumption``).
///
/// Where the figures come from: XIVA requests and alert pushes have a series per bin in every run
/// (the load series' re-requests and pushes sent), so their mean is the series' mean over the
/// measured window and their peaks its busiest bins; the busiest second needs runs binned by the
/// second (`--load-bin 1s`), the busiest minute runs binned by the second or the minute. Silent
/// pushes, mail-server fetches and wake-ups are counted as totals only: their mean is the count
/// over the measured window's length, and their peaks are "n/a" with that reason; so are the
/// alert pushes of a design that also sends silent pushes (the series holds both), and the push
/// queue's XIVA requests when its main app re-requests too (the series holds the extension's
/// only). A cost the
/// design cannot have is "n/a" with the design's reason, never 0.
package enum DesignLoad {
    /// The figures of each cost, by name, with their titles in the tables.
    package static let figures: [(name: String, title: String)] = [
        ("mean_per_s", "mean"), ("peak_per_s_1s", "busiest second"), ("peak_per_s_1m", "busiest minute"),
    ]

    /// The costs of ``DesignMetrics`` (their names without `_per_letter`: `xiva_requests`).
    package static var costs: [(key: String, metric: DesignMetrics.Metric)] {
        DesignMetrics.costs.map { (String($0.name.dropLast("_per_letter".count)), $0) }
    }

    /// The load series that gives a cost its peaks, for the costs that have one.
    static func quantity(_ key: String) -> LoadQuantity? {
        switch key {
        case "xiva_requests": return .reRequests
        case "alert_pushes": return .pushesSent
        default: return nil
        }
    }

    /// The mean a second over the measured window and the peaks a second at the two
    /// resolutions of quantity `q`, for the run's devices, or why a resolution has none.
    package static func rates(_ series: LoadSeries, _ q: LoadQuantity, frame: LoadFrame)
        -> (figures: [String: Double], missing: [String: String]) {
        let statistics = LoadStatistics(series, q, frame: frame)
        let binSeconds = Double(frame.bin) / Double(SimTime.second)
        var figures: [String: Double] = ["mean_per_s": statistics.mean / binSeconds]
        var missing: [String: String] = [:]
        switch frame.bin {
        case SimTime.second:
            figures["peak_per_s_1s"] = Double(statistics.peak)
            figures["peak_per_s_1m"] = Double(minutePeak(series.values(q))) / 60
        case SimTime.minute:
            figures["peak_per_s_1m"] = Double(statistics.peak) / 60
            missing["peak_per_s_1s"] = "the run is binned by the minute: give --load-bin 1s for the busiest second"
        default:
            let reason = "the run is binned by \(SimTime(microseconds: frame.bin)): give --load-bin 1s for the busiest second and minute"
            missing["peak_per_s_1s"] = reason
            missing["peak_per_s_1m"] = reason
        }
        return (figures, missing)
    }

    /// The largest count in a minute of a series binned by the second, minutes aligned on the
    /// run's clock as `--load-bin 1m` cuts them.
    static func minutePeak(_ seconds: [Int]) -> Int {
        var peak = 0
        var start = 0
        while start < seconds.count {
            peak = max(peak, seconds[start..<min(start + 60, seconds.count)].reduce(0, +))
            start += 60
        }
        return peak
    }

    /// Every cost's figures for the arm's `devices` phones together (`xiva_requests.mean_per_s`),
    /// unscaled, or the reason a figure has none.
    package static func measure(_ arm: ArmResult, frame: LoadFrame) -> (values: [String: Double], notApplicable: [String: String]) {
        let counted = DesignMetrics.counts(arm)
        let window = Double(max(frame.duration - frame.warmup, 0)) / Double(SimTime.second)
        var values: [String: Double] = [:], reasons: [String: String] = [:]
        let design = DesignMetrics.design(of: arm), app = arm.ledger.appHook
        for (key, metric) in costs {
            let names = figures.map { "\(key).\($0.name)" }
            if let reason = counted.notApplicable[metric.name] {
                for name in names { reasons[name] = reason }
                continue
            }
            // Silent pushes go to APNs too (a background sync's, and the push queue's with
            // `queue.background_pushes`): the series of pushes sent holds them with the alert
            // pushes, so it gives the alert pushes no peak of their own. The series of
            // re-requests holds the extension's only, so with the main app's beside them the
            // XIVA requests are counted as a total.
            let shared = key == "alert_pushes" && (design == .backgroundSync || (design == .queue && app.backgroundPushes > 0))
            let appRequests = key == "xiva_requests" && design == .queue && app.reRequests > 0
            if let q = quantity(key), !shared, !appRequests {
                let (found, missing) = rates(arm.ledger.load, q, frame: frame)
                for (figure, value) in found { values["\(key).\(figure)"] = value }
                for (figure, reason) in missing { reasons["\(key).\(figure)"] = reason }
            } else {
                values["\(key).mean_per_s"] = window > 0 ? Double(counted.counts[metric.name] ?? 0) / window : 0
                let reason = shared
                    ? "the series of pushes sent to APNs holds the silent pushes too (both together peak as the load "
                        + "table's pushes sent); the mean is exact"
                    : appRequests
                    ? "the series of re-requests holds the extension's only, not the main app's: the mean of both is exact"
                    : "counted as a total, not per bin: the mean is exact, the busiest second and minute are not measured"
                reasons["\(key).peak_per_s_1s"] = reason
                reasons["\(key).peak_per_s_1m"] = reason
            }
        }
        return (values, reasons)
    }

    /// The scales the figures are shown at: per 1 000 phones, and for the fleet when given.
    package static func scales(devices: Int, fleet: Int?) -> [(key: String, title: String, factor: Double)] {
        guard devices > 0 else { return [] }
        var scales = [("per_1000_per_s", "per 1 000 phones, a second", 1000 / Double(devices))]
        if let fleet { scales.append(("fleet_per_s", "at \(ReportTable.grouped(fleet)) phones, a second", Double(fleet) / Double(devices))) }
        return scales
    }

    /// summary.json's `load` of an arm's harms and costs: the run's phones, bin and fleet, then
    /// per scale every cost's figures, and `not_applicable` (cost.figure: why).
    package static func json(_ arm: ArmResult, frame: LoadFrame, devices: Int) -> JSONValue {
        let measured = measure(arm, frame: frame)
        var object: [String: JSONValue] = ["devices": .int(devices), "bin_s": .double(Double(frame.bin) / Double(SimTime.second)),
                                           "not_applicable": .object(measured.notApplicable.mapValues(JSONValue.string))]
        if let fleet = frame.fleet { object["fleet_devices"] = .int(fleet) }
        for scale in scales(devices: devices, fleet: frame.fleet) {
            var perCost: [String: JSONValue] = [:]
            for (key, _) in costs {
                var entry: [String: JSONValue] = [:]
                for figure in figures { if let v = measured.values["\(key).\(figure.name)"] { entry[figure.name] = .double(v * scale.factor) } }
                if !entry.isEmpty { perCost[key] = .object(entry) }
            }
            object[scale.key] = .object(perCost)
        }
        return .object(object)
    }

    /// The Markdown table: a row per arm and cost, each figure per 1 000 phones a second (and at
    /// the fleet), `n/a [k]` with reason k listed below.
    package static func markdown(_ result: RunResult) -> String {
        let frame = result.loadFrame, devices = result.totalDevices
        let scales = scales(devices: devices, fleet: frame.fleet)
        guard !scales.isEmpty else { return "" }
        var out = "### The costs as load on the servers\n\nEach cost a second: the mean over the measured window, the busiest "
            + "second, and the busiest minute's count over 60 (which one sizes a server: docs/model.md §14); "
            + "\(scales.map(\.title).joined(separator: "; then ")). \(LoadReport.assumption.prefix(1).uppercased() + LoadReport.assumption.dropFirst()).\n\n"
        var headers = ["queue", "cost"]
        for scale in scales { headers += figures.map { "\($0.title) (\(scale.key == "fleet_per_s" ? "fleet" : "per 1 000"))" } }
        out += MarkdownTable.row(headers)
        out += "|" + String(repeating: " --- |", count: headers.count) + "\n"
        var reasons: [String] = []
        for arm in result.arms {
            let measured = measure(arm, frame: frame)
            for (key, metric) in costs {
                var cells = [arm.name, metric.title.replacingOccurrences(of: " / letter", with: "")]
                for scale in scales {
                    for figure in figures {
                        let name = "\(key).\(figure.name)"
                        if let v = measured.values[name] { cells.append(LoadReport.figure(v * scale.factor)); continue }
                        let reason = measured.notApplicable[name] ?? ""
                        if !reasons.contains(reason) { reasons.append(reason) }
                        cells.append("n/a [\((reasons.firstIndex(of: reason) ?? 0) + 1)]")
                    }
                }
                out += MarkdownTable.row(cells)
            }
        }
        if !reasons.isEmpty {
            out += "\n" + reasons.enumerated().map { "[\($0.offset + 1)] \($0.element)." }.joined(separator: " ") + "\n"
        }
        return out
    }
}

extension DesignLoad {
    /// The chart's file in a run's results folder.
    package static let svgName = "costs.svg"

    /// costs.svg: the queue arm's costs per 1 000 phones a second, the mean, the busiest minute
    /// and the busiest second of each cost side by side (a point each: one run has no
    /// interval), on a log axis when they span more than two decades; a figure that is "n/a"
    /// draws no point and is named with its reason under the title.
    package static func chart(_ result: RunResult) -> SVGChart {
        let arm = result.arms.last { $0.arm == .on } ?? result.arms.last
        let frame = result.loadFrame, devices = result.totalDevices
        let measured = arm.map { measure($0, frame: frame) } ?? (values: [:], notApplicable: [:])
        let factor = devices > 0 ? 1000 / Double(devices) : 0
        // Short names: five categories share the axis, and no two labels may meet.
        let names = costs.map { $0.metric.title.replacingOccurrences(of: " / letter", with: "")
            .replacingOccurrences(of: "mail-server fetches", with: "mail fetches") }
        let series = figures.enumerated().map { f, figure -> SVGChart.Series in
            let values = costs.map { cost in measured.values["\(cost.key).\(figure.name)"].map { $0 * factor } }
            return SVGChart.Series(name: figure.name == "peak_per_s_1m" ? "busiest minute (its count / 60)" : figure.title,
                                   values: values, low: values, high: values, color: f)
        }
        // What draws no point, and why: each reason once, with the figures it stands for.
        var missing: [(reason: String, what: [String])] = []
        for (c, cost) in costs.enumerated() {
            for figure in figures {
                guard let reason = measured.notApplicable["\(cost.key).\(figure.name)"] else { continue }
                let what = names[c] + notApplicableFigures(of: cost.key, because: reason, measured.notApplicable)
                if let i = missing.firstIndex(where: { $0.reason == reason }) {
                    if !missing[i].what.contains(what) { missing[i].what.append(what) }
                } else {
                    missing.append((reason, [what]))
                }
            }
        }
        let design = arm.map { DesignMetrics.title(DesignMetrics.design(of: $0)) } ?? "—"
        var subtitle = "\(result.scenario) · queue \(arm?.name ?? "—") arm (\(design)) · \(ReportTable.grouped(devices)) phones, "
            + "bins of \(SimTime(microseconds: frame.bin)) · one run: no interval"
        for entry in missing { subtitle += "\nn/a, \(entry.what.joined(separator: ", ")): \(entry.reason)" }
        var chart = SVGChart(title: "Costs per 1 000 phones a second", subtitle: subtitle, xLabel: "cost",
                             yLabel: "per 1 000 phones, a second", categories: names, series: series, percent: false)
        chart.xAxis = SVGChart.XAxis.byValue
        chart.note = "point: this run's value"
        return chart
    }

    /// Which of a cost's figures are n/a for `reason`, for the chart's line of that reason:
    /// nothing when all its figures are (the cost's name says it), else the figures by name —
    /// " (busiest second)" when the run is binned by the minute, " (peaks)" when both peaks are.
    static func notApplicableFigures(of cost: String, because reason: String, _ notApplicable: [String: String]) -> String {
        let missing = figures.filter { notApplicable["\(cost).\($0.name)"] == reason }
        if missing.count == figures.count { return "" }
        if missing.count == figures.count - 1, missing.allSatisfy({ $0.name != "mean_per_s" }) { return " (peaks)" }
        return " (" + missing.map(\.title).joined(separator: ", ") + ")"
    }
}
