// The extension's log as files: its rows (`run --logs FILE.csv`) and their summary per hour (FILE.hourly.csv).
import Foundation
import PushSimCore

/// The texts `run --logs` writes (docs/scenarios.md, "The extension's log"). The rows' columns
/// are ``LoggedPush/columns``, which ``ExtensionLogReader`` expects back; the hourly file is
/// ``ExtensionLogSummary`` one line an hour.
package enum ExtensionLogCSV {
    /// The rows file: the header, then one push a line.
    package static func rows(_ rows: [LoggedPush]) -> String {
        var text = LoggedPush.columns.joined(separator: ",") + "\n"
        text.reserveCapacity(text.utf8.count + rows.count * 32)
        for row in rows {
            text += "\(row.device),\(row.time),\(row.position),\(row.gapFound ? 1 : 0),\(row.gapSize),\(row.answer.rawValue)\n"
        }
        return text
    }

    /// The hourly file's columns, in order.
    package static var hourlyColumns: [String] {
        ["hour", "pushes", "gaps", "gaps_per_push", "missed"]
            + ExtensionLogSummary.gapBuckets.indices.map(ExtensionLogSummary.bucketName)
            + ["re_requests"] + LogAnswer.allCases.map { "answer_\($0.rawValue)" } + ["devices"]
    }

    /// The summary, one line per hour with a row (`gaps_per_push` to six decimals).
    package static func hourly(_ summary: ExtensionLogSummary) -> String {
        var text = hourlyColumns.joined(separator: ",") + "\n"
        for h in summary.hours {
            let fields = [String(h.hour), String(h.pushes), String(h.gaps), String(format: "%.6f", h.gapsPerPush), String(h.missed)]
                + h.gapSizes.map(String.init) + [String(h.reRequests)] + h.answers.map(String.init) + [String(h.devices)]
            text += fields.joined(separator: ",") + "\n"
        }
        return text
    }

    /// Where the hourly summary of the log at `path` goes: beside it, `.csv` replaced by
    /// `.hourly.csv` (`logs.csv` → `logs.hourly.csv`), or `.hourly.csv` added to another name.
    package static func hourlyPath(for path: String) -> String {
        path.hasSuffix(".csv") ? String(path.dropLast(4)) + ".hourly.csv" : path + ".hourly.csv"
    }
}
