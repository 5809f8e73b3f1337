// Reading the limits a user gives (`--max-events N`, `--max-memory SIZE`) into ResourceEstimate.Limits.

extension ResourceEstimate.Limits {
    /// Why a limit given on the command line cannot be used.
    package struct Problem: Error, CustomStringConvertible, Sendable {
        package var description: String
    }

    /// The machine's defaults, with either limit replaced by the text given for it.
    package static func parse(maxEvents: String?, maxMemory: String?) throws(Problem) -> Self {
        var limits = machineDefaults()
        if let text = maxEvents { limits.maxEvents = try events(text) }
        if let text = maxMemory { limits.maxMemoryBytes = try bytes(text) }
        return limits
    }

    /// A count of events: digits, optionally with a decimal exponent (`5000000`, `4e10`).
    package static func events(_ text: String) throws(Problem) -> Double {
        let allowed = text.unicodeScalars.allSatisfy { ("0"..."9").contains($0) || $0 == "e" || $0 == "E" || $0 == "." }
        guard allowed, let first = text.unicodeScalars.first, ("0"..."9").contains(first),
              let value = Double(text), value.isFinite, value >= 1 else {
            throw Problem(description: "--max-events needs a positive number of events such as 5000000 or 4e10, got '\(text)'")
        }
        return value
    }

    /// A size in bytes: a number with an optional unit K, M, G or T (powers of 1024, `B` or
    /// `iB` allowed after it): `512M`, `4G`, `1.5GiB`, `1000000`.
    package static func bytes(_ text: String) throws(Problem) -> Double {
        let problem = Problem(description: "--max-memory needs a size such as 512M, 4G or 1.5GB, got '\(text)'")
        var number = "", unit = ""
        for s in text.unicodeScalars {
            if unit.isEmpty && (("0"..."9").contains(s) || s == ".") { number.unicodeScalars.append(s) } else { unit.unicodeScalars.append(s) }
        }
        let scales: [String: Double] = ["": 1, "B": 1, "K": 1024, "M": 1024 * 1024, "G": 1024 * 1024 * 1024,
                                        "T": 1024 * 1024 * 1024 * 1024]
        var key = unit.uppercased()
        if key.hasSuffix("IB") { key.removeLast(2) } else if key.count == 2 && key.hasSuffix("B") { key.removeLast() }
        guard let first = number.unicodeScalars.first, ("0"..."9").contains(first), let value = Double(number),
              let scale = scales[key] else { throw problem }
        let bytes = value * scale
        guard bytes.isFinite, bytes >= 1 else { throw problem }
        return bytes
    }
}
