// The side-by-side table a person reads (terminal) and its Markdown twin (summary.md).
import Foundation
import PushSimCore
import PushSimExperiment

/// Rows of a run's report: label, then one cell per arm. Shared by the terminal table and
/// the Markdown summary, so the two always say the same thing.
package struct ReportTable {
    package var title: String
    package var header: [String]
    package var rows: [[String]]   // a row with one cell is a section heading
    /// Lines under the title, before the table (the short table's answer in words).
    package var lead: [String] = []
    /// A line after the table (the short table's pointer to the rest).
    package var footer: String?

    package init(_ result: RunResult, scenario: Scenario? = nil, size: RunSize? = nil) {
        title = "PushSim · \(result.scenario) · seed \(result.seed)"
        if let size = size ?? scenario.map(RunSize.init) {
            title += " · \(ReportTable.grouped(size.devices)) devices × \(size.duration) (+\(size.drain) drain)"
        }
        header = ["", ] + result.arms.map { "queue \($0.name)" }
        let arms = result.arms
        func row(_ label: String, _ value: (ArmResult) -> String) -> [String] { [label] + arms.map(value) }
        func queueRow(_ label: String, _ value: (Ledger) -> Int) -> [String] {
            row(label) { $0.arm == .on ? ReportTable.grouped(value($0.ledger)) : "—" }
        }
        // Each mechanism's block (Ledger.groups), once any arm shows it: its heading, then a row
        // per counter, "—" where the arm has no such count.
        func groupRows(_ place: CounterPlace) -> [[String]] {
            var out: [[String]] = []
            for group in Ledger.groups where group.place == place && arms.contains(where: { group.shown($0.ledger) }) {
                if let heading = group.heading { out.append([heading]) }
                for counter in group.counters {
                    out.append(row(counter.label) { arm in
                        group.reports(counter, onQueueArm: arm.arm == .on) ? ReportTable.grouped(arm.ledger[keyPath: counter.path]) : "—"
                    })
                }
                for share in group.shares {
                    out.append(row(share.label) { arm in
                        guard arm.arm == .on || group.arms == .both, let value = share.value(arm.ledger) else { return "—" }
                        return ReportTable.percent(value)
                    })
                }
            }
            return out
        }
        rows = [
            row("letters") { ReportTable.grouped($0.ledger.letters) },
            row("delivered") { ReportTable.grouped($0.ledger.delivered) },
            // A summarized letter is neither lost nor delivered: say so where "loss 0 %" sits
            // next to fewer delivered letters (docs/model.md, section 2).
            row("summarized (not lost, not delivered)") { ReportTable.grouped($0.ledger.summarized) },
            row("lost") { ReportTable.grouped($0.ledger.lost) },
            row("duplicates") { ReportTable.grouped($0.ledger.duplicates) },
            row("loss rate") { ReportTable.percent($0.ledger.lossRate) },
            row("duplicate rate") { ReportTable.percent($0.ledger.duplicateRate) },
            ["latency to first delivery"],
        ]
        for key in ["p50", "p90", "p99", "max"] {
            rows.append(row("  \(key)") { ReportTable.seconds($0.latencySeconds[key] ?? 0) })
        }
        // Focus and the scheduled summary: when the user saw the same delivered letters.
        if arms.contains(where: { $0.seenLatencySeconds != nil }) {
            rows.append(["latency until seen by the user"])
            for key in ["p50", "p90", "p99", "max"] {
                rows.append(row("  \(key)") { arm in arm.seenLatencySeconds.map { ReportTable.seconds($0[key] ?? 0) } ?? "—" })
            }
        }
        rows.append(["causes of loss"])
        for cause in LossCause.listed({ cause in arms.reduce(0) { $0 + $1.ledger.count(of: cause) } }) {
            rows.append(row("  \(cause.key)") { arm in
                arm.arm == .off && cause.isQueueOnly ? "—" : ReportTable.grouped(arm.ledger.count(of: cause))
            })
        }
        rows += groupRows(.afterCauses)
        rows.append(["the queue at work"])
        rows.append(queueRow("  re-requests") { $0.reRequests })
        rows.append(queueRow("  re-sent pushes") { $0.resent })
        rows.append(queueRow("  summaries") { $0.summaries })
        rows.append(queueRow("  extension time-outs") { $0.extensionTimeouts })
        rows.append(queueRow("  XIVA: re-requests served") { $0.xivaServed })
        rows.append(queueRow("  XIVA: answered with an error unserved") { $0.xivaErrors })
        rows.append(queueRow("  XIVA: most waiting in a partition") { $0.xivaMaxQueue })
        rows.append(row("  XIVA: longest wait") { arm in
            arm.arm == .on ? ReportTable.seconds(Double(arm.ledger.xivaMaxWaitMicroseconds) / Double(SimTime.second)) : "—"
        })
        rows += groupRows(.queueBlock)
        rows += ReportTable.channelRows(arms)
        if arms.contains(where: { $0.arm == .on }) {
            rows.append(["what the extension's logs would show"])
            rows.append(queueRow("  pushes seen") { $0.pushesSeenByExtensions })
            rows.append(queueRow("  gaps detected") { $0.gapsDetected })
            rows.append(queueRow("  letters missed in gaps") { $0.missedInGaps })
            rows.append(row("  estimated loss (no queue)") { arm in
                guard arm.arm == .on else { return "—" }
                return ReportTable.percent(arm.estimatedLossRate)
            })
            // The estimate is of the loss without a queue: its error is against the off arm.
            if let offArm = result.offArm {
                rows.append(row("  estimate − queue-off loss") { arm in
                    arm.arm == .on ? ReportTable.points(arm.estimatedLossRate - offArm.ledger.lossRate) : "—"
                })
            }
            // Where the estimate is known to mislead, said beside it with the size in this run.
            if let queueArm = arms.first(where: { $0.arm == .on }) {
                for caveat in queueArm.telemetryCaveats(offArm: result.offArm) { rows.append(["  caution: " + caveat.says]) }
            }
        }
        rows += LoadReport.rows(arms, frame: result.loadFrame, devices: result.totalDevices, fleet: result.loadFrame.fleet)
        rows.append(row("events") { ReportTable.grouped($0.ledger.events) })
        // Per segment (docs/model.md §5, Segments): the same arms, counting only the segment's devices.
        for segment in result.segments {
            rows.append(["segment \(segment.name) · \(ReportTable.grouped(segment.devices)) devices"])
            func segmentRow(_ label: String, _ value: (ArmResult) -> String) -> [String] {
                ["  " + label] + segment.arms.map(value)
            }
            rows.append(segmentRow("letters") { ReportTable.grouped($0.ledger.letters) })
            rows.append(segmentRow("delivered") { ReportTable.grouped($0.ledger.delivered) })
            rows.append(segmentRow("summarized") { ReportTable.grouped($0.ledger.summarized) })
            rows.append(segmentRow("lost") { ReportTable.grouped($0.ledger.lost) })
            rows.append(segmentRow("loss rate") { ReportTable.percent($0.ledger.lossRate) })
            rows.append(segmentRow("duplicate rate") { ReportTable.percent($0.ledger.duplicateRate) })
            rows.append(segmentRow("latency p50") { ReportTable.seconds($0.latencySeconds["p50"] ?? 0) })
            rows.append(segmentRow("latency p99") { ReportTable.seconds($0.latencySeconds["p99"] ?? 0) })
        }
    }

    /// A plain-text table with aligned columns.
    package var text: String {
        let widths = (0..<header.count).map { column in
            ([header] + rows).filter { $0.count > 1 }.map { $0[column].count }.max() ?? 0
        }
        var out = title + "\n" + lead.map { $0 + "\n" }.joined() + "\n"
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { i, cell in
                let pad = String(repeating: " ", count: max(0, widths[i] - cell.count))
                return i == 0 ? cell + pad : pad + cell
            }.joined(separator: "   ")
        }
        out += line(header) + "\n"
        for cells in rows { out += (cells.count == 1 ? cells[0] : line(cells)) + "\n" }
        if let footer { out += "\n" + footer + "\n" }
        return out
    }

    /// The same table in Markdown.
    package var markdown: String {
        var out = "# \(title)\n\n"
        out += MarkdownTable.row(["metric"] + header.dropFirst())
        out += "|" + String(repeating: " --- |", count: header.count) + "\n"
        for cells in rows {
            let label = cells.count == 1 ? "**\(cells[0])**"
                : cells[0].hasPrefix("  ") ? "&nbsp;&nbsp;" + cells[0].dropFirst(2) : cells[0]
            let rest = cells.count == 1 ? Array(repeating: "", count: header.count - 1) : Array(cells.dropFirst())
            out += MarkdownTable.row([label] + rest)
        }
        return out
    }

    /// `1,234,567`: digits grouped by thousands, as every table prints counts.
    package static func grouped(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, ch) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out += "," }
            out.append(ch)
        }
        return (n < 0 ? "-" : "") + out
    }

    static func percent(_ x: Double) -> String { String(format: "%.3f %%", x * 100) }

    /// A difference of two rates in percentage points, signed.
    static func points(_ x: Double) -> String { String(format: "%+.3f pp", x * 100) }

    static func seconds(_ s: Double) -> String {
        if s < 10 { return String(format: "%.3f s", s) }
        if s < 3600 { return String(format: "%.1f s", s) }
        return String(format: "%.2f h", s / 3600)
    }
}
