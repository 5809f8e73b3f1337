// Byte sizes and distributions of them (a letter's payload size, docs/scenarios.md §2a, The provider's side of APNs).
import PushSimCore

extension ValueParsers {
    static let byteSizeHint = "a size such as `4096`, `512B`, `2KB` or `1.5KB` (1KB = 1024 bytes)"
    static let byteDistributionHint = "a size, `exponential(MEAN)`, `uniform(MIN, MAX)` or `lognormal(MEDIAN, P99)` of sizes such as `2KB`"

    /// Bytes: a number with an optional unit `B`, `KB` (1024 bytes, as Apple counts the 4 KB
    /// payload limit) or `MB` (1024 KB, for attachments), rounded to the nearest byte; at most 1 GB, far past any push.
    static func byteSize(_ text: String) throws(Failure) -> Int64 {
        var number = text, unit: Double = 1
        if text.hasSuffix("KB") { number = String(text.dropLast(2)); unit = 1024 }
        else if text.hasSuffix("MB") { number = String(text.dropLast(2)); unit = 1_048_576 }  // media attachments
        else if text.hasSuffix("B") { number = String(text.dropLast()) }
        if number.hasPrefix("-") { throw Failure("a size cannot be negative, found `\(text)`") }
        guard let value = decimal(number) else {
            // `1GB`, `2TB`: a number and a unit that is not one of these (the reason is kept
            // even as a distribution's constant, where the hint alone would not say it).
            let letters = text.reversed().prefix { $0.isLetter }.count
            if unit == 1, letters > 1, decimal(String(text.dropLast(letters))) != nil {
                throw Failure("unknown size unit `\(text.suffix(letters))` in `\(text)`: expected B, KB or MB (1KB = 1024 bytes; at most 1024MB)", outOfRange: true)
            }
            throw Failure("expected \(byteSizeHint), found `\(text)`")
        }
        let bytes = (value * unit).rounded(.toNearestOrAwayFromZero)
        guard bytes <= 1_073_741_824 else { throw Failure("a size of at most 1024MB (1048576KB) is expected, found `\(text)`", outOfRange: true) }
        return Int64(bytes)
    }

    /// A distribution of sizes in bytes, in the grammar of the duration distributions.
    static func byteDistribution(_ text: String) throws(Failure) -> Distribution {
        try distribution(text, of: "size", hint: byteDistributionHint, byteSize)
    }
}

extension Distribution {
    /// The distribution in the file syntax, its parameters read as bytes.
    var byteDescription: String {
        func b(_ bytes: Double) -> String { "\(Int64(bytes.rounded(.toNearestOrAwayFromZero)))B" }
        switch self {
        case .constant(let t): return "\(t.microseconds)B"
        case .exponential(let m): return "exponential(\(b(m)))"
        case .uniform(let a, let c): return "uniform(\(b(a)), \(b(c)))"
        case .lognormal(let m, let p): return "lognormal(\(b(m)), \(b(p)))"
        }
    }
}
