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
}
