// The one error type of scenario reading: where the input is wrong, and what was expected there.

/// A bad scenario file or `--set` override.
///
/// Every message says what was expected and what was found. Errors in a `--set` argument carry
/// the file name `--set`, line 1, and the column within the whole `PATH=VALUE` argument, so the
/// same `file:line:column: message` form points at the offending character there too.
package struct ScenarioError: Error, CustomStringConvertible, Sendable {
    /// nil only when there is no text to point into (an unreadable file).
    package var location: SourceLocation?
    package var message: String

    /// `message` is kept readable whatever the input: a quoted piece of the input longer than
    /// ``quoteLimit`` is shortened around an ellipsis, and the whole message to ``messageLimit``.
    package init(location: SourceLocation?, message: String) {
        self.location = location; self.message = ScenarioError.abbreviated(message)
    }

    /// The longest `quoted` piece of input a message repeats in full.
    package static let quoteLimit = 80
    /// The longest message, in Unicode scalars.
    package static let messageLimit = 1_000

    /// Shortens long backquoted spans (a line of megabytes quoted back is no help), then the
    /// whole message, keeping its start and its end (where the hint is).
    static func abbreviated(_ message: String) -> String {
        let scalars = Array(message.unicodeScalars)
        guard scalars.count > quoteLimit else { return message }
        var out = String.UnicodeScalarView()
        var i = 0
        while i < scalars.count {
            let s = scalars[i]
            out.append(s)
            i += 1
            guard s == "`" else { continue }
            // A span runs to the next backquote (or the end).
            var j = i
            while j < scalars.count && scalars[j] != "`" { j += 1 }
            if j - i > quoteLimit {
                out.append(contentsOf: scalars[i..<(i + quoteLimit - 20)])
                out.append("…")
                out.append(contentsOf: scalars[(j - 10)..<j])
            } else {
                out.append(contentsOf: scalars[i..<j])
            }
            if j < scalars.count { out.append("`") }
            i = j + 1
        }
        if out.count > messageLimit {
            let all = Array(out)
            var cut = String.UnicodeScalarView()
            cut.append(contentsOf: all[..<(messageLimit * 2 / 3)])
            cut.append(contentsOf: " … ".unicodeScalars)
            cut.append(contentsOf: all[(all.count - messageLimit / 4)...])
            return String(cut)
        }
        return String(out)
    }

    /// `file:line:column: message`.
    package var description: String {
        guard let location else { return message }
        return "\(location): \(message)"
    }

    /// The file name errors in `--set` arguments carry.
    package static let overrideFile = "--set"
}
