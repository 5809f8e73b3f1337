// One writer of double-quoted strings with backslash escapes, for the YAML printer and the JSON writer.

package enum DoubleQuoted {
    /// `text` between double quotes, with `"`, `\`, newline, tab and carriage return escaped
    /// by a backslash and other control characters as `\uXXXX`. The JSON writer escapes only
    /// the C0 controls, in lower-case hex; the YAML printer also the C1 controls (U+007F…U+009F,
    /// outside YAML's printable set), in upper case. Each keeps the bytes it always wrote.
    package static func text(_ text: String, upperCaseHex: Bool, escapingC1: Bool) -> String {
        if isPlain(text, escapingC1: escapingC1) { return "\"" + text + "\"" }
        var out = "\""
        for s in text.unicodeScalars {
            switch s {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if s.value < 0x20 || (escapingC1 && (0x7F...0x9F).contains(s.value)) {
                    let hex = String(s.value, radix: 16, uppercase: upperCaseHex)
                    out += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
                } else {
                    out.unicodeScalars.append(s)
                }
            }
        }
        return out + "\""
    }

    /// Whether `text` needs no escape, so that its quoted form is the text between two quotes:
    /// no control character, `"` or `\`, and with `escapingC1` nothing from U+007F on.
    package static func isPlain(_ text: String, escapingC1: Bool) -> Bool {
        text.utf8.allSatisfy { byte in
            byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") && (!escapingC1 || byte < 0x7F)
        }
    }
}
