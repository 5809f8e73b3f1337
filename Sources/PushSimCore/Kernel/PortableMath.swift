// log and exp written with + − × ÷ only, so every platform computes the same bits.

/// Logarithm and exponential computed from IEEE-754 basic operations alone.
///
/// The C library's `log`, `exp` and `cos` are allowed to differ in the last bit between
/// platforms (and glibc uses fused multiply-add where the processor has it). A sampled duration
/// is rounded to a whole microsecond, so such a bit rarely matters — but "same seed, same
/// answer on any machine" must hold always, so the samplers use these instead. Basic
/// operations and `squareRoot()` are correctly rounded everywhere, and Swift does not contract
/// `a * b + c` into a fused operation on its own. Accuracy is within a few units in the last
/// place, far below the microsecond rounding that follows.
package enum PortableMath {
    static let ln2High = 6.93147180369123816490e-01   // ln 2 with its low 32 bits cleared
    static let ln2Low = 1.90821492927058770002e-10    // ln 2 − ln2High
    static let sqrtHalf = 0.70710678118654752440
    static let invLn2 = 1.44269504088896338700

    /// Natural logarithm. `log(0) = -inf`; negative or NaN input gives NaN.
    package static func log(_ x: Double) -> Double {
        if x.isNaN || x < 0 { return .nan }
        if x == 0 { return -.infinity }
        if x.isInfinite { return .infinity }
        // x = m · 2^e with m in [√½, √2), so s = (m − 1)/(m + 1) is small: |s| ≤ 0.1716.
        // The split is read off the bits (subnormals are scaled up by 2^54 first).
        var bits = x.bitPattern
        var e = -1023.0
        if bits >> 52 == 0 {
            bits = (x * 0x1p54).bitPattern
            e -= 54
        }
        e += Double(bits >> 52)
        var m = Double(bitPattern: (bits & 0x000F_FFFF_FFFF_FFFF) | 0x3FF0_0000_0000_0000)
        if m > 2 * sqrtHalf { m *= 0.5; e += 1 }
        let s = (m - 1) / (m + 1)
        let s2 = s * s
        // log m = 2·atanh(s) = 2s·(1 + s²/3 + s⁴/5 + …); s² ≤ 0.0295, so terms to s²⁴ reach
        // 1e-18. The coefficients are constant expressions, folded when compiled.
        let tail = 1.0 / 17 + s2 * (1.0 / 19 + s2 * (1.0 / 21 + s2 * (1.0 / 23 + s2 * (1.0 / 25))))
        let series = 1.0 / 3 + s2 * (1.0 / 5 + s2 * (1.0 / 7 + s2 * (1.0 / 9 + s2 * (1.0 / 11
            + s2 * (1.0 / 13 + s2 * (1.0 / 15 + s2 * tail))))))
        let logM = 2 * s * (1 + s2 * series)
        return e * ln2High + (logM + e * ln2Low)
    }

    /// The exponential function; overflows to +inf and underflows to 0 like the C library's.
    package static func exp(_ x: Double) -> Double {
        if x.isNaN { return .nan }
        if x > 709.782712893384 { return .infinity }
        if x < -745.1332191019412 { return 0 }
        // x = k·ln 2 + r with |r| ≤ ½ ln 2; e^r by its Taylor series to r¹⁵ (the rest < 1e-18).
        let k = roundedHalfAwayFromZero(x * invLn2)
        let r = (x - k * ln2High) - k * ln2Low
        let high = 1.0 / 40320 + r * (1.0 / 362880 + r * (1.0 / 3628800 + r * (1.0 / 39916800
            + r * (1.0 / 479001600 + r * (1.0 / 6227020800 + r * (1.0 / 87178291200 + r * (1.0 / 1307674368000)))))))
        let sum = 1 + r * (1 + r * (1.0 / 2 + r * (1.0 / 6 + r * (1.0 / 24 + r * (1.0 / 120
            + r * (1.0 / 720 + r * (1.0 / 5040 + r * high)))))))
        return scaleByPowerOfTwo(sum, Int(k))
    }

    /// The exponential for the samplers' hot path: e^x = 2^m · 2^(j/64) · e^r with |r| ≤ ln 2/128,
    /// the 64 powers 2^(j/64) from a table built once with ``exp(_:)``, and e^r by a degree-5
    /// polynomial (the rest is below 4e-17). About a third of the work of ``exp(_:)`` for the
    /// same accuracy (within a few units in the last place, tested), and the same portability:
    /// basic operations only.
    @inline(__always)
    package static func tableExp(_ x: Double, _ powers: PowersOfTwo = PowersOfTwo.sixtyFourths) -> Double {
        // One test sends NaN, infinities and the edges of the range to the careful path.
        guard x.magnitude < 700 else { return tableExpOutsideTheCore(x, powers) }
        // The nearest integer to x·64/ln 2 (|·| < 2^16); a tie going to even only picks the
        // other, equally valid, k.
        let (nearest, k) = nearestEven(x * (64 * invLn2))
        let whole = Int(truncatingIfNeeded: nearest)
        // ln2High / 64 keeps the low bits of ln2High clear, so k times it is exact.
        let r = (x - k * (ln2High / 64)) - k * (ln2Low / 64)
        let j = whole & 63
        let p = 1 + r * (1 + r * (1.0 / 2 + r * (1.0 / 6 + r * (1.0 / 24 + r * (1.0 / 120)))))
        // |whole >> 6| < 1010, so the power of two is a normal number: build it directly.
        return (powers[j] * p) * Double(bitPattern: UInt64(truncatingIfNeeded: (whole >> 6) &+ 1023) << 52)
    }

    /// ``tableExp(_:_:)`` for |x| ≥ 700, NaN and infinities: overflow, underflow, subnormals.
    @inline(never)
    static func tableExpOutsideTheCore(_ x: Double, _ powers: PowersOfTwo) -> Double {
        if x.isNaN { return .nan }
        if x > 709.782712893384 { return .infinity }
        if x < -745.1332191019412 { return 0 }
        let whole = nearestInteger(x * (64 * invLn2))
        let k = Double(whole)
        // ln2High / 64 keeps the low bits of ln2High clear, so k times it is exact.
        let r = (x - k * (ln2High / 64)) - k * (ln2Low / 64)
        let j = whole & 63
        let p = 1 + r * (1 + r * (1.0 / 2 + r * (1.0 / 6 + r * (1.0 / 24 + r * (1.0 / 120)))))
        return scaleByPowerOfTwo(powers[j] * p, (whole &- j) >> 6)
    }

    /// 2^(j/64) for j in 0..<64, computed once by the series ``exp(_:)``. A hot loop passes
    /// it to ``tableExp(_:_:)`` itself, fetching the lazily built table once. Fixed-size, so
    /// an index masked to 6 bits is within it without a bounds check.
    /// It copies as a plain value (a sampler that holds it stays trivially copyable).
    package struct PowersOfTwo: Sendable {
        private let values: Immortal<InlineArray<64, Double>>

        private init() {
            var values = InlineArray<64, Double>(repeating: 1)
            for j in 1..<64 { values[j] = PortableMath.exp(Double(j) * (ln2High + ln2Low) / 64) }
            self.values = Immortal(values)
        }

        package static let sixtyFourths = PowersOfTwo()

        @inline(__always) subscript(j: Int) -> Double { values.value[j] }
    }

    /// The integer nearest to y (ties to even), as an integer and as a double, for |y| < 2^51,
    /// without a checked conversion: adding 1.5·2^52 rounds y to an integer and leaves it in
    /// the low bits of the sum's bit pattern.
    @inline(__always) static func nearestEven(_ y: Double) -> (integer: Int64, value: Double) {
        let shifted = y + 0x1.8p52
        return (Int64(bitPattern: shifted.bitPattern &- 0x4338_0000_0000_0000), shifted - 0x1.8p52)
    }

    /// `y.rounded()` without its libm call (a hot path): for |y| < 2^52 both the
    /// truncation and the fraction it leaves are exact, so this is the same value.
    @inline(__always) static func roundedHalfAwayFromZero(_ y: Double) -> Double {
        Double(nearestInteger(y))
    }

    /// The integer `y.rounded()` gives (half away from zero), for |y| < 2^52, with one
    /// conversion: the truncation and the fraction it leaves are both exact.
    @inline(__always) static func nearestInteger(_ y: Double) -> Int {
        let whole = Int(y)
        let fraction = y - Double(whole)
        if fraction >= 0.5 { return whole &+ 1 }
        if fraction <= -0.5 { return whole &- 1 }
        return whole
    }

    /// m · 2^k, exact unless the result is subnormal (then rounded once).
    @inline(__always) static func scaleByPowerOfTwo(_ m: Double, _ k: Int) -> Double {
        if k >= -1022 && k <= 1023 { return m * Double(bitPattern: UInt64(k + 1023) << 52) }
        // Out of the normal range: two steps keep every intermediate finite until the last.
        let half = k / 2
        return m * Double(bitPattern: UInt64(half + 1023) << 52)
            * Double(bitPattern: UInt64(k - half + 1023) << 52)
    }
}
