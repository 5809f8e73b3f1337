// Reading a `mail.trace` CSV (`time,device`, one letter a row) into a MailTrace, every bad row a located error.
import Foundation
import PushSimCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads the letters of a trace file (docs/scenarios.md §2a, "Replaying real traffic").
///
/// The file is read twice without keeping its rows: the first pass checks every row and counts
/// each device's letters, the second puts the times in place (memory: 8 bytes a letter plus
/// one offset a device). No input traps: numbers are built digit by digit with overflow checks.
enum MailTraceReader {
    /// The largest trace file accepted: past it, the letters alone would not fit a run's memory.
    static let maxBytes = 1 << 30
    /// With a trace, device offsets are kept for every device: a bound on that array.
    static let maxDevices = 1 << 26

    /// Why a row is bad: the 1-based line and byte offset of the field in the line.
    private struct RowError: Error {
        var line: Int
        var fieldStart: Int
        var message: String
    }

    /// The most memory reading a trace of `fileBytes` bytes can take: the file itself (read
    /// into memory whole), 8 bytes a letter with a letter in every 4 bytes (`0,0`
    /// and a line feed is the shortest row), and an offset a device. A 1 GiB trace takes about
    /// 3 GiB: known from its size, so a trace too big for `--max-memory` is refused unread.
    static func memoryNeeded(fileBytes: Int64, devices: Int) -> Double {
        3 * Double(max(0, fileBytes)) + 8 * Double(max(0, devices) + 1)
    }

    /// Bytes for a message: `3.0 GB` (powers of 1024, as --max-memory reads them).
    static func sizeText(_ bytes: Double) -> String {
        let units = ["B", "KB", "MB", "GB", "TB"]
        var value = bytes, index = 0
        while value >= 1024 && index < units.count - 1 { value /= 1024; index += 1 }
        return index == 0 ? "\(Int(value)) B" : String(format: "%.1f ", value) + units[index]
    }

