// Tests of the value types of the contract: durations, forever, rates, probabilities, distributions, numbers.
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
import PushSimTestSupport

@Suite struct ValueParsersTests {
    private func us(_ text: String) -> Int64? { try? ValueParsers.duration(text).microseconds }
    private func failure<T>(_ body: () throws -> T) -> String? {
        do { _ = try body(); return nil } catch { return (error as? ValueParsers.Failure)?.message ?? "\(error)" }
    }

    @Test func durationUnitsChainFromLargerToSmaller() {
        expectEqual(us("250ms"), 250_000)
        expectEqual(us("30s"), 30_000_000)
        expectEqual(us("1h30m"), 90 * SimTime.minute)
        expectEqual(us("7d"), 7 * SimTime.day)
        expectEqual(us("1d2h3m4s5ms6us"), SimTime.day + 2 * SimTime.hour + 3 * SimTime.minute + 4 * SimTime.second + 5_006)
        #expect(failure { try ValueParsers.duration("30m1h") }?.contains("larger to smaller") == true)
        #expect(failure { try ValueParsers.duration("1h1h") }?.contains("larger to smaller") == true)
        #expect(failure { try ValueParsers.duration("5x") }?.contains("unknown duration unit `x`") == true)
        #expect(us("1h 30m") == nil)
        #expect(us("h") == nil)
    }

    @Test func durationDecimalsRoundToTheNearestMicrosecond() {
        expectEqual(us("1.5h"), 90 * SimTime.minute)
        expectEqual(us("0.1s"), 100_000)
        expectEqual(us("1.4us"), 1)
        expectEqual(us("1.5us"), 2)
        expectEqual(us("0.0000004s"), 0)
        #expect(us("1.") == nil)
        #expect(us(".5s") == nil)
    }

    @Test func bareZeroIsTheOnlyDurationWithoutUnit() {
        expectEqual(us("0"), 0)
        expectEqual(us("0s"), 0)
        #expect(failure { try ValueParsers.duration("30") }?.contains("needs a unit") == true)
    }

