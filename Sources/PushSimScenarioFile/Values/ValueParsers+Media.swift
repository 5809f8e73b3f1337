// Parsers for media attachments' values: bandwidths and their distributions (sizes are ByteSizes.swift's), and `extension.media`.
import PushSimCore

extension ValueParsers {
    static let bandwidthHint = "a bandwidth such as `500kbit/s`, `20Mbit/s` (bit/s, kbit/s, Mbit/s, Gbit/s)"

    /// A bandwidth in bits per second.
    static func bandwidth(_ text: String) throws(Failure) -> Double {
        try amount(text, units: [("bit/s", 1), ("kbit/s", 1e3), ("Mbit/s", 1e6), ("Gbit/s", 1e9)], hint: bandwidthHint, noun: "bandwidth")
    }

    /// A number and one of `units` (its name and its size in the base unit), greater than 0.
    private static func amount(_ text: String, units: [(String, Double)], hint: String, noun: String) throws(Failure) -> Double {
        if text.hasPrefix("-") { throw Failure("a \(noun) cannot be negative, found `\(text)`") }
        guard let unit = units.first(where: { text.hasSuffix($0.0) && decimal(String(text.dropLast($0.0.count))) != nil }) else {
            throw Failure("expected \(hint), found `\(text)`")
        }
        let value = (decimal(String(text.dropLast(unit.0.count))) ?? 0) * unit.1
        // Out of range, it keeps this reason even as a constant (not the distribution's hint).
        guard value > 0, value < 1e15 else { throw Failure("expected \(hint) greater than 0 and below 10¹⁵, found `\(text)`", outOfRange: true) }
        return value
    }

    /// A distribution of bandwidths in bits per second, in the grammar of the duration distributions.
    static func bandwidthDistribution(_ text: String) throws(Failure) -> Distribution {
        try distribution(text, of: "bandwidth", hint: "a bandwidth, `exponential(MEAN)`, `uniform(MIN, MAX)` or `lognormal(MEDIAN, P99)` of bandwidths such as `5Mbit/s`") { (t) throws(Failure) in
            // Held in whole bits per second: under a half it would be held as 0 (printed `0bit/s`,
            // which does not read back) and simulated as 1, so it is refused instead.
            let bits = try bandwidth(t).rounded(.toNearestOrAwayFromZero)
            guard bits >= 1 else { throw Failure("a bandwidth is held in whole bits per second: expected at least 1bit/s, found `\(t)`", outOfRange: true) }
            return Int64(bits)
        }
    }
}

extension ScenarioDecoder {
    /// `extension.media`: `share`, `size` and `bandwidth` required, `cache_hit` default 0.
    static func media(_ node: YAMLNode, _ path: String) throws -> MediaAttachments {
        let fields = try Fields(node, path: path, keys: ScenarioSchema.mediaKeys)
        let share = try value(fields.required("share", example: "share: 20%"), path + ".share", "a probability", ValueParsers.probability)
        let size = try value(fields.required("size", example: "size: lognormal(200KB, 5MB)"), path + ".size", "a distribution of sizes", ValueParsers.byteDistribution)
        let bandwidth = try value(fields.required("bandwidth", example: "bandwidth: uniform(500kbit/s, 20Mbit/s)"), path + ".bandwidth",
                                  "a distribution of bandwidths", ValueParsers.bandwidthDistribution)
        var media = MediaAttachments(share: share, size: size, bandwidth: bandwidth)
        try fields.decode("cache_hit", "a probability", ValueParsers.probability) { media.cacheHit = $0 }
        try fields.decode("memory_limit", "a size greater than 0", { (t) throws(ValueParsers.Failure) in
            // A limit of 0 would kill every run with an attachment before it starts: no extension has none.
            let bytes = try ValueParsers.byteSize(t)
            guard bytes > 0 else {
                // Held in whole bytes: `0.4B` is 0, as a distribution's argument says of itself.
                let whole = ValueParsers.decimal(String(t.prefix { $0.isNumber || $0 == "." })).map { $0 > 0 } ?? false
                throw ValueParsers.Failure("expected a memory limit greater than 0 such as `24MB`, found `\(t)`" + (whole ? " (0 in whole bytes)" : ""), outOfRange: true)
            }
            return bytes
        }) { media.memoryLimit = $0 }
        try fields.decode("decode_factor", "a number from 0.01 to 1000", { (t) throws(ValueParsers.Failure) in
            guard let factor = ValueParsers.decimal(t), factor >= 0.01, factor <= 1000 else {
                throw ValueParsers.Failure("expected a number from 0.01 to 1000 (decoded bytes per downloaded byte), found `\(t)`", outOfRange: true)
            }
            return factor
        }) { media.decodeFactor = $0 }
        return media
    }
}