    /// Reads the trace at `resolvedPath` (written `written` in the scenario, at `node`);
    /// refused unread when reading it could take more than `memoryLimit` bytes.
    static func read(written: String, resolvedPath: String, duration: SimTime, devices: Int,
                     at node: YAMLNode, keyPath: String, memoryLimit: Double = .infinity) throws -> MailTrace {
        guard devices <= maxDevices else {
            throw ScenarioError(location: node.location,
                                message: "`\(keyPath)`: a trace replays letters for at most \(maxDevices) devices, found `devices: \(devices)`; expected fewer devices")
        }
        // Known from its size alone (stat follows a link), a trace too big for the memory limit
        // is refused before a byte of it is read.
        var info = stat()
        if stat(resolvedPath, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size <= off_t(maxBytes) {
            let size = Int64(info.st_size)
            let needed = memoryNeeded(fileBytes: size, devices: devices)
            if needed > memoryLimit {
                throw ScenarioError(location: node.location, message: "`\(keyPath)`: the trace \(YAMLNode.doubleQuoted(resolvedPath)) is \(size) bytes: reading it could take \(sizeText(needed)) of memory (the file and 8 bytes a letter), over the limit of \(sizeText(memoryLimit)) (--max-memory); expected a smaller trace, or a larger --max-memory")
            }
        }
        let bytes: [UInt8]
        do {
            bytes = try BoundedInput.readRegularFile(path: resolvedPath, limit: maxBytes, role: "the mail trace")
        } catch {
            let why: String
            switch error {
            case .missing: why = "no such file (the path is relative to the scenario file's folder)"
            case .notAFile: why = "it is a folder"
            // Only a regular file has a size to trust: `/dev/zero` or a pipe would never end.
            case .notRegular: why = "it is not a regular file"
            case .tooLarge(_, let size):
                why = "it is \(size.map { "\($0) bytes" } ?? "more than that"), more than the \(maxBytes / 1024 / 1024 / 1024) GiB a trace may hold"
            case .unreadable, .changedWhileRead: why = error.reason
            }
            throw ScenarioError(location: node.location, message: "`\(keyPath)`: cannot read the trace \(YAMLNode.doubleQuoted(resolvedPath)): \(why)")
        }
        return try bytes.withUnsafeBufferPointer { buffer in
            try located(buffer, file: resolvedPath, written: written, duration: duration, devices: devices)
        }
    }

    /// Reads a trace from bytes in memory; errors name `file`. For tests.
    static func read(bytes: [UInt8], file: String, duration: SimTime, devices: Int) throws -> MailTrace {
        try bytes.withUnsafeBufferPointer { try located($0, file: file, written: file, duration: duration, devices: devices) }
    }

    /// ``build(_:written:limit:devices:)`` with a bad row's error placed at `file:line:column`.
    private static func located(_ bytes: UnsafeBufferPointer<UInt8>, file: String, written: String,
                                duration: SimTime, devices: Int) throws -> MailTrace {
        do {
            return try build(bytes, written: written, limit: duration.microseconds, devices: devices)
        } catch let error as RowError {
            throw ScenarioError(location: SourceLocation(file: file, line: error.line, column: CSVText.column(of: error.fieldStart, inLineOf: error.line, bytes)),
                                message: error.message)
        }
    }

    private static func build(_ bytes: UnsafeBufferPointer<UInt8>, written: String, limit: Int64, devices: Int) throws -> MailTrace {
        // Pass 1: check every row, count each device's letters (offsets[d + 1] for now).
        var offsets = [Int](repeating: 0, count: devices + 1)
        try scan(bytes, limit: limit, devices: devices) { _, device in offsets[device + 1] += 1 }
        for d in 0..<devices { offsets[d + 1] += offsets[d] }
        // Pass 2: the times in place, each device's in file order.
        var times = [Int64](repeating: 0, count: offsets[devices])
        var next = offsets
        try scan(bytes, limit: limit, devices: devices) { time, device in
            times[next[device]] = time
            next[device] += 1
        }
        // Each device's times sorted; equal times are equal values, so any sort keeps file order.
        for d in 0..<devices where offsets[d + 1] - offsets[d] > 1 {
            let slice = offsets[d]..<offsets[d + 1]
            if !zip(times[slice], times[slice].dropFirst()).allSatisfy({ $0 <= $1 }) { times[slice].sort() }
        }
        return MailTrace(path: written, offsets: offsets, times: times)
    }

    /// Calls `row` with each letter's time (microseconds) and device, in file order.
    private static func scan(_ bytes: UnsafeBufferPointer<UInt8>, limit: Int64, devices: Int,
                             row: (Int64, Int) -> Void) throws {
        try CSVText.forEachRow(bytes, header: "time,device", wrongHeader: { line, found in
            RowError(line: line, fieldStart: 0, message: "expected the header `time,device` on the first line of a trace, found \(found)")
        }) { line, start, end in
            let lineStart = start
            var comma = start
            while comma < end && bytes[comma] != 0x2C { comma += 1 }
            let time = try microseconds(bytes, start, comma, limit: limit, line: line, lineStart: lineStart)
            guard comma < end else {
                throw RowError(line: line, fieldStart: end - lineStart, message: "expected a row `time,device` such as `3600.5,17`, found \(CSVText.quoted(bytes, start, end)) (no `,`)")
            }
            let device = try deviceNumber(bytes, comma + 1, end, devices: devices, line: line, lineStart: lineStart)
            row(time, device)
        }
    }

    /// `DIGITS[.DIGITS]` seconds → microseconds, rounded half up, below `limit`.
    private static func microseconds(_ bytes: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int, limit: Int64,
                                     line: Int, lineStart: Int) throws -> Int64 {
        // Messages are built only for a bad row: this runs once per letter.
        func bad() -> RowError {
            RowError(line: line, fieldStart: from - lineStart,
                     message: "`time`: expected seconds since time 0 such as `3600` or `12.000250` (digits with an optional decimal part; no sign, no exponent), found \(CSVText.quoted(bytes, from, to))")
        }
        func tooLate() -> RowError {
            RowError(line: line, fieldStart: from - lineStart,
                     message: "`time`: expected a time before `duration` (\(SimTime(microseconds: limit)), letters are generated in [0, duration)), found \(CSVText.quoted(bytes, from, to)) seconds")
        }
        var i = from
        var seconds: Int64 = 0
        var overflow = false
        while i < to, CSVText.isDigit(bytes[i]) {
            if !overflow {
                let (times10, o1) = seconds.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times10.addingReportingOverflow(Int64(bytes[i] - 0x30))
                overflow = o1 || o2; seconds = sum
            }
            i += 1
        }
        guard i > from else { throw bad() }
        var fraction: Int64 = 0, digits = 0, roundUp = false
        if i < to {
            guard bytes[i] == 0x2E, i + 1 < to else { throw bad() }
            i += 1
            while i < to, CSVText.isDigit(bytes[i]) {
                if digits < 6 { fraction = fraction * 10 + Int64(bytes[i] - 0x30) } else if digits == 6 { roundUp = bytes[i] >= 0x35 }
                digits += 1; i += 1
            }
            guard i == to else { throw bad() }
        }
        while digits < 6 { fraction *= 10; digits += 1 }
        let (whole, o3) = seconds.multipliedReportingOverflow(by: SimTime.second)
        let (total, o4) = whole.addingReportingOverflow(fraction + (roundUp ? 1 : 0))
        if overflow || o3 || o4 || total >= limit { throw tooLate() }
        return total
    }

    /// A device id in [0, devices).
    private static func deviceNumber(_ bytes: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int, devices: Int,
                                     line: Int, lineStart: Int) throws -> Int {
        var value = 0
        var tooLarge = false
        for i in from..<max(from, to) {
            guard CSVText.isDigit(bytes[i]) else {
                if bytes[i] == 0x2C {
                    throw RowError(line: line, fieldStart: i - lineStart, message: "expected two fields `time,device`, found a third after \(CSVText.quoted(bytes, from, i))")
                }
                throw RowError(line: line, fieldStart: from - lineStart, message: "`device`: expected a device number (decimal digits) in [0, \(devices)), found \(CSVText.quoted(bytes, from, to))")
            }
            if !tooLarge {
                let (times10, o1) = value.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times10.addingReportingOverflow(Int(bytes[i] - 0x30))
                tooLarge = o1 || o2 || sum >= devices; value = sum
            }
        }
        guard to > from else {
            throw RowError(line: line, fieldStart: from - lineStart, message: "`device`: expected a device number (decimal digits) in [0, \(devices)), found nothing")
        }
        if tooLarge {
            throw RowError(line: line, fieldStart: from - lineStart, message: "`device`: expected a device number in [0, \(devices)) (`devices: \(devices)`), found \(CSVText.quoted(bytes, from, to))")
        }
        return value
    }
}
