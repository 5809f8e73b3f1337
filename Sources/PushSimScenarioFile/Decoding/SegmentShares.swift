// Segment shares as exact decimals, and the device boundaries B(i) they give (docs/scenarios.md §2a, Populations).

/// A share exactly as written: `numerator / 10^places` (`60%` is 60/10², `0.25` is 25/10²).
///
/// Floating point would make `0.1 + 0.2 + 0.7` miss 1 and move boundaries by a device; the
/// contract asks for the decimals as written, so the arithmetic is on integers: 18 decimal
/// places keep every numerator and every partial sum below 2⁶³, and the boundary's product
/// `devices × numerator` is taken in full width (128 bits).
struct DecimalShare: Equatable, Sendable {
    var numerator: UInt64
    var places: Int

    /// The most decimal places a share may have (trailing zeros do not count).
    static let maxPlaces = 18

    /// Reads a probability already checked by ``ValueParsers/probability(_:)`` (a decimal in
    /// [0, 1] or a percentage in [0%, 100%]).
    init(_ text: String) throws(ValueParsers.Failure) {
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
            throw ValueParsers.Failure("expected a share such as `0.25` or `60%`, found `\(text)`")
        }
        guard value <= DecimalShare.power(places) else {
            throw ValueParsers.Failure("a probability is between 0 and 1 (or 0% and 100%), found `\(text)`")
        }
        numerator = value; self.places = places
    }

    init(numerator: UInt64, places: Int) { self.numerator = numerator; self.places = places }

    /// 10^n for n ≤ 18.
    static func power(_ n: Int) -> UInt64 {
        var p: UInt64 = 1
        for _ in 0..<n { p *= 10 }
        return p
    }

    /// The value written in decimal (`0.95`), for messages.
    static func text(_ numerator: UInt64, places: Int) -> String {
        let scale = power(places)
        let whole = numerator / scale
        guard places > 0, numerator % scale != 0 else { return String(whole) }
        var fraction = String(numerator % scale)
        fraction = String(repeating: "0", count: places - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(whole).\(fraction)"
    }
}

enum SegmentShares {
    /// Where the running sum of `shares` first passes 1 (its index), or nil. With the common
    /// denominator 10^K (K the most places), each partial sum stays ≤ 2·10^18.
    static func firstPassingOne(_ shares: [DecimalShare]) -> Int? {
        let places = shares.map(\.places).max() ?? 0
        let one = DecimalShare.power(places)
        var sum: UInt64 = 0
        for (i, share) in shares.enumerated() {
            sum += share.numerator * DecimalShare.power(places - share.places)
            if sum > one { return i }
        }
        return nil
    }

    /// The exact sum as `numerator / 10^places` (call only when no partial sum passes 1).
    static func sum(_ shares: [DecimalShare]) -> (numerator: UInt64, places: Int) {
        let places = shares.map(\.places).max() ?? 0
        let total = shares.reduce(UInt64(0)) { $0 + $1.numerator * DecimalShare.power(places - $1.places) }
        return (total, places)
    }

    /// `B(i) = floor(devices × (share_1 + … + share_i) + 1/2)` for each i, exactly; the last is
    /// `devices`. Shares must add up to exactly 1. Segment i holds `[B(i−1), B(i))`, B(0) = 0.
    static func boundaries(devices: Int, shares: [DecimalShare]) -> [Int] {
        let places = shares.map(\.places).max() ?? 0
        let scale = DecimalShare.power(places)
        let count = UInt64(max(0, devices))
        var partial: UInt64 = 0
        var result: [Int] = []
        for share in shares {
            partial += share.numerator * DecimalShare.power(places - share.places)
            // devices × partial / scale = q + r/scale; + 1/2 then floor: q, plus one when 2r ≥ scale.
            let product = count.multipliedFullWidth(by: min(partial, scale))
            let (q, r) = scale.dividingFullWidth(product)
            result.append(Int(q + (r >= scale - r ? 1 : 0)))
        }
        if !result.isEmpty { result[result.count - 1] = devices }
        return result
    }
}
