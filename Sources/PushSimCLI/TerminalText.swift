// Text bound for a terminal, made inert: control characters and bidirectional overrides become visible escapes.

/// Makes text safe to print: anything a terminal would act on instead of showing (ESC
/// sequences, other C0 and C1 controls, DEL) and the invisible characters that reorder or
/// break what is shown (bidirectional overrides and isolates, line and paragraph separators)
/// become `\uXXXX`. Line feeds, carriage returns (progress lines) and tabs stay.
///
/// The escape is JSON's: inside a JSON string it means the same character, so a JSON document
/// printed through this still parses to the same values.
enum TerminalText {
    /// Whether printing `scalar` raw could change what a terminal shows around it.
    static func isInert(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: return true
        case 0x00...0x1F, 0x7F...0x9F: return false
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return false   // bidi controls
        case 0x2028, 0x2029: return false                                             // line/paragraph separators
        default: return true
        }
    }

    /// `text` with every scalar that is not inert written as `\uXXXX` (a surrogate pair above U+FFFF).
    static func sanitized(_ text: String) -> String {
        guard !text.unicodeScalars.allSatisfy(isInert) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isInert(scalar) { out.append(scalar); continue }
            for unit in String(scalar).utf16 {
                let hex = String(unit, radix: 16, uppercase: true)
                out.append(contentsOf: ("\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex).unicodeScalars)
            }
        }
        return String(out)
    }
}
