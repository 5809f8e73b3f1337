// The table `pushsim run` prints by default: the answer in words and the rows that decide, on one screen.
import Foundation
import PushSimCore
import PushSimExperiment

extension ReportTable {
    /// The most segments whose loss rate the short table lists (one row each); more are in `--long`.
    static let shortTableSegments = 4

    /// The default terminal table: the answer in a sentence, then letters, delivered,
    /// summarized, lost, the loss rate, duplicates, latency p50 and p99, the causes of loss
    /// that are not zero, the queue at work (the counts that are not zero but re-requests and
    /// re-sends, always shown) and, with at most ``shortTableSegments`` segments, each one's
    /// loss rate. Everything else (the latency's other quantiles, the extension's logs, the
    /// load at peak, the mechanisms' blocks, the segments' other rows, events) is in `--long`,
    /// summary.md and report.html; the last line says so.
    package static func short(_ result: RunResult, scenario: Scenario? = nil, size: RunSize? = nil) -> ReportTable {
        var table = ReportTable(result, scenario: scenario, size: size)
        let arms = result.arms
        func row(_ label: String, _ value: (ArmResult) -> String) -> [String] { [label] + arms.map(value) }
        var rows: [[String]] = [
            row("letters") { grouped($0.ledger.letters) },
            row("delivered") { grouped($0.ledger.delivered) },
            row("summarized (not lost, not delivered)") { grouped($0.ledger.summarized) },
            row("lost") { grouped($0.ledger.lost) },
            row("loss rate") { percent($0.ledger.lossRate) },
            row("duplicates") { grouped($0.ledger.duplicates) },
            row("latency to first delivery, p50") { seconds($0.latencySeconds["p50"] ?? 0) },
            row("latency to first delivery, p99") { seconds($0.latencySeconds["p99"] ?? 0) },
        ]
        let causes = LossCause.allCases.filter { cause in arms.contains { $0.ledger.count(of: cause) > 0 } }
        if !causes.isEmpty {
            rows.append(["causes of loss (those not zero)"])
            for cause in causes {
                rows.append(row("  \(cause.key)") { arm in
                    arm.arm == .off && cause.isQueueOnly ? "—" : grouped(arm.ledger.count(of: cause))
                })
            }
        }
        if let on = arms.first(where: { $0.arm == .on }) {
            let work: [(String, (Ledger) -> Int, Bool)] = [
                ("re-requests", { $0.reRequests }, true), ("re-sent pushes", { $0.resent }, true),
                ("summaries", { $0.summaries }, false), ("extension time-outs", { $0.extensionTimeouts }, false),
                ("XIVA: answered with an error unserved", { $0.xivaErrors }, false),
            ]
            rows.append(["the queue at work"])
            for (label, value, always) in work where always || value(on.ledger) > 0 {
                rows.append(row("  " + label) { $0.arm == .on ? grouped(value($0.ledger)) : "—" })
            }
        }
        if !result.segments.isEmpty && result.segments.count <= shortTableSegments {
            for segment in result.segments {
                rows.append(["  loss rate · segment \(segment.name)"] + segment.arms.map { percent($0.ledger.lossRate) })
            }
        }
        table.rows = rows
        table.lead = answer(result, design: scenario?.recovery)
        var more = "latency p90 and max, the extension's logs, the load at peak, every design's harms and costs"
        if !result.segments.isEmpty { more += ", the segments" }
        table.footer = wrap("pushsim run --long prints every row (\(more), events); summary.md and report.html have them all.")
            .joined(separator: "\n")
        return table
    }

    /// The run's answer in words: the loss with and without the design, what ended in a
    /// summary, and the queue's price, wrapped to the width of a terminal.
    static func answer(_ result: RunResult, design: RecoveryDesign?) -> [String] {
        guard let on = result.arms.first(where: { $0.arm == .on }) else {
            guard let only = result.arms.first else { return [] }
            return wrap("Without recovery, \(percent(only.ledger.lossRate)) of letters are lost "
                        + "(\(grouped(only.ledger.lost)) of \(grouped(only.ledger.letters))).")
        }
        let name: String
        switch design ?? .queue {
        case .queue: name = "With the queue"
        case .catchUp: name = "With the client catch-up"
        case .backgroundSync: name = "With background-push sync"
        case .none: name = "With recovery: none"
        }
        var sentence = "\(name), \(percent(on.ledger.lossRate)) of letters are lost"
        if let off = result.offArm { sentence += " instead of \(percent(off.ledger.lossRate))" }
        sentence += "; \(grouped(on.ledger.summarized)) end in a summary (\"N missed messages\"), neither delivered nor lost."
        if on.ledger.reRequests > 0 || on.ledger.resent > 0 {
            sentence += " Its price: \(grouped(on.ledger.reRequests)) re-requests and \(grouped(on.ledger.resent)) re-sent pushes,"
                + " and the p99 latency \(seconds(on.latencySeconds["p99"] ?? 0))"
                + (result.offArm.map { " (\(seconds($0.latencySeconds["p99"] ?? 0)) without)" } ?? "") + "."
        }
        return wrap(sentence)
    }

    /// Words in lines of at most `width` characters.
    static func wrap(_ text: String, width: Int = 88) -> [String] {
        var lines: [String] = [], line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > width { lines.append(line); line = "" }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
