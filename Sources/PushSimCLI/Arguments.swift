// A small argument parser: positionals, flags, and options that take a value (repeatable).

/// Why a command line could not be used; printed with the command's usage, exit status 2.
package struct UsageError: Error, CustomStringConvertible {
    package var message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}

/// The parsed words of a command line.
package struct Arguments {
    package private(set) var positionals: [String] = []
    private var flags: Set<String> = []
    private var options: [String: [String]] = [:]

    /// Parses `words` given which names are flags and which take a value. `--name=value` and
    /// `--name value` are both accepted; `--` ends the options.
    package init(_ words: [String], flags flagNames: Set<String>, options optionNames: Set<String>) throws {
        var index = 0
        var onlyPositionals = false
        while index < words.count {
            let word = words[index]
            index += 1
            if onlyPositionals || !word.hasPrefix("--") || word == "-" {
                positionals.append(word)
                continue
            }
            if word == "--" { onlyPositionals = true; continue }
            var name = String(word.dropFirst(2))
            var value: String?
            if let eq = name.firstIndex(of: "=") {
                value = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            if flagNames.contains(name) {
                if value != nil { throw UsageError("--\(name) takes no value") }
                flags.insert(name)
            } else if optionNames.contains(name) {
                if value == nil {
                    guard index < words.count else { throw UsageError("--\(name) needs a value") }
                    value = words[index]
                    index += 1
                }
                options[name, default: []].append(value ?? "")
            } else {
                let known = (flagNames.union(optionNames)).sorted()
                let hint = nearest(name, among: known).map { " (did you mean --\($0)?)" } ?? ""
                throw UsageError("unknown option --\(name)\(hint)")
            }
        }
    }

    package func flag(_ name: String) -> Bool { flags.contains(name) }
    /// The last value given for an option.
    package func value(_ name: String) -> String? { options[name]?.last }
    /// Every value given for a repeatable option, in order.
    package func values(_ name: String) -> [String] { options[name] ?? [] }

    /// An option parsed as an integer in a range.
    package func integer(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let text = value(name) else { return nil }
        guard let n = Int(text), range.contains(n) else {
            throw UsageError("--\(name) needs a whole number from \(range.lowerBound) to \(range.upperBound), got '\(text)'")
        }
        return n
    }
}

/// The closest of `candidates` to `word` by edit distance, if close enough to be a likely typo.
func nearest(_ word: String, among candidates: [String]) -> String? {
    func distance(_ a: [Character], _ b: [Character]) -> Int {
        var previous = Array(0...b.count)
        for (i, ca) in a.enumerated() {
            var current = [i + 1]
            for (j, cb) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (ca == cb ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
    let a = Array(word)
    let scored = candidates.map { ($0, distance(a, Array($0))) }.sorted { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0 < $1.0) }
    guard let best = scored.first, best.1 <= max(2, word.count / 3) else { return nil }
    return best.0
}
