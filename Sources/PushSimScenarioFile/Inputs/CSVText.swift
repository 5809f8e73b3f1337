// The byte-level pieces every CSV reader of ours shares: digits, a header's match, a quoted field, a column.

/// Helpers for readers that scan a CSV file's bytes in place (the mail trace, the extension's log).
enum CSVText {
    static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

    /// Whether bytes `from..<to` are exactly `text`.
    static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int, _ text: String) -> Bool {
        let expected = Array(text.utf8)
        return to - from == expected.count && expected.indices.allSatisfy { bytes[from + $0] == expected[$0] }
    }

    /// A piece of the file quoted for a message (ScenarioError shortens long ones).
    static func quoted(_ bytes: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) -> String {
        if to <= from { return "nothing" }
        let piece = String(decoding: UnsafeBufferPointer(rebasing: bytes[from..<min(to, from + 200)]), as: UTF8.self)
        return "`\(piece)`"
    }

    /// The 1-based column, in characters, of byte `offset` of line `line` (only on an error).
    static func column(of offset: Int, inLineOf line: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var start = 0, current = 1
        while current < line, start < bytes.count {
            if bytes[start] == 0x0A { current += 1 }
            start += 1
        }
        // Bytes that do not continue a UTF-8 sequence each start one character.
        var column = 1
        var i = start
        while i < min(start + offset, bytes.count) {
            if bytes[i] & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
        return column
    }

    /// Where a file's first line starts: after a byte-order mark, if one opens the file.
    static func firstLineStart(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
    }

    /// Calls `row` with the 1-based line number and the byte range of each row after the header,
    /// in file order: a byte-order mark may open the file, blank lines before the header and
    /// between rows are skipped, a line may end with CR LF. A first line that is not `header`
    /// throws `wrongHeader(line, found)`, `found` the line quoted.
    static func forEachRow(_ bytes: UnsafeBufferPointer<UInt8>, header: String, wrongHeader: (Int, String) -> Error,
                           _ row: (_ line: Int, _ start: Int, _ end: Int) throws -> Void) throws {
        var line = 0
        var start = firstLineStart(bytes)
        var sawHeader = false
        while start < bytes.count || (line == 0 && !sawHeader) {
            line += 1
            var end = start
            while end < bytes.count && bytes[end] != 0x0A { end += 1 }
            let next = end + 1
            if end > start && bytes[end - 1] == 0x0D { end -= 1 }
            defer { start = next }
            if !sawHeader {
                if end == start && next < bytes.count { continue }
                guard equals(bytes, start, end, header) else { throw wrongHeader(line, quoted(bytes, start, end)) }
                sawHeader = true
                continue
            }
            if end == start { continue }
            try row(line, start, end)
        }
    }
}
