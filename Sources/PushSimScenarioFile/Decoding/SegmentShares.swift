// Segment shares as exact fractions, and the device boundaries B(i) they give (docs/scenarios.md §2a, Populations).

/// A share exactly as written: `numerator / denominator`, a decimal over a power of ten (`60%`
/// is 60/10², `0.25` is 25/10²) or a fraction as given (`1/3`).
///
/// Floating point would make `0.1 + 0.2 + 0.7` (or `1/3 + 1/3 + 1/3`) miss 1 and move
/// boundaries by a device; the contract asks for the shares as written, so the arithmetic is on
/// integers over a common denominator: 18 decimal places keep every numerator below 2⁶³, a
/// denominator common to every share must stay below 2⁶³ too (refused past it), and the
/// boundary's product `devices × numerator` is taken in full width (128 bits).
struct DecimalShare: Equatable, Sendable {
    var numerator: UInt64
    var denominator: UInt64

    /// The most decimal places a share may have (trailing zeros do not count).
    static let maxPlaces = 18

    /// Reads a probability already checked by ``ValueParsers/probability(_:)`` (a decimal in
    /// [0, 1], a percentage in [0%, 100%], or a fraction `A/B`).
    init(_ text: String) throws(ValueParsers.Failure) {
        if let slash = text.firstIndex(of: "/") {
            guard let (a, b) = ValueParsers.fraction(text, slash: slash), b > 0, a <= b else {
                throw ValueParsers.Failure("expected a share such as `0.25`, `60%` or `1/3`, found `\(text)`")
            }
            let d = DecimalShare.gcd(a, b)
            numerator = a / max(d, 1); denominator = b / max(d, 1)
            return
        }
        let isPercent = text.hasSuffix("%")
        let number = isPercent ? String(text.dropLast()) : text
        let parts = number.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        var whole = String(parts[0])
        var fraction = parts.count > 1 ? String(parts[1]) : ""
        while fraction.hasSuffix("0") { fraction.removeLast() }
        while whole.count > 1 && whole.hasPrefix("0") { whole.removeFirst() }
        let places = fraction.count + (isPercent ? 2 : 0)
        guard places <= DecimalShare.maxPlaces else {
            throw ValueParsers.Failure("a share is added exactly, to at most \(DecimalShare.maxPlaces) decimal places (of the fraction, after a percentage is divided by 100), found `\(text)`")
        }
        // A probability is at most 1: whole ≤ 100 (percent) and the digits fit below 10^19.
        guard let value = UInt64(whole + fraction) else {
            throw ValueParsers.Failure("expected a share such as `0.25`, `60%` or `1/3`, found `\(text)`")
        }
        guard value <= DecimalShare.power(places) else {
            throw ValueParsers.Failure("a probability is between 0 and 1 (or 0% and 100%), found `\(text)`")
        }
        numerator = value; denominator = DecimalShare.power(places)
    }

    init(numerator: UInt64, denominator: UInt64) { self.numerator = numerator; self.denominator = denominator }

    /// 10^n for n ≤ 18.
    static func power(_ n: Int) -> UInt64 {
        var p: UInt64 = 1
        for _ in 0..<n { p *= 10 }
        return p
    }

    static func gcd(_ a: UInt64, _ b: UInt64) -> UInt64 {
        var (x, y) = (a, b)
        while y != 0 { (x, y) = (y, x % y) }
        return x
    }

    /// The value written as a decimal (`0.95`) when its denominator is a power of ten, else as
    /// a reduced fraction (`2/3`), for messages.
    static func text(_ numerator: UInt64, denominator: UInt64) -> String {
        var places = 0
        while places <= maxPlaces && power(places) < denominator { places += 1 }
        if places <= maxPlaces, power(places) == denominator {
            let whole = numerator / denominator
            guard places > 0, numerator % denominator != 0 else { return String(whole) }
            var fraction = String(numerator % denominator)
            fraction = String(repeating: "0", count: places - fraction.count) + fraction
            while fraction.hasSuffix("0") { fraction.removeLast() }
            return "\(whole).\(fraction)"
        }
        let d = gcd(numerator, denominator)
        return "\(numerator / max(d, 1))/\(denominator / max(d, 1))"
    }
}

enum SegmentShares {
    /// The largest common denominator the sums are taken over: every partial sum up to the one
    /// that passes 1 then stays below 2⁶⁴.
    static let maxDenominator: UInt64 = 1 << 62

    /// The least common denominator of `shares`, or nil past ``maxDenominator``.
    static func commonDenominator(_ shares: [DecimalShare]) -> UInt64? {
        var common: UInt64 = 1
        for share in shares {
            let (product, overflow) = (common / DecimalShare.gcd(common, share.denominator)).multipliedReportingOverflow(by: share.denominator)
            guard !overflow, product <= maxDenominator else { return nil }
            common = product
        }
        return common
    }

    /// `share` over the common denominator `common`.
    static func scaled(_ share: DecimalShare, to common: UInt64) -> UInt64 { share.numerator * (common / share.denominator) }

    /// Where the running sum of `shares` first passes 1 (its index), or nil; each partial sum
    /// up to it stays ≤ 2 · common.
    static func firstPassingOne(_ shares: [DecimalShare], common: UInt64) -> Int? {
        var sum: UInt64 = 0
        for (i, share) in shares.enumerated() {
            sum += scaled(share, to: common)
            if sum > common { return i }
        }
        return nil
    }

    /// The exact sum over `common` (call only when no partial sum passes 1).
    static func sum(_ shares: [DecimalShare], common: UInt64) -> UInt64 {
        shares.reduce(UInt64(0)) { $0 + scaled($1, to: common) }
    }

    /// `B(i) = floor(devices × (share_1 + … + share_i) + 1/2)` for each i, exactly; the last is
    /// `devices`. Shares must add up to exactly 1. Segment i holds `[B(i−1), B(i))`, B(0) = 0.
    static func boundaries(devices: Int, shares: [DecimalShare], common scale: UInt64) -> [Int] {
        let count = UInt64(max(0, devices))
        var partial: UInt64 = 0
        var result: [Int] = []
        for share in shares {
            partial += scaled(share, to: scale)
            // devices × partial / scale = q + r/scale; + 1/2 then floor: q, plus one when 2r ≥ scale.
            let product = count.multipliedFullWidth(by: min(partial, scale))
            let (q, r) = scale.dividingFullWidth(product)
            result.append(Int(q + (r >= scale - r ? 1 : 0)))
        }
        if !result.isEmpty { result[result.count - 1] = devices }
        return result
    }
}
