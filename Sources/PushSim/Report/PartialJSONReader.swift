// A small strict JSON reader for partial results: exact integers (64-bit seeds survive), no traps.

/// Why a JSON text could not be read: where, and what was expected.
public struct PartialJSONError: Error, CustomStringConvertible, Sendable {
    public var offset: Int
    public var message: String
    public var description: String { "at byte \(offset): \(message)" }
}

/// Reads JSON text into ``JSONValue``s. Integers without a fraction or exponent stay exact
/// (`.int`, or `.uint` above `Int.max`), which a reader through `Double` would not guarantee for
/// a 64-bit seed. Several documents may follow each other (separated by whitespace), as when
/// the partial results of several shards are concatenated on standard input.
public struct PartialJSONReader {
    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0
    static let maximumDepth = 64

    public init(bytes: [UInt8]) { self.bytes = bytes }
    public init(text: String) { self.bytes = Array(text.utf8) }

    /// Every top-level value of the text, in order.
    public mutating func readAll() throws -> [JSONValue] {
        var values: [JSONValue] = []
        skipWhitespace()
        while index < bytes.count {
            values.append(try readValue())
            skipWhitespace()
        }
        return values
    }

    /// Exactly one value, with nothing but whitespace around it.
    public static func readOne(_ text: String) throws -> JSONValue {
        var reader = PartialJSONReader(text: text)
        let values = try reader.readAll()
        guard values.count == 1, let value = values.first else {
            throw PartialJSONError(offset: 0, message: "expected one JSON value, found \(values.count)")
        }
        return value
    }

    private func fail(_ message: String) -> PartialJSONError {
        PartialJSONError(offset: index, message: message)
    }

    private var found: String {
        guard index < bytes.count else { return "the end of the input" }
        let b = bytes[index]
        return b >= 0x20 && b < 0x7F ? "'\(Character(Unicode.Scalar(b)))'" : "byte \(b)"
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
    }

    private mutating func expect(_ byte: UInt8) throws {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == byte else {
            throw fail("expected '\(Character(Unicode.Scalar(byte)))', found \(found)")
        }
        index += 1
    }

    private mutating func readValue() throws -> JSONValue {
        skipWhitespace()
        guard index < bytes.count else { throw fail("expected a value, found the end of the input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try nested { try $0.readObject() }
        case UInt8(ascii: "["): return try nested { try $0.readArray() }
        case UInt8(ascii: "\""): return .string(try readString())
        case UInt8(ascii: "t"): try readWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try readWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try readWord("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try readNumber()
        default: throw fail("expected a value, found \(found)")
        }
    }

    private mutating func nested(_ body: (inout PartialJSONReader) throws -> JSONValue) throws -> JSONValue {
        depth += 1
        defer { depth -= 1 }
        guard depth <= PartialJSONReader.maximumDepth else { throw fail("nested too deeply") }
        return try body(&self)
    }

    private mutating func readWord(_ word: String) throws {
        for byte in word.utf8 {
            guard index < bytes.count, bytes[index] == byte else { throw fail("expected '\(word)', found \(found)") }
            index += 1
        }
    }

    private mutating func readObject() throws -> JSONValue {
        index += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw fail("expected a key in quotes, found \(found)")
            }
            let key = try readString()
            guard members[key] == nil else { throw fail("the key '\(key)' appears twice") }
            try expect(UInt8(ascii: ":"))
            members[key] = try readValue()
            skipWhitespace()
            guard index < bytes.count else { throw fail("expected ',' or '}', found the end of the input") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
            throw fail("expected ',' or '}', found \(found)")
        }
    }

    private mutating func readArray() throws -> JSONValue {
        index += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
        while true {
            items.append(try readValue())
            skipWhitespace()
            guard index < bytes.count else { throw fail("expected ',' or ']', found the end of the input") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
            throw fail("expected ',' or ']', found \(found)")
        }
    }

    private mutating func readString() throws -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var raw: [UInt8] = []
        func flush() throws {
            guard !raw.isEmpty else { return }
            guard let text = String(validating: raw, as: UTF8.self) else { throw fail("a string is not valid UTF-8") }
            scalars.append(contentsOf: text.unicodeScalars)
            raw.removeAll()
        }
        while true {
            guard index < bytes.count else { throw fail("a string is not closed") }
            let b = bytes[index]
            index += 1
            switch b {
            case UInt8(ascii: "\""):
                try flush()
                return String(scalars)
            case UInt8(ascii: "\\"):
                try flush()
                guard index < bytes.count else { throw fail("a string is not closed") }
                let e = bytes[index]
                index += 1
                switch e {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    var code = try readHex4()
                    if (0xD800..<0xDC00).contains(code) {
                        try readWord("\\u")
                        let low = try readHex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw fail("a lone surrogate in a string") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw fail("an invalid \\u escape") }
                    scalars.append(scalar)
                default: throw fail("an unknown escape in a string")
                }
            default:
                guard b >= 0x20 else { throw fail("a control character inside a string") }
                raw.append(b)
            }
        }
    }

    private mutating func readHex4() throws -> UInt32 {
        guard index + 4 <= bytes.count,
              let text = String(validating: bytes[index..<index + 4], as: UTF8.self),
              let code = UInt32(text, radix: 16) else { throw fail("expected 4 hex digits after \\u") }
        index += 4
        return code
    }

    private mutating func readNumber() throws -> JSONValue {
        let start = index
        var isInteger = true
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        while index < bytes.count {
            let b = bytes[index]
            if b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") { index += 1; continue }
            if b == UInt8(ascii: ".") || b == UInt8(ascii: "e") || b == UInt8(ascii: "E")
                || b == UInt8(ascii: "+") || b == UInt8(ascii: "-") {
                isInteger = false
                index += 1
                continue
            }
            break
        }
        guard let text = String(validating: bytes[start..<index], as: UTF8.self), text != "-" else {
            throw fail("a malformed number")
        }
        if isInteger {
            if let n = Int(text) { return .int(n) }
            if let n = UInt64(text) { return .uint(n) }
            throw fail("the integer \(text) is out of range")
        }
        guard let d = Double(text), d.isFinite else { throw fail("a malformed number '\(text)'") }
        return .double(d)
    }
}