    @Test func durationRejectsNegativeNanInfinityAndOverflow() {
        #expect(failure { try ValueParsers.duration("-5s") }?.contains("negative") == true)
        for text in ["nan", ".nan", "inf", ".inf", "1e999", "1e3s", "+5s", ""] { #expect(us(text) == nil, "\(text)") }
        #expect(failure { try ValueParsers.duration("106751992d") }?.contains("too large") == true)
        #expect(failure { try ValueParsers.duration("99999999999999999999999us") }?.contains("too large") == true)
        expectEqual(us("106751991d"), 106_751_991 * SimTime.day)
    }

    @Test func foreverIsAcceptedOnlyWhereAllowed() throws {
        #expect(failure { try ValueParsers.duration("forever") }?.contains("only retention, expiration, clear_after and deadline") == true)
        try expectEqual(ValueParsers.durationOrForever("forever"), .forever)
        try expectEqual(ValueParsers.durationOrForever("3d"), SimTime(microseconds: 3 * SimTime.day))
        #expect(try ValueParsers.distributionOrForever("forever") == nil)
        try expectEqual(ValueParsers.distributionOrForever("exponential(1m)"), .exponential(mean: 60e6))
    }

    @Test func rateIsCountPerDuration() throws {
        try expectEqual(ValueParsers.rate("40/d"), 40.0 / 86_400e6)
        try expectEqual(ValueParsers.rate("3/h"), 3.0 / 3_600e6)
        try expectEqual(ValueParsers.rate("3/2h"), 3.0 / 7_200e6)
        try expectEqual(ValueParsers.rate("0.5/m"), 0.5 / 60e6)
        try expectEqual(ValueParsers.rate("0/d"), 0)
        for text in ["40", "40/", "/d", "40/0", "40/x", "-1/d", "1e3/d", "nan/d", "40/-1h"] {
            #expect(failure { try ValueParsers.rate(text) } != nil, "\(text)")
        }
    }

    @Test func probabilityIsADecimalInUnitRangeOrAPercentage() throws {
        try expectEqual(ValueParsers.probability("0.02"), 0.02)
        try expectEqual(ValueParsers.probability("2%"), 0.02)
        try expectEqual(ValueParsers.probability("100%"), 1)
        try expectEqual(ValueParsers.probability("0"), 0)
        try expectEqual(ValueParsers.probability("1"), 1)
        #expect(failure { try ValueParsers.probability("1.5") }?.contains("between 0 and 1") == true)
        #expect(failure { try ValueParsers.probability("-0.1") }?.contains("negative") == true)
        for text in ["101%", ".nan", "inf", "2 %", "%", "1e-2", "half"] {
            #expect(failure { try ValueParsers.probability(text) } != nil, "\(text)")
        }
    }

    @Test func distributionFormsGiveMicrosecondParameters() throws {
        try expectEqual(ValueParsers.distribution("50ms"), .constant(SimTime(microseconds: 50_000)))
        try expectEqual(ValueParsers.distribution("0"), .constant(.zero))
        try expectEqual(ValueParsers.distribution("exponential(40m)"), .exponential(mean: 2_400e6))
        try expectEqual(ValueParsers.distribution("uniform(1s, 2s)"), .uniform(min: 1e6, max: 2e6))
        try expectEqual(ValueParsers.distribution("uniform(1s,1s)"), .uniform(min: 1e6, max: 1e6))
        try expectEqual(ValueParsers.distribution("lognormal(300ms, 5s)"), .lognormal(median: 300e3, p99: 5e6))
        try expectEqual(ValueParsers.distribution("lognormal(1s, 1s)"), .lognormal(median: 1e6, p99: 1e6))
    }

    @Test func distributionParametersAreChecked() {
        #expect(failure { try ValueParsers.distribution("exponential(0)") }?.contains("MEAN > 0") == true)
        #expect(failure { try ValueParsers.distribution("uniform(2s, 1s)") }?.contains("MIN ≤ MAX") == true)
        #expect(failure { try ValueParsers.distribution("lognormal(0, 1s)") }?.contains("0 < MEDIAN ≤ P99") == true)
        #expect(failure { try ValueParsers.distribution("lognormal(2s, 1s)") }?.contains("0 < MEDIAN ≤ P99") == true)
        #expect(failure { try ValueParsers.distribution("expo(3s)") }?.contains("did you mean `exponential`?") == true)
        #expect(failure { try ValueParsers.distribution("uniform(1s)") }?.contains("takes 2 durations") == true)
        #expect(failure { try ValueParsers.distribution("exponential(1s, 2s)") }?.contains("takes 1 duration") == true)
        #expect(failure { try ValueParsers.distribution("exponential(forever)") } != nil)
        #expect(failure { try ValueParsers.distribution("exponential()") } != nil)
        #expect(failure { try ValueParsers.distribution("exponential(1s") } != nil)
        #expect(failure { try ValueParsers.distribution("(1s)") } != nil)
    }

    @Test func integerIsDecimalAndRangeChecked() throws {
        try expectEqual(ValueParsers.integer("10000", in: 1...Int.max), 10_000)
        try expectEqual(ValueParsers.integer("007", in: 0...Int.max), 7)
        #expect(failure { try ValueParsers.integer("0", in: 1...Int.max) }?.contains("≥ 1") == true)
        #expect(failure { try ValueParsers.integer("-1", in: 0...Int.max) }?.contains("≥ 0") == true)
        #expect(failure { try ValueParsers.integer("99999999999999999999", in: 0...Int.max) }?.contains("out of range") == true)
        for text in ["1e3", "0x10", "1.0", "1_000", "+1", "", "-"] {
            #expect(failure { try ValueParsers.integer(text, in: 0...Int.max) } != nil, "\(text)")
        }
    }

    @Test func seedIsAnUnsigned64BitInteger() throws {
        try expectEqual(ValueParsers.unsigned64("18446744073709551615"), UInt64.max)
        #expect(failure { try ValueParsers.unsigned64("18446744073709551616") }?.contains("does not fit") == true)
        #expect(failure { try ValueParsers.unsigned64("-1") }?.contains("negative") == true)
    }

    @Test func onlyTrueAndFalseAreBooleans() throws {
        #expect(try ValueParsers.boolean("true"))
        #expect(try !ValueParsers.boolean("false"))
        for text in ["yes", "no", "on", "off", "True", "1"] {
            #expect(failure { try ValueParsers.boolean(text) } != nil, "\(text)")
        }
    }

    @Test func nearestKeyIsByEditDistance() {
        expectEqual(Suggestion.levenshtein("kitten", "sitting"), 3)
        expectEqual(Suggestion.levenshtein("", "abc"), 3)
        expectEqual(Suggestion.nearest(to: "repeat_max_cont", among: ScenarioSchema.keys(ofSection: "queue") ?? []), "repeat_max_count")
    }
}
