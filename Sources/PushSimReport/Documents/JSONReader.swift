// Reads JSON text back into JSONValues: baselines for `check`, partial results for `merge`, bench baselines.

/// Why a JSON text could not be read: where (line, column) and what was wrong.
package struct JSONReadError: Error, CustomStringConvertible, Sendable {
    package var line: Int
    package var column: Int
    package var message: String
    package var description: String { "line \(line), column \(column): \(message)" }
}

extension JSONValue {
    /// Parses one JSON document (RFC 8259). Integers without a fraction or exponent stay exact:
    /// `.int`, or `.uint` above `Int.max` (a 64-bit seed survives); an integer beyond both is an
    /// error rather than a silently rounded `Double`. Other numbers become `.double`, correctly
    /// rounded, so a number written in shortest round-trip form reads back as the same `Double`.
    package static func parse(_ text: String) throws -> JSONValue {
        var reader = JSONTextReader(Array(text.utf8))
        reader.skipSpace()
        let value = try reader.value(depth: 0)
        reader.skipSpace()
        guard reader.atEnd else { throw reader.error("unexpected text after the JSON document") }
        return value
    }

    /// Parses every JSON document in `text`, one after another, separated by white space (as
    /// when the partial results of several shards are concatenated on standard input).
    package static func parseAll(_ text: String) throws -> [JSONValue] {
        var reader = JSONTextReader(Array(text.utf8))
        var values: [JSONValue] = []
        reader.skipSpace()
        while !reader.atEnd {
            values.append(try reader.value(depth: 0))
            reader.skipSpace()
        }
        return values
    }
}

/// A recursive-descent reader over UTF-8 bytes.
struct JSONTextReader {
    let bytes: [UInt8]
    var index = 0
    static let maxDepth = 64

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { index >= bytes.count }

    func error(_ message: String) -> JSONReadError {
        var line = 1, column = 1
        for byte in bytes[0..<min(index, bytes.count)] {
            if byte == UInt8(ascii: "\n") { line += 1; column = 1 } else if byte & 0xC0 != 0x80 { column += 1 }
        }
        return JSONReadError(line: line, column: column, message: message)
    }

    mutating func skipSpace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    var found: String {
        guard index < bytes.count else { return "the end of the text" }
        let scalar = Unicode.Scalar(bytes[index])
        return bytes[index] < 0x80 ? "'\(Character(scalar))'" : "a non-ASCII byte"
    }

    mutating func value(depth: Int) throws -> JSONValue {
        guard depth < JSONTextReader.maxDepth else { throw error("nested too deeply") }
        guard index < bytes.count else { throw error("expected a value, found the end of the text") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw error("expected a value, found \(found)")
        }
    }

    mutating func literal(_ word: String) throws {
        let expected = Array(word.utf8)
        guard index + expected.count <= bytes.count, Array(bytes[index..<index + expected.count]) == expected else {
            throw error("expected a value, found \(found)")
        }
        index += expected.count
    }

    mutating func object(depth: Int) throws -> JSONValue {
        index += 1
        var members: [String: JSONValue] = [:]
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
        while true {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error("expected a key in quotes, found \(found)")
            }
            let key = try string()
            if members[key] != nil { throw error("the key \"\(key)\" appears twice") }
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':', found \(found)") }
            index += 1
            skipSpace()
            members[key] = try value(depth: depth + 1)
            skipSpace()
            guard index < bytes.count else { throw error("expected ',' or '}', found the end of the text") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
            throw error("expected ',' or '}', found \(found)")
        }
    }

    mutating func array(depth: Int) throws -> JSONValue {
        index += 1
        var items: [JSONValue] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
        while true {
            skipSpace()
            items.append(try value(depth: depth + 1))
            skipSpace()
            guard index < bytes.count else { throw error("expected ',' or ']', found the end of the text") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
            throw error("expected ',' or ']', found \(found)")
        }
    }

    mutating func string() throws -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var run: [UInt8] = []
        func flush() { scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars); run.removeAll() }
        while true {
            guard index < bytes.count else { throw error("unterminated string") }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") { index += 1; break }
            if byte < 0x20 { throw error("a control character inside a string must be escaped") }
            if byte != UInt8(ascii: "\\") { run.append(byte); index += 1; continue }
            flush()
            index += 1
            guard index < bytes.count else { throw error("unterminated string") }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""): scalars.append("\"")
            case UInt8(ascii: "\\"): scalars.append("\\")
            case UInt8(ascii: "/"): scalars.append("/")
            case UInt8(ascii: "b"): scalars.append("\u{08}")
            case UInt8(ascii: "f"): scalars.append("\u{0C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"):
                var code = try hex4()
                if (0xD800..<0xDC00).contains(code), index + 1 < bytes.count,
                   bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                    index += 2
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw error("invalid surrogate pair") }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(code) else { throw error("invalid \\u escape") }
                scalars.append(scalar)
            default:
                index -= 1
                throw error("unknown escape \\\(Character(Unicode.Scalar(escape)))")
            }
        }
        flush()
        return String(scalars)
    }

    mutating func hex4() throws -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("expected four hex digits after \\u") }
        var code: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = hexDigit(bytes[index]) else { throw error("expected four hex digits after \\u") }
            code = code * 16 + digit
            index += 1
        }
        return code
    }

    func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    mutating func number() throws -> JSONValue {
        let start = index
        var integral = true
        func digits() -> Int {
            let from = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - from
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let leadingZero = index < bytes.count && bytes[index] == UInt8(ascii: "0")
        let intDigits = digits()
        guard intDigits > 0 else { throw error("expected digits in a number") }
        if leadingZero && intDigits > 1 { index = start; throw error("a number cannot start with 0") }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            integral = false
            index += 1
            guard digits() > 0 else { throw error("expected digits after '.'") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            integral = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw error("expected digits in the exponent") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if integral {
            if let int = Int(text) { return .int(int) }
            if let uint = UInt64(text) { return .uint(uint) }
            index = start
            throw error("the integer \(text) is out of range")
        }
        guard let double = Double(text), double.isFinite else { index = start; throw error("the number \(text) is out of range") }
        return .double(double)
    }
}
