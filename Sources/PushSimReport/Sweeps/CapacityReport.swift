// capacity.json and capacity.md: the least capacity per 1 000 phones that keeps the share answered in time, per partition, for the fleet, and what caps the share.
import Foundation
import PushSimCore
import PushSimExperiment

/// The answer of `pushsim capacity` with what it is about: the scenario, the partitions
/// simulated, the partition size and fleet the user asked it for.
package struct CapacityReport: Sendable {
    package static let files: Set<String> = ["capacity.json", "capacity.md", svgName]
    /// The chart written beside capacity.md.
    package static let svgName = "capacity.svg"
    package static let metric = "xiva_capacity.in_time_share"

    package var scenario: String
    package var answer: CapacityAnswer
    /// Phones per partition in the runs, and the partitions.
    package var simulatedPartition: Double
    package var partitions: Int
    /// The partition size the answer is stated for (`--partition-size`, else the simulated one).
    package var partition: Int
    /// The whole fleet (`--fleet`), cut into partitions of `partition` phones.
    package var fleet: Int?

    package init(scenario: String, answer: CapacityAnswer, simulatedPartition: Double, partitions: Int, partition: Int, fleet: Int?) {
        self.scenario = scenario; self.answer = answer; self.simulatedPartition = simulatedPartition
        self.partitions = partitions; self.partition = partition; self.fleet = fleet
    }

    /// The fleet's partitions: as many of `partition` phones as hold it (the last one fuller or not).
    package var fleetPartitions: Int? { fleet.map { ($0 + partition - 1) / partition } }

    /// The mean and the 95 % interval's ends of the capacity per 1 000 phones, scaled by `factor`.
    func scaled(_ factor: Double) -> (mean: Double, low: Double?, high: Double?)? {
        guard let s = answer.perThousand else { return nil }
        return (s.mean * factor, s.ci95.map { max(0, s.mean - $0) * factor }, s.ci95.map { (s.mean + $0) * factor })
    }

    /// The rows of the answer: per 1 000 phones, per partition, for the fleet (label, factor).
    var rows: [(label: String, key: String, factor: Double, devices: Int?)] {
        var rows: [(String, String, Double, Int?)] = [("per 1 000 phones of a partition", "per_1000_devices", 1, nil),
                                                      ("per partition of \(ReportTable.grouped(partition)) phones", "per_partition", Double(partition) / 1000, partition)]
        if let fleet, let n = fleetPartitions {
            rows.append(("the fleet of \(ReportTable.grouped(fleet)) phones: \(ReportTable.grouped(n)) partition\(n == 1 ? "" : "s") of \(ReportTable.grouped(partition))",
                         "fleet", Double(n) * Double(partition) / 1000, fleet))
        }
        return rows
    }

    // MARK: JSON

    package var json: JSONValue {
        func summary(_ s: MetricSummary) -> JSONValue {
            .object(["mean": .double(s.mean), "ci95": s.ci95.map { .double($0) } ?? .null, "n": .int(s.count)])
        }
        var object: [String: JSONValue] = [
            "scenario": .string(scenario),
            "pushsim_version": .string(PushSimVersion.current),
            "target": .object(["metric": .string(CapacityReport.metric), "at_least": .double(answer.settings.target)]),
            "simulated": .object(["partitions": .int(partitions), "devices_per_partition": .double(simulatedPartition),
                                  "replications": .int(answer.seeds.count)]),
            "resolution": .double(answer.settings.resolution),
            "ceiling": .object(["in_time_share": summary(answer.ceilingShare),
                                "extension_timeouts_per_re_request": summary(answer.ceilingTimeouts),
                                "xiva_errors_per_re_request": summary(answer.ceilingErrors),
                                "error_answers_per_re_request": summary(answer.ceilingRequestErrors),
                                "capped_by": .string(answer.cap.cause)]),
            "reachable": .bool(answer.perThousand != nil),
        ]
        for row in rows {
            guard let s = scaled(row.factor) else { continue }
            var entry: [String: JSONValue] = ["per_s": .double(s.mean), "ci95_low": s.low.map { .double($0) } ?? .null,
                                              "ci95_high": s.high.map { .double($0) } ?? .null]
            if let devices = row.devices { entry["devices"] = .int(devices) }
            if row.key == "fleet", let n = fleetPartitions { entry["partitions"] = .int(n) }
            object[row.key] = .object(entry)
        }
        object["seeds"] = .array(answer.seeds.map { search in
            .object([
                "seed": .uint(search.seed),
                "reached_per_1000_per_s": search.reached.map { .double($0) } ?? .null,
                "missed_per_1000_per_s": search.missed.map { .double($0) } ?? .null,
                "ceiling_in_time_share": .double(search.ceiling.share),
                "tried": .array(search.tried.map { t in
                    .object(["per_1000_per_s": .double(t.capacity), "in_time_share": .double(t.observation.share),
                             "extension_timeouts_per_re_request": .double(t.observation.timeoutsPerReRequest),
                             "xiva_errors_per_re_request": .double(t.observation.errorsPerReRequest),
                             "error_answers_per_re_request": .double(t.observation.requestErrorsPerReRequest),
                             "re_requests": .double(t.observation.reRequests)])
                }),
            ])
        })
        return .object(object)
    }

    // MARK: Markdown

    package var markdown: String {
        let target = percent(answer.settings.target)
        var out = "# Capacity: \(scenario)\n\n"
        out += "The least XIVA capacity (`xiva.capacity`) that keeps at least \(target) of re-requests answered in time "
            + "(`\(CapacityReport.metric)`), searched seed by seed on \(answer.seeds.count) seeds (common random numbers: every "
            + "capacity on the same seeds) to \(percent(answer.settings.resolution)) of the capacity; the runs hold "
            + "\(ReportTable.grouped(partitions)) partition\(partitions == 1 ? "" : "s") of \(LoadReport.figure(simulatedPartition)) phones.\n\n"
        if answer.perThousand != nil {
            out += "| | re-requests a second | 95 % interval |\n| --- | --- | --- |\n"
            for row in rows {
                guard let s = scaled(row.factor) else { continue }
                let interval = s.low.flatMap { low in s.high.map { "\(LoadReport.figure(low)) – \(LoadReport.figure($0))" } } ?? "—"
                out += "| \(row.label) | \(LoadReport.figure(s.mean)) | \(interval) |\n"
            }
            out += "\nThe interval is over the seeds' own answers (mean ± t·s/√n). Per partition and for the fleet the "
                + "capacity per 1 000 phones is scaled: the share answered in time depends on the capacity per phone of a "
                + "partition, not on its size (docs/model.md §6; docs/research.md, Capacity per partition); the largest "
                + "queue grows with the partition, and the longest wait is of the partition size simulated.\n\n"
        } else {
            out += "**No capacity reaches \(target)**: with no limit at all the share answered in time is "
                + "\(percent(answer.ceilingShare.mean))\(answer.ceilingShare.ci95.map { " ± " + percent($0) } ?? "") "
                + "(below).\n\n"
        }
        out += "**What caps the share.** With no capacity limit (\(LoadReport.figure(answer.settings.unlimited)) a second per "
            + "1 000 phones) \(percent(answer.ceilingShare.mean))\(answer.ceilingShare.ci95.map { " ± " + percent($0) } ?? "") of re-requests "
            + "are answered in time; of the rest, error answers are \(percent(answer.ceilingRequestErrors.mean)) of re-requests "
            + "(`xiva.request_error`), XIVA errors without service \(percent(answer.ceilingErrors.mean)) (outages, queue time-outs) "
            + "and extension time-outs \(percent(answer.ceilingTimeouts.mean)) (answers after `extension.deadline`). "
            + (answer.cap.perReRequest > 0 ? "The share is capped by \(answer.cap.cause): no capacity lifts it above that ceiling.\n\n"
                                           : "Nothing caps it but the capacity.\n\n")
        out += "| seed | least capacity reaching \(target) (per 1 000 a second) | largest missing it | share with no limit | runs |\n"
        out += "| --- | --- | --- | --- | --- |\n"
        for search in answer.seeds {
            out += "| \(search.seed) | \(search.reached.map(LoadReport.figure) ?? "none") | \(search.missed.map(LoadReport.figure) ?? "—") | "
                + "\(percent(search.ceiling.share)) | \(search.tried.count + 1) |\n"
        }
        return out
    }

    // MARK: Chart

    /// capacity.svg: each seed's least capacity per 1 000 phones that reaches the target, its bar
    /// the bracket the search closed (from the largest capacity missing the target to it), and
    /// the mean of the seeds with its 95 % interval, also shaded across the plot. With no
    /// capacity reaching the target: each seed's share answered in time with no limit, against
    /// the target shaded from it to 100 %.
    package var chart: SVGChart {
        let target = percent(answer.settings.target)
        // Seeds derived from the scenario's are 20-digit numbers: the axis names each by its
        // place, the x label which seed that is (capacity.md's rows, in the same order).
        let categories = answer.seeds.indices.map { "#\($0 + 1)" } + ["mean"]
        let xLabel = "seed: " + answer.seeds.enumerated().prefix(3).map { "#\($0.offset + 1) = \($0.element.seed)" }.joined(separator: ", ")
            + (answer.seeds.count > 3 ? ", … (capacity.md's rows, in order)" : "")
        let n = answer.seeds.count
        var subtitle = "\(scenario) · \(ReportTable.grouped(partitions)) partition\(partitions == 1 ? "" : "s") of "
            + "\(LoadReport.figure(simulatedPartition)) phones simulated · \(n) seed\(n == 1 ? "" : "s"), common random numbers"
        var chart: SVGChart
        if let mean = answer.perThousand, let scaledMean = scaled(1) {
            let reached = answer.seeds.map(\.reached) + [nil]
            let bracket = SVGChart.Series(name: "a seed's least capacity reaching \(target)", values: reached,
                                          low: answer.seeds.map { $0.missed ?? $0.reached } + [nil], high: reached)
            let interval = SVGChart.Series(name: "the seeds' mean", values: Array(repeating: nil, count: n) + [mean.mean],
                                           low: Array(repeating: nil, count: n) + [scaledMean.low ?? mean.mean],
                                           high: Array(repeating: nil, count: n) + [scaledMean.high ?? mean.mean])
            for row in rows.dropFirst() {
                guard let s = scaled(row.factor) else { continue }
                subtitle += "\n\(row.label): \(LoadReport.figure(s.mean)) a second"
                    + (s.low.flatMap { low in s.high.map { " (\(LoadReport.figure(low)) – \(LoadReport.figure($0)))" } } ?? "")
            }
            chart = SVGChart(title: "XIVA capacity keeping \(target) of re-requests answered in time", subtitle: subtitle,
                             xLabel: xLabel, yLabel: "capacity per 1 000 phones (re-requests a second)",
                             categories: categories, series: [bracket, interval], percent: false)
            if let low = scaledMean.low, let high = scaledMean.high {
                chart.zone = SVGChart.Zone(low: low, high: high, name: "95 % interval of the mean")
            }
            chart.note = "bar: a seed's bracket; the mean's 95 % CI"
        } else {
            let shares = answer.seeds.map { Optional($0.ceiling.share) } + [answer.ceilingShare.mean]
            let ci = answer.ceilingShare.ci95
            let series = SVGChart.Series(name: "share answered in time with no limit", values: shares,
                                         low: answer.seeds.map { Optional($0.ceiling.share) } + [max(0, answer.ceilingShare.mean - (ci ?? 0))],
                                         high: answer.seeds.map { Optional($0.ceiling.share) } + [min(1, answer.ceilingShare.mean + (ci ?? 0))])
            subtitle += "\ncapped by \(answer.cap.cause)"
            chart = SVGChart(title: "No XIVA capacity keeps \(target) of re-requests answered in time", subtitle: subtitle,
                             xLabel: xLabel, yLabel: "answered in time (% of re-requests)", categories: categories,
                             series: [series], percent: true)
            chart.zone = SVGChart.Zone(low: answer.settings.target, high: 1, name: "the target, \(target) or more")
            chart.note = "point: a seed's share; bar: the mean's 95 % CI"
        }
        chart.xAxis = SVGChart.XAxis.byValue
        chart.yAxis = .linear
        return chart
    }

    func percent(_ x: Double) -> String {
        let p = x * 100
        let text = String(format: p == p.rounded() ? "%.0f" : (abs(p) < 1 ? "%.3f" : "%.2f"), p)
        return text + " %"
    }
}
