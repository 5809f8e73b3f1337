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
        rows.append(["causes of loss"])
        for cause in LossCause.allCases {
            rows.append(row("  \(cause.key)") { arm in
                arm.arm == .off && cause.isQueueOnly ? "—" : ReportTable.grouped(arm.ledger.count(of: cause))
            })
        }
        if arms.contains(where: { $0.ledger.undeliverable > 0 }) {
            // Not counted in `letters`: the app was gone, no chain could have delivered them.
            rows.append(row("undeliverable (app uninstalled, not in letters)") { ReportTable.grouped($0.ledger.undeliverable) })
        }
        if arms.contains(where: { $0.ledger.retries + $0.ledger.answersLost + $0.ledger.throttledAnswers + $0.ledger.serverErrors > 0 }) {
            rows.append(["APNs' answers to XIVA"])
            rows.append(row("  429 TooManyRequests") { ReportTable.grouped($0.ledger.throttledAnswers) })
            rows.append(row("  5xx server errors") { ReportTable.grouped($0.ledger.serverErrors) })
            rows.append(row("  answers lost") { ReportTable.grouped($0.ledger.answersLost) })
            rows.append(row("  pushes sent again") { ReportTable.grouped($0.ledger.retries) })
        }
        if arms.contains(where: { $0.ledger.binaryWritten > 0 }) {
            rows.append(["APNs' binary interface"])
            rows.append(row("  notifications written") { ReportTable.grouped($0.ledger.binaryWritten) })
            rows.append(row("  error packets (connection closed)") { ReportTable.grouped($0.ledger.binaryErrors) })
            rows.append(row("  discarded on a closed connection") { ReportTable.grouped($0.ledger.binaryDiscarded) })
            rows.append(row("  written again from the resend buffer") { ReportTable.grouped($0.ledger.binaryRewritten) })
        }
        if arms.contains(where: { $0.ledger.heldWhileAsleep > 0 }) {
            rows.append(row("priority 5 held while asleep") { ReportTable.grouped($0.ledger.heldWhileAsleep) })
            rows.append(row("  released by a priority-10 push") { ReportTable.grouped($0.ledger.releasedByPriority10) })
        }
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
        if arms.contains(where: { $0.ledger.extensionKills > 0 }) {
            rows.append(row("  extensions killed early") { ReportTable.grouped($0.ledger.extensionKills) })
        }
        if arms.contains(where: { $0.ledger.attachmentRuns > 0 }) {
            rows.append(row("  attachments downloaded") { ReportTable.grouped($0.ledger.mediaDownloads) })
            rows.append(row("  downloads past the deadline") { ReportTable.grouped($0.ledger.mediaOverruns) })
            rows.append(row("  attachments found in the cache") { ReportTable.grouped($0.ledger.mediaCacheHits) })
        }
        if arms.contains(where: { $0.ledger.deviceIdChanges > 0 }) {
            rows.append(queueRow("  device id changes") { $0.deviceIdChanges })
            rows.append(queueRow("  positions in forgotten gaps") { $0.positionsInForgottenGaps })
        }
        if arms.contains(where: { $0.ledger.hasReinstalls }) {
            rows.append(row("  app reinstalls") { ReportTable.grouped($0.ledger.reinstalls) })
            rows.append(row("  letters dropped before XIVA knew the new token") { ReportTable.grouped($0.ledger.reinstallDrops) })
            rows.append(queueRow("  pushes of an earlier install shown as is") { $0.foreignPushes })
            rows.append(queueRow("  false gaps the device-id hash avoided") { $0.falseGaps })
            rows.append(queueRow("  positions in gaps missed across reinstalls") { $0.missedGapPositions })
        }
        if arms.contains(where: { $0.ledger.staleReads > 0 }) {
            rows.append(queueRow("  parallel runs: stale reads") { $0.staleReads })
            rows.append(queueRow("  parallel runs: missed gaps") { $0.missedGaps })
            rows.append(queueRow("  parallel runs: needless re-requests") { $0.needlessReRequests })
            rows.append(queueRow("  parallel runs: needless positions") { $0.needlessPositions })
        }
        if arms.contains(where: { $0.ledger.fetches > 0 }) {
            rows.append(queueRow("  catch-up fetches") { $0.fetches })
        }
        rows += ReportTable.channelRows(arms)
        if arms.contains { $0.arm == .on } {
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
        }
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
        var out = title + "\n\n"
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { i, cell in
                let pad = String(repeating: " ", count: max(0, widths[i] - cell.count))
                return i == 0 ? cell + pad : pad + cell
            }.joined(separator: "   ")
        }
        out += line(header) + "\n"
        for cells in rows { out += (cells.count == 1 ? cells[0] : line(cells)) + "\n" }
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
