// Virtual time: an integer count of microseconds, with saturating arithmetic so `forever` never overflows.

/// A point or a span of virtual time, in whole microseconds.
///
/// `SimTime.forever` is the largest value and absorbs every addition, so a
/// retention or an expiry of `forever` can be added to any instant without a trap.
package struct SimTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    package var microseconds: Int64

    package init(microseconds: Int64) { self.microseconds = microseconds }

    package static let zero = SimTime(microseconds: 0)
    package static let forever = SimTime(microseconds: Int64.max)

    package static let microsecond: Int64 = 1
    package static let millisecond: Int64 = 1_000
    package static let second: Int64 = 1_000_000
    package static let minute: Int64 = 60_000_000
    package static let hour: Int64 = 3_600_000_000
    package static let day: Int64 = 86_400_000_000

    package var isForever: Bool { microseconds == Int64.max }
    package var seconds: Double { Double(microseconds) / 1e6 }

    package static func < (a: SimTime, b: SimTime) -> Bool { a.microseconds < b.microseconds }

    /// Saturating sum: anything plus `forever` is `forever`, and no sum traps.
    package static func + (a: SimTime, b: SimTime) -> SimTime {
        SimTime(microseconds: saturatingSum(a.microseconds, b.microseconds))
    }

    /// `a + b` in microseconds, saturating at the ends: the one saturating addition of an
    /// instant and a delay, so a draw of `forever` stays in the future instead of wrapping
    /// into the past.
    @inline(__always) package static func saturatingSum(_ a: Int64, _ b: Int64) -> Int64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        // Only an add and a branch where no overflow happens: the end to saturate at is
        // chosen only on overflow, never on every call (a hot path).
        if _fastPath(!overflow) { return sum }
        return a < 0 ? Int64.min : Int64.max
    }

    /// Saturating difference.
    package static func - (a: SimTime, b: SimTime) -> SimTime {
        let (diff, overflow) = a.microseconds.subtractingReportingOverflow(b.microseconds)
        if overflow { return a.microseconds < 0 ? SimTime(microseconds: Int64.min) : .forever }
        return SimTime(microseconds: diff)
    }

    /// Converts a real number of microseconds, rounding to the nearest and saturating at the ends.
    @inline(__always) package static func rounding(_ us: Double) -> SimTime {
        if us > 0 && us < 0x1p51 {
            // The nearest integer, ties to even; the fraction left over is exact, so a tie
            // rounded down to even is seen and moved up: half away from zero for positive values.
            let (nearest, value) = PortableMath.nearestEven(us)
            return SimTime(microseconds: us - value == 0.5 ? nearest &+ 1 : nearest)
        }
        return roundingOutsideTheCore(us)
    }

    /// ``rounding(_:)`` for zero, negative, huge and non-finite values.
    @inline(never) static func roundingOutsideTheCore(_ us: Double) -> SimTime {
        if !(us < 9.2e18) { return us.isNaN ? .zero : .forever }
        if us <= 0 { return .zero }
        // Half away from zero, exactly as `us.rounded()`, without its libm call (a hot path):
        // for 0 < us < 2^63 the truncation and the fraction left over are both exact.
        let whole = Int64(us)
        return SimTime(microseconds: us - Double(whole) >= 0.5 ? whole + 1 : whole)
    }

    /// The duration in the file syntax (`1h30m`, `250ms`, `forever`).
    package var description: String {
        isForever ? "forever" : unitsText
    }

    /// The duration in units even at `Int64.max` microseconds (`106751991d4h…`), for a
    /// distribution's parameter, which is never `forever`.
    package var unitsText: String {
        if microseconds == 0 { return "0" }
        var rest = microseconds
        var text = rest < 0 ? "-" : ""
        rest = rest.magnitude > UInt64(Int64.max) ? Int64.max : abs(rest)
        let units: [(Int64, String)] = [(SimTime.day, "d"), (SimTime.hour, "h"), (SimTime.minute, "m"),
                                         (SimTime.second, "s"), (SimTime.millisecond, "ms"), (1, "us")]
        for (size, name) in units where rest >= size {
            text += "\(rest / size)\(name)"
            rest %= size
        }
        return text
    }
}

/// The checked arithmetic of instants and bins: every product or rounding up of a time the
/// reports compute goes through these, so none traps near the clock's end (`Int64.max` µs,
/// about 292 000 years) whatever the bin width or the span a file or an option gives.
extension SimTime {
    /// `a × b` in microseconds, saturating at the ends instead of trapping.
    @inline(__always) package static func saturatingProduct(_ a: Int64, _ b: Int64) -> Int64 {
        let (product, overflow) = a.multipliedReportingOverflow(by: b)
        if _fastPath(!overflow) { return product }
        return (a < 0) != (b < 0) ? Int64.min : Int64.max
    }

    /// The bins of width `bin` (at least 1 µs) that [0, span) touches: ⌈span / bin⌉, computed
    /// without `span + bin - 1`, which passes `Int64.max` for a bin near the clock's end.
    package static func binCount(span: Int64, bin: Int64) -> Int {
        span <= 0 ? 0 : Int((span - 1) / max(1, bin) + 1)
    }

    /// The instant bin `b` of width `bin` starts at, saturating at the clock's end.
    package static func binStart(_ b: Int, bin: Int64) -> Int64 {
        saturatingProduct(Int64(b), bin)
    }
}
