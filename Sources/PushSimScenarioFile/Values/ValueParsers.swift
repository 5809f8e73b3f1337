// Parsers for the contract's value types (durations, rates, probabilities, distributions, numbers) from scalar text.
import PushSimCore

/// Turns the text of a plain scalar into a typed value, or a message saying what was expected
/// and what was found. The caller adds the location and the key.
///
/// Numbers are written `DIGITS` or `DIGITS.DIGITS`: no sign, no exponent, no `nan` or `inf`, so
/// every accepted number is finite by construction and only its size can overflow.
package enum ValueParsers {
    /// Why a text is not a value of the expected type.
    package struct Failure: Error, Equatable {
        package var message: String
        /// The text read as a value of the right kind that is out of range: its reason stands
        /// even where a failure to read would be re-worded (a distribution's constant).
        package var outOfRange = false
        package init(_ message: String, outOfRange: Bool = false) { self.message = message; self.outOfRange = outOfRange }
    }

    /// Duration units, larger to smaller, with their length in microseconds.
    static let units: [(name: String, microseconds: Int64)] = [
        ("d", SimTime.day), ("h", SimTime.hour), ("m", SimTime.minute),
        ("s", SimTime.second), ("ms", SimTime.millisecond), ("us", SimTime.microsecond),
    ]

    static let durationHint = "a duration such as `0`, `250ms`, `30s`, `1h30m`, `1.5h` or `7d`"

    // MARK: Durations

    /// `0`, or numbers with units chained from larger to smaller (`1h30m`), rounded to the
    /// nearest microsecond.
    package static func duration(_ text: String) throws(Failure) -> SimTime {
        if text == "forever" {
            throw Failure("`forever` is not accepted here (only retention, expiration, clear_after and deadline take it); expected \(durationHint)")
        }
        if text.hasPrefix("-") { throw Failure("a duration cannot be negative, found `\(text)`") }
        let chars = Array(text.unicodeScalars)
        if chars.isEmpty { throw Failure("expected \(durationHint), found nothing") }
        var i = 0
        var whole: Int64 = 0          // exact sum of the integer parts
        var fraction: Double = 0      // sum of the fractional parts, in microseconds
        var lastRank = -1
        var lastUnit = ""
        var components = 0
        let tooLarge = Failure("the duration `\(text)` is too large (at most about 292471 years)")
        while i < chars.count {
            guard let (intDigits, fracDigits) = readNumber(chars, &i) else {
                throw Failure("expected \(durationHint), found `\(text)`")
            }
            var unitText = ""
            while i < chars.count, ("a"..."z").contains(chars[i]) || ("A"..."Z").contains(chars[i]) {
                unitText.unicodeScalars.append(chars[i]); i += 1
            }
            components += 1
            if unitText.isEmpty {
                // A bare number is only a duration when it is zero: `0` needs no unit.
                if components == 1 && i == chars.count && isZero(intDigits, fracDigits) { return .zero }
                if i == chars.count {
                    throw Failure("a duration needs a unit (us, ms, s, m, h or d) after the number, found `\(text)`")
                }
                throw Failure("expected \(durationHint), found `\(text)`")
            }
            guard let rank = units.firstIndex(where: { $0.name == unitText }) else {
                throw Failure("unknown duration unit `\(unitText)` in `\(text)`: expected us, ms, s, m, h or d")
            }
            if rank <= lastRank {
                throw Failure("duration units must go from larger to smaller, each once (d h m s ms us): `\(unitText)` after `\(lastUnit)` in `\(text)`")
            }
            lastRank = rank; lastUnit = unitText
            let unit = units[rank].microseconds
            guard let count = Int64(intDigits) else { throw tooLarge }
            let (scaled, o1) = count.multipliedReportingOverflow(by: unit)
            let (sum, o2) = whole.addingReportingOverflow(scaled)
            if o1 || o2 { throw tooLarge }
            whole = sum
            if !fracDigits.isEmpty, let f = Double("0." + fracDigits) { fraction += f * Double(unit) }
        }
        // The fractions add up to less than one day per component, so this cannot trap.
        let (total, overflow) = whole.addingReportingOverflow(Int64(fraction.rounded()))
        // Int64.max itself is `forever`; a finite duration must stay below it.
        if overflow || total == Int64.max { throw tooLarge }
        return SimTime(microseconds: total)
    }

    /// A duration, or `forever` (→ ``SimTime/forever``).
    static func durationOrForever(_ text: String) throws(Failure) -> SimTime {
        if text == "forever" { return .forever }
        do { return try duration(text) } catch {
            throw Failure(error.message.replacingFirst("expected a duration", with: "expected `forever` or a duration"))
        }
    }

    /// Reads `DIGITS[.DIGITS]` at `i`; nil if no digit stands there or the fraction is empty.
    private static func readNumber(_ chars: [Unicode.Scalar], _ i: inout Int) -> (String, String)? {
        var intDigits = ""
        while i < chars.count, ("0"..."9").contains(chars[i]) { intDigits.unicodeScalars.append(chars[i]); i += 1 }
        if intDigits.isEmpty { return nil }
        var fracDigits = ""
        if i < chars.count, chars[i] == "." {
            i += 1
            while i < chars.count, ("0"..."9").contains(chars[i]) { fracDigits.unicodeScalars.append(chars[i]); i += 1 }
            if fracDigits.isEmpty { return nil }
        }
        return (intDigits, fracDigits)
    }

    private static func isZero(_ intDigits: String, _ fracDigits: String) -> Bool {
        (intDigits + fracDigits).unicodeScalars.allSatisfy { $0 == "0" }
    }

    /// Whether `text` is written `DIGITS[.DIGITS]`, whatever its size.
    static func isDecimalSyntax(_ text: String) -> Bool {
        let chars = Array(text.unicodeScalars)
        var i = 0
        return readNumber(chars, &i) != nil && i == chars.count
    }

    /// A decimal `DIGITS[.DIGITS]` as a finite Double; nil if the text is not one.
    static func decimal(_ text: String) -> Double? {
        let chars = Array(text.unicodeScalars)
        var i = 0
        guard readNumber(chars, &i) != nil, i == chars.count, let value = Double(text), value.isFinite else { return nil }
        return value
    }

    // MARK: Rates and probabilities

    /// `COUNT/DURATION` (`40/d`, `3/2h`, `0.5/m`; a bare unit means one of it) → per microsecond.
    package static func rate(_ text: String) throws(Failure) -> Double {
        let hint = "a rate COUNT/DURATION such as `40/d`, `3/2h` or `0.5/m`"
        guard let slash = text.firstIndex(of: "/") else { throw Failure("expected \(hint), found `\(text)`") }
        let countText = String(text[..<slash])
        let perText = String(text[text.index(after: slash)...])
        if countText.hasPrefix("-") { throw Failure("a rate cannot be negative, found `\(text)`") }
        guard let count = decimal(countText) else {
            if isDecimalSyntax(countText) { throw Failure("the rate `\(text)` is too large") }
            throw Failure("expected \(hint): the count before `/` must be a number, found `\(text)`")
        }
        let per: SimTime
        if let unit = units.first(where: { $0.name == perText }) {
            per = SimTime(microseconds: unit.microseconds)
        } else {
            do { per = try duration(perText) } catch {
                // The duration's own reason (too large, an unknown unit, a sign) says what to fix.
                throw Failure("expected \(hint): after `/` a unit or a duration, found `\(text)` (\(error.message))")
            }
        }
        if per.microseconds <= 0 { throw Failure("a rate needs a duration greater than 0 after `/`, found `\(text)`") }
        let value = count / Double(per.microseconds)
        if !value.isFinite { throw Failure("the rate `\(text)` is too large") }
        return value
    }

    /// A decimal in [0, 1], a percentage in [0%, 100%], or a fraction of whole numbers (`1/3`).
    static func probability(_ text: String) throws(Failure) -> Double {
        if let slash = text.firstIndex(of: "/") {
            guard let (numerator, denominator) = fraction(text, slash: slash) else {
                let sides = [text[..<slash], text[text.index(after: slash)...]]
                if sides.allSatisfy({ !$0.isEmpty && $0.unicodeScalars.allSatisfy { ("0"..."9").contains($0) } }) {
                    throw Failure("a fraction's numbers have at most 18 digits each, found `\(text)`; write the probability as a decimal such as `0.02`")
                }
                throw Failure("expected a probability such as `0.02`, `2%` or `1/3` (whole numbers either side of `/`), found `\(text)`")
            }
            if denominator == 0 { throw Failure("a fraction needs a denominator greater than 0, found `\(text)`") }
            if numerator > denominator { throw Failure("a probability is between 0 and 1 (or 0% and 100%), found `\(text)`") }
            return Double(numerator) / Double(denominator)
        }
        let isPercent = text.hasSuffix("%")
        let number = isPercent ? String(text.dropLast()) : text
        if number.hasPrefix("-") { throw Failure("a probability cannot be negative, found `\(text)`") }
        guard let value = decimal(number) else {
            throw Failure("expected a probability such as `0.02` or `2%`, found `\(text)`")
        }
        let p = isPercent ? value / 100 : value
        if !(0...1).contains(p) {
            throw Failure("a probability is between 0 and 1 (or 0% and 100%), found `\(text)`")
        }
        return p
    }

    /// `A/B` of two whole numbers of at most 18 digits each (`1/3`), or nil.
    static func fraction(_ text: String, slash: String.Index) -> (UInt64, UInt64)? {
        let top = text[..<slash], bottom = text[text.index(after: slash)...]
        func whole(_ digits: Substring) -> UInt64? {
            guard !digits.isEmpty, digits.count <= 18, digits.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }) else { return nil }
            return UInt64(digits)
        }
        guard let a = whole(top), let b = whole(bottom) else { return nil }
        return (a, b)
    }

    // MARK: Distributions

    static let distributionHint = "a duration, `exponential(MEAN)`, `uniform(MIN, MAX)` or `lognormal(MEDIAN, P99)`"

    /// A distribution of durations; parameters come out in microseconds.
    static func distribution(_ text: String) throws(Failure) -> Distribution {
        try distribution(text, of: "duration", hint: distributionHint) { (t) throws(Failure) in try duration(t).microseconds }
    }

    /// A distribution whose values `value` reads (durations in microseconds, sizes in bytes):
    /// one grammar for every kind of quantity.
    static func distribution(_ text: String, of noun: String, hint: String,
                             _ value: (String) throws(Failure) -> Int64) throws(Failure) -> Distribution {
        guard let open = text.firstIndex(of: "(") else {
            do { return .constant(SimTime(microseconds: try value(text))) } catch {
                // A value of the right kind but out of range keeps its own reason (`0.4bit/s`:
                // under 1bit/s); anything else did not read as a value at all.
                if error.outOfRange { throw error }
                throw Failure("expected \(hint), found `\(text)`" + (text.hasPrefix("-") ? " (\(noun)s cannot be negative)" : ""))
            }
        }
        let name = String(text[..<open])
        guard text.hasSuffix(")"), text.index(after: open) <= text.index(before: text.endIndex) else {
            throw Failure("expected \(hint): `)` must end `\(text)`")
        }
        let inner = text[text.index(after: open)..<text.index(before: text.endIndex)]
        let args = inner.split(separator: ",", omittingEmptySubsequences: false)
            .map { String($0).trimmingSpaces() }
        let known = ["exponential", "uniform", "lognormal"]
        guard known.contains(name) else {
            let suggestion = Suggestion.nearest(to: name, among: known).map { "; did you mean `\($0)`?" } ?? ""
            throw Failure("unknown distribution `\(name)`: expected exponential, uniform or lognormal\(suggestion)")
        }
        let arity = name == "exponential" ? 1 : 2
        let signature = name == "exponential" ? "exponential(MEAN)" : name == "uniform" ? "uniform(MIN, MAX)" : "lognormal(MEDIAN, P99)"
        if args.count != arity || args.contains(where: \.isEmpty) {
            throw Failure("`\(signature)` takes \(arity) \(noun)\(arity == 1 ? "" : "s"), found `\(text)`")
        }
        var values: [Double] = []
        for arg in args {
            do { values.append(Double(try value(arg))) } catch {
                throw Failure("in `\(text)`: \(error.message)")
            }
        }
        // A parameter written above 0 that is 0 in the stored unit (`0.001us`) is named, so the
        // message does not seem to contradict what the user wrote.
        let roundedToZero = zip(args, values).first { arg, value in value == 0 && arg.contains { ("1"..."9").contains($0) } }
            .map { arg, _ in " (`\(arg)` is 0 in whole \(wholeUnit(of: noun)))" } ?? ""
        switch name {
        case "exponential":
            guard values[0] > 0 else { throw Failure("exponential(MEAN) needs MEAN > 0, found `\(text)`\(roundedToZero)") }
            return .exponential(mean: values[0])
        case "uniform":
            guard values[0] <= values[1] else { throw Failure("uniform(MIN, MAX) needs MIN ≤ MAX, found `\(text)`") }
            return .uniform(min: values[0], max: values[1])
        default:
            guard values[0] > 0, values[0] <= values[1] else {
                throw Failure("lognormal(MEDIAN, P99) needs 0 < MEDIAN ≤ P99, found `\(text)`\(roundedToZero)")
            }
            return .lognormal(median: values[0], p99: values[1])
        }
    }

    /// The unit a distribution of `noun`s is held in, for messages.
    private static func wholeUnit(of noun: String) -> String {
        switch noun {
        case "size": return "bytes"
        case "bandwidth": return "bits per second"
        default: return "microseconds, the clock's unit"
        }
    }

    /// A distribution, or `forever` (→ nil: the event never happens).
    static func distributionOrForever(_ text: String) throws(Failure) -> Distribution? {
        if text == "forever" { return nil }
        do { return try distribution(text) } catch {
            throw Failure(error.message.replacingFirst("expected a duration", with: "expected `forever`, a duration"))
        }
    }

    // MARK: Integers, booleans

    /// A decimal integer within `range`.
    static func integer(_ text: String, in range: ClosedRange<Int>) throws(Failure) -> Int {
        let digits = text.hasPrefix("-") ? String(text.dropFirst()) : text
        guard !digits.isEmpty, digits.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }) else {
            throw Failure("expected an integer (decimal digits), found `\(text)`")
        }
        guard let value = Int(text) else {
            throw Failure("the integer `\(text)` is out of range (\(range.lowerBound)…\(range.upperBound))")
        }
        guard range.contains(value) else {
            if range.upperBound == Int.max { throw Failure("expected an integer ≥ \(range.lowerBound), found `\(text)`") }
            throw Failure("expected an integer in \(range.lowerBound)…\(range.upperBound), found `\(text)`")
        }
        return value
    }

    /// An unsigned 64-bit integer, the seed's type.
    static func unsigned64(_ text: String) throws(Failure) -> UInt64 {
        if text.hasPrefix("-") { throw Failure("expected an unsigned 64-bit integer, found the negative `\(text)`") }
        guard !text.isEmpty, text.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }) else {
            throw Failure("expected an unsigned 64-bit integer (decimal digits), found `\(text)`")
        }
        guard let value = UInt64(text) else {
            throw Failure("`\(text)` does not fit an unsigned 64-bit integer (at most \(UInt64.max))")
        }
        return value
    }

    /// Only `true` and `false` (the contract: `on`, `yes` and friends are plain strings).
    static func boolean(_ text: String) throws(Failure) -> Bool {
        switch text {
        case "true": return true
        case "false": return false
        default: throw Failure("expected `true` or `false`, found `\(text)`")
        }
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    func trimmingSpaces() -> String {
        var scalars = Substring(self).unicodeScalars[...]
        while let f = scalars.first, f == " " || f == "\t" { scalars.removeFirst() }
        while let l = scalars.last, l == " " || l == "\t" { scalars.removeLast() }
        return String(String.UnicodeScalarView(scalars))
    }

    /// The string with the first occurrence of `target` replaced (unchanged if absent).
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = firstRange(of: target) else { return self }
        var result = self
        result.replaceSubrange(range, with: replacement)
        return result
    }
}
