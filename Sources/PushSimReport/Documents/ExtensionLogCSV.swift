// The extension's log as files: its rows (`run --logs FILE.csv`) and their summary per hour (FILE.hourly.csv).
import Foundation
import PushSimCore

/// The texts `run --logs` writes (docs/scenarios.md, "The extension's log"). The rows' columns
/// are ``LoggedPush/columns``, which ``ExtensionLogReader`` expects back; the hourly file is
/// ``ExtensionLogSummary`` one line an hour.
package enum ExtensionLogCSV {
    /// The rows file: the header, then one push a line. Built as bytes, digit by digit: string
    /// interpolation would dominate a logged run's time.
    package static func rows(_ rows: [LoggedPush]) -> String {
        var bytes = Array((LoggedPush.columns.joined(separator: ",") + "\n").utf8)
        bytes.reserveCapacity(bytes.count + rows.count * 32)
        let words = LogAnswer.allCases.map { Array($0.rawValue.utf8) }
        for row in rows {
            appendDecimal(row.device, to: &bytes); bytes.append(0x2C)
            appendDecimal(Int(row.time), to: &bytes); bytes.append(0x2C)
            appendDecimal(row.position, to: &bytes); bytes.append(0x2C)
            bytes.append(row.gapFound ? 0x31 : 0x30); bytes.append(0x2C)
            appendDecimal(row.gapSize, to: &bytes); bytes.append(0x2C)
            bytes.append(contentsOf: words[row.answer.ordinal]); bytes.append(0x0A)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `value` in decimal: its digits from the last, then turned around in place.
    private static func appendDecimal(_ value: Int, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(0x2D) }
        let first = bytes.count
        var v = value.magnitude
        repeat {
            bytes.append(UInt8(truncatingIfNeeded: v % 10) + 0x30)
            v /= 10
        } while v > 0
        // swapAt rather than reversing a slice, which would copy the whole array each time.
        var i = first, j = bytes.count - 1
        while i < j { bytes.swapAt(i, j); i += 1; j -= 1 }
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
            var fields: [String] = [String(h.hour), String(h.pushes), String(h.gaps), String(format: "%.6f", h.gapsPerPush),
                                    String(h.missed)]
            fields += h.gapSizes.map { String($0) }
            fields.append(String(h.reRequests))
            fields += h.answers.map { String($0) }
            fields.append(String(h.devices))
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
