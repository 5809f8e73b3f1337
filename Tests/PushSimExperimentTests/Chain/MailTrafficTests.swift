// Version 2's mail traffic: the daily profile against its intensity, bursts, and trace replay.
import Foundation
import Testing
@testable import PushSimCore
@testable import PushSimExperiment
import PushSimTestSupport

@Suite struct MailTrafficTests {
    static let weights: [Double] = [1, 1, 1, 0, 1, 1, 2, 4, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 5, 4, 3, 2, 1, 1]

    /// Letters per hour of day follow rate × w[h] / mean(w): each hour's count is Poisson with
    /// that mean, so its z-score uses √expected; an hour of weight 0 gets no letter at all.
    @Test func lettersPerHourOfDayFollowTheProfile() {
        var s = Scenario(name: "profile", duration: span(7 * day), devices: 100)
        s.mail.ratePerMicrosecond = 60.0 / Double(day)
        s.mail.dailyProfile = MailTrafficTests.weights
        var counts = [Double](repeating: 0, count: 24)
        var script = LetterScript()
        for d in 0..<s.devices {
            script.generate(s, device: d)
            for letter in script { counts[Int(letter.time % day / hour)] += 1 }
            #expect(zip(script.dropFirst(), script).allSatisfy { $0.time >= $1.time })
        }
        let mean = MailTrafficTests.weights.reduce(0, +) / 24
        for h in 0..<24 {
            let expected = Double(s.devices) * 7 * 60.0 / 24 * MailTrafficTests.weights[h] / mean
            if expected == 0 { expectEqual(counts[h], 0); continue }
            report("letters in hour \(h)", measured: counts[h], se: expected.squareRoot(), expected: expected)
            #expect(within(counts[h], expected, standardErrors: 4.5, se: expected.squareRoot()), "hour \(h)")
        }
    }

    /// The inverse cumulative intensity maps whole days to whole days and is increasing.
    @Test func profileInverseKeepsDaysAndOrder() {
        let profile = DailyProfile(weights: MailTrafficTests.weights)
        #expect(abs(profile.time(at: 3 * DailyProfile.day) - 3 * DailyProfile.day) < 1e-3)
        var last = -1.0
        for k in 0..<5000 {
            let t = profile.time(at: Double(k) * 17_280_000)
            #expect(t >= last)
            #expect(Int64(t) % day / hour != 3, "hour 3 has weight 0")
            last = t
        }
    }

    /// Bursts only: E[letters] = size · rate · (duration − spread/2) per device (a burst near
    /// the end loses the letters that would fall at or after it); the count is compound
    /// Poisson, variance rate · duration · size² per device.
    @Test func burstCountsMatchTheirRate() {
        var s = Scenario(name: "bursts", duration: span(10 * day), devices: 200)
        s.mail.ratePerMicrosecond = 0
        let size = 5, spread = 10 * minute
        s.mail.bursts = MailBursts(ratePerMicrosecond: 2.0 / Double(day), size: size, spread: span(spread))
        var total = 0.0
        var script = LetterScript()
        for d in 0..<s.devices { script.generate(s, device: d); total += Double(script.count) }
        let rate = 2.0 / Double(day), duration = Double(10 * day)
        let expected = Double(s.devices) * Double(size) * rate * (duration - Double(spread) / 2)
        let se = (Double(s.devices) * rate * duration).squareRoot() * Double(size)
        report("burst letters", measured: total, se: se, expected: expected)
        #expect(within(total, expected, se: se))
    }

    /// Two letters per burst, bursts a day apart on average and 2 minutes wide: consecutive
    /// pairs are bursts, and the gap between a pair's letters is |U₁ − U₂| · spread, of mean
    /// spread / 3 and standard deviation spread / √18.
    @Test func burstLettersSpreadUniformly() {
        var s = Scenario(name: "spread", duration: span(20 * day), devices: 100)
        s.mail.ratePerMicrosecond = 0
        let spread = 2 * minute
        s.mail.bursts = MailBursts(ratePerMicrosecond: 1.0 / Double(day), size: 2, spread: span(spread))
        var gaps: [Double] = []
        var script = LetterScript()
        for d in 0..<s.devices {
            script.generate(s, device: d)
            var i = 0
            while i + 1 < script.count { gaps.append(Double(script[i + 1].time - script[i].time)); i += 2 }
        }
        let (mean, se) = meanAndStandardError(gaps)
        #expect(gaps.max()! < Double(spread) + 1)
        report("burst pair gap", measured: mean, se: se, expected: Double(spread) / 3)
        #expect(within(mean, Double(spread) / 3, se: se))
    }

    /// Regular and burst letters come from streams of their own: with both set, a device's
    /// letters are exactly the regular-only ones merged with the bursts-only ones, in time
    /// order, and the regular letters are today's (the bursts draw nothing from their stream).
    @Test func burstsMergeWithRegularLettersWithoutMovingThem() {
        var both = Scenario(name: "both", duration: span(3 * day), devices: 10)
        both.mail.ratePerMicrosecond = 60.0 / Double(day)
        both.mail.bursts = MailBursts(ratePerMicrosecond: 4.0 / Double(day), size: 6, spread: span(5 * minute))
        var regular = both, bursty = both
        regular.mail.bursts = nil
        bursty.mail.ratePerMicrosecond = 0
        var a = LetterScript(), b = LetterScript(), c = LetterScript()
        for d in 0..<both.devices {
            a.generate(both, device: d); b.generate(regular, device: d); c.generate(bursty, device: d)
            expectEqual(a.map(\.time), (b.map(\.time) + c.map(\.time)).sorted())
            #expect(!c.isEmpty)
        }
    }

    /// With spread 0 every burst's letters share one instant; the regular letters still come.
    @Test func burstsWithoutSpreadShareTheirInstant() {
        var s = Scenario(name: "instant", duration: span(5 * day), devices: 20)
        s.mail.ratePerMicrosecond = 0
        s.mail.bursts = MailBursts(ratePerMicrosecond: 3.0 / Double(day), size: 4)
        var script = LetterScript()
        for d in 0..<s.devices {
            script.generate(s, device: d)
            expectEqual(script.count % 4, 0)
            var i = 0
            while i + 3 < script.count { expectEqual(script[i].time, script[i + 3].time); i += 4 }
        }
    }

    /// A trace replaces the Poisson letters: each device gets exactly its rows, in time order.
    @Test func traceIsReplayedExactly() {
        var s = Scenario(name: "trace", duration: span(1 * day), devices: 3)
        let times: [Int64] = [5 * sec, 5 * sec, 2 * hour, 1 * minute, 3 * hour + 1, 23 * hour]
        s.mail.trace = MailTrace(path: "t.csv", offsets: [0, 3, 3, 6], times: times)
        s.mail.bursts = MailBursts(ratePerMicrosecond: 1, size: 3)
        var script = LetterScript()
        for d in 0..<3 {
            script.generate(s, device: d)
            expectEqual(script.map(\.time), Array(s.mail.trace!.letters(device: d)))
        }
        let result = Simulator.run(s)
        #expect(result.arms.allSatisfy { $0.ledger.letters == 6 })
    }
}
