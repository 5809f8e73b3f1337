// Reading an extension log CSV (`run --logs`, or a team's own) back into rows, every bad row a located error.
import Foundation
import PushSimCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads the rows of an extension log (docs/scenarios.md, "The extension's log"): the header
/// `device,time_us,position,gap_found,gap_size,answer`, then one push a row. Its summary,
/// ``ExtensionLogSummary``, is what a simulated run's log gives, so a team's own log can be put
/// beside a run's (and is what `calibrate` reads). A bad row is a ``ScenarioError`` at
/// `file:line:column` of the field at fault; nothing traps (numbers are built digit by digit
/// with overflow checks).
package enum ExtensionLogReader {
    /// The largest log accepted: about 20 million rows.
    package static let maxBytes = 1 << 30

    private struct RowError: Error {
        var line: Int
        var fieldStart: Int
        var message: String
    }

    /// The shortest row (`0,0,1,0,0,none` and its line end): a log holds at most its size over this many rows.
    package static let shortestRowBytes = 15
    /// Bytes one row read takes: the row (40 B) in an array that may double, and the summary's share.
    package static let bytesPerRow = 96

    /// The most memory reading a log of `fileBytes` can take: the file and its rows.
    package static func memoryNeeded(fileBytes: Int64) -> Double {
        Double(fileBytes) + Double(fileBytes) / Double(shortestRowBytes) * Double(bytesPerRow)
    }

    /// Reads the log at `path`; refused unread, from its size alone (as a mail trace is), when
    /// reading it could take more than `memoryLimit` bytes (`--max-memory`).
    package static func read(path: String, memoryLimit: Double = .infinity) throws -> [LoggedPush] {
        var info = stat()
        if stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size <= off_t(maxBytes) {
            let needed = memoryNeeded(fileBytes: Int64(info.st_size))
            if needed > memoryLimit {
                throw ScenarioError(location: nil, message: "the extension log \(YAMLNode.doubleQuoted(path)) is \(info.st_size) bytes: reading it could take \(MailTraceReader.sizeText(needed)) of memory (the file and \(bytesPerRow) bytes a row), over the limit of \(MailTraceReader.sizeText(memoryLimit)) (--max-memory); expected a smaller log (a sample of its devices), or a larger --max-memory")
            }
        }
        let bytes: [UInt8]
        do {
            bytes = try BoundedInput.readRegularFile(path: path, limit: maxBytes, role: "the extension log")
        } catch {
            throw ScenarioError(location: nil, message: "cannot read the extension log \(YAMLNode.doubleQuoted(path)): \(error.reason)")
        }
        return try read(bytes: bytes, file: path)
    }

    /// Reads a log from bytes in memory; errors name `file`.
    package static func read(bytes: [UInt8], file: String) throws -> [LoggedPush] {
        try bytes.withUnsafeBufferPointer { buffer in
            do {
                return try rows(buffer)
            } catch let error as RowError {
                throw ScenarioError(location: SourceLocation(file: file, line: error.line,
                                                             column: CSVText.column(of: error.fieldStart, inLineOf: error.line, buffer)),
                                    message: error.message)
            }
        }
    }

    private static var header: String { LoggedPush.columns.joined(separator: ",") }

    private static func rows(_ bytes: UnsafeBufferPointer<UInt8>) throws -> [LoggedPush] {
        var rows: [LoggedPush] = []
        // The summary adds the gap sizes (an hour's `missed`, the log's total): their sum must
        // be a count, so a log whose sizes add past 2^63 - 1 is refused at the row that passes it.
        var missed = 0
        try CSVText.forEachRow(bytes, header: header, wrongHeader: { line, found in
            RowError(line: line, fieldStart: 0, message: "expected the header `\(header)` on the first line of an extension log, found \(found)")
        }) { line, start, end in
            let pushed = try row(bytes, start, end, line: line)
            let (sum, overflow) = missed.addingReportingOverflow(pushed.gapSize)
            if overflow {
                throw RowError(line: line, fieldStart: gapSizeStart(bytes, start, end),
                               message: "`gap_size`: the gap sizes of the log add up past \(Int.max), more positions than a log can miss; expected the sizes of real gaps, found \(pushed.gapSize) after \(missed) in the rows above")
            }
            missed = sum
            rows.append(pushed)
        }
        return rows
    }

    /// Where the fifth field (`gap_size`) of a row starts, from the row's start.
    private static func gapSizeStart(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int {
        var commas = 0
        for i in start..<end where bytes[i] == 0x2C {
            commas += 1
            if commas == 4 { return i + 1 - start }
        }
        return 0
    }

    /// One row: its six fields, each checked, and the rules across them.
    private static func row(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, line: Int) throws -> LoggedPush {
        var fields: [Range<Int>] = []
        var from = start
        for i in start...end where i == end || bytes[i] == 0x2C {
            fields.append(from..<i)
            from = i + 1
        }
        guard fields.count == LoggedPush.columns.count else {
            let at = fields.count > LoggedPush.columns.count ? fields[LoggedPush.columns.count].lowerBound - 1 : end
            throw RowError(line: line, fieldStart: at - start,
                           message: "expected \(LoggedPush.columns.count) fields `\(header)` such as `17,3600000000,42,1,2,answered`, found \(fields.count) in \(CSVText.quoted(bytes, start, end))")
        }
        func number(_ f: Int, atLeast minimum: Int, _ what: String) throws -> Int {
            let field = fields[f]
            var value = 0
            var overflow = false
            for i in field {
                guard CSVText.isDigit(bytes[i]) else { value = -1; break }
                let (times10, o1) = value.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times10.addingReportingOverflow(Int(bytes[i] - 0x30))
                overflow = overflow || o1 || o2
                value = sum
            }
            guard !field.isEmpty, value >= minimum, !overflow else {
                throw RowError(line: line, fieldStart: field.lowerBound - start,
                               message: "`\(LoggedPush.columns[f])`: expected \(what) (decimal digits, at least \(minimum)), found \(CSVText.quoted(bytes, field.lowerBound, field.upperBound))")
            }
            return value
        }
        let device = try number(0, atLeast: 0, "a device number")
        let time = try number(1, atLeast: 0, "microseconds since time 0")
        let position = try number(2, atLeast: 1, "XIVA's position of the push")
        let found = fields[3]
        guard found.count == 1, bytes[found.lowerBound] == 0x30 || bytes[found.lowerBound] == 0x31 else {
            throw RowError(line: line, fieldStart: found.lowerBound - start,
                           message: "`gap_found`: expected `0` or `1`, found \(CSVText.quoted(bytes, found.lowerBound, found.upperBound))")
        }
        let gapFound = bytes[found.lowerBound] == 0x31
        let gapSize = try number(4, atLeast: 0, "the number of positions missing")
        if gapFound != (gapSize > 0) {
            throw RowError(line: line, fieldStart: fields[4].lowerBound - start,
                           message: "`gap_size`: expected \(gapFound ? "at least 1 with `gap_found` 1" : "0 with `gap_found` 0"), found \(gapSize)")
        }
        let word = fields[5]
        guard let answer = LogAnswer.allCases.first(where: { CSVText.equals(bytes, word.lowerBound, word.upperBound, $0.rawValue) }) else {
            throw RowError(line: line, fieldStart: word.lowerBound - start,
                           message: "`answer`: expected one of \(LogAnswer.allCases.map { "`\($0.rawValue)`" }.joined(separator: ", ")), found \(CSVText.quoted(bytes, word.lowerBound, word.upperBound))")
        }
        if gapFound == (answer == .none) {
            throw RowError(line: line, fieldStart: word.lowerBound - start,
                           message: gapFound ? "`answer`: a row with a gap has an answer other than `none`, found `none`"
                                             : "`answer`: a row without a gap has the answer `none`, found `\(answer.rawValue)`")
        }
        return LoggedPush(device: device, time: Int64(time), position: position, gapSize: gapSize, answer: answer)
    }
}
