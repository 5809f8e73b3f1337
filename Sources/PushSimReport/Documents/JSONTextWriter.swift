// JSON text written as bytes: members in sorted key order, compact or indented.
import PushSimScenarioFile

/// Writes a ``JSONValue`` as UTF-8 bytes, which cost less to append to than a `String`
/// (documents of stored runs hold thousands of numbers). Compact text has no line breaks;
/// indented text starts each member on a line of its own.
struct JSONTextWriter {
    private var bytes: [UInt8] = []
    private let indent: [UInt8]?

    init(indent: String?) {
        self.indent = indent.map { Array($0.utf8) }
    }

    var text: String { String(decoding: bytes, as: UTF8.self) }

    mutating func write(_ value: JSONValue, depth: Int) {
        switch value {
        case .object(let members):
            if members.isEmpty { append("{}"); return }
            bytes.append(UInt8(ascii: "{"))
            for (n, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                if n > 0 { bytes.append(UInt8(ascii: ",")) }
                breakLine(depth: depth + 1)
                appendQuoted(member.key)
                append(indent == nil ? ":" : ": ")
                write(member.value, depth: depth + 1)
            }
            breakLine(depth: depth)
            bytes.append(UInt8(ascii: "}"))
        case .array(let items):
            if items.isEmpty { append("[]"); return }
            bytes.append(UInt8(ascii: "["))
            for (n, item) in items.enumerated() {
                if n > 0 { bytes.append(UInt8(ascii: ",")) }
                breakLine(depth: depth + 1)
                write(item, depth: depth + 1)
            }
            breakLine(depth: depth)
            bytes.append(UInt8(ascii: "]"))
        case .string(let s): appendQuoted(s)
        case .int(let i):
            if i < 0 { bytes.append(UInt8(ascii: "-")) }
            appendDecimal(UInt64(i.magnitude))
        case .uint(let u): appendDecimal(u)
        case .double(let d): append(JSONValue.format(d))
        case .bool(let b): append(b ? "true" : "false")
        case .null: append("null")
        }
    }

    private mutating func append(_ s: String) {
        bytes.append(contentsOf: s.utf8)
    }

    private mutating func breakLine(depth: Int) {
        guard let indent else { return }
        bytes.append(UInt8(ascii: "\n"))
        for _ in 0..<depth { bytes.append(contentsOf: indent) }
    }

    /// The string between double quotes, escaped as ``DoubleQuoted`` escapes JSON; copied
    /// straight from the string when it needs no escape.
    private mutating func appendQuoted(_ s: String) {
        guard DoubleQuoted.isPlain(s, escapingC1: false) else {
            append(DoubleQuoted.text(s, upperCaseHex: false, escapingC1: false))
            return
        }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: s.utf8)
        bytes.append(UInt8(ascii: "\""))
    }

    /// `value` in decimal digits, as `String(value)` writes it, without making the string.
    private mutating func appendDecimal(_ value: UInt64) {
        var digits = 1
        var rest = value
        while rest >= 10 { rest /= 10; digits += 1 }
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: digits))
        rest = value
        for position in stride(from: start + digits - 1, through: start, by: -1) {
            bytes[position] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
    }
}
