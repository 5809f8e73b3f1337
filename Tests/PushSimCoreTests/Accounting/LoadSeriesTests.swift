// The load series on hand-built worlds and a constant rate: what counts, in which bin (docs/model.md §14).
import Foundation
import Testing
@testable import PushSimCore
@testable import PushSimExperiment
import PushSimTestSupport

@Suite struct LoadSeriesTests {
    /// A device offline from 15 to 40 minutes with letters at 10, 20 and 30: the store keeps the
    /// last, the 20-minute letter is replaced, and the push that reaches the phone when it comes
    /// back online reveals a one-letter gap: one re-request in minute 40, its re-send there too.
    func backOnline() -> ScriptedWorld {
        var s = tinyScenario()
        s.xiva.latency = constant(50 * ms)
        s.apns.latency = constant(100 * ms)
        s.extension.processing = constant(200 * ms)
        return ScriptedWorld(s, letters: [
            ScriptedLetter(time: 10 * minute), ScriptedLetter(time: 20 * minute), ScriptedLetter(time: 30 * minute),
        ], offline: [15 * minute..<(40 * minute)])
    }

    @Test func phonesBackOnlineAtOneInstantGiveThatManyReRequestsInItsMinute() {
        let phones = 7
        var total = Ledger()
        for _ in 0..<phones {
            var w = backOnline()
            total.merge(w.run(.on))
        }
        let load = total.load
        expectEqual(total.reRequests, phones)
        expectEqual(load.count(bin: 40, .reRequests), phones, "re-requests by minute: \((0..<load.bins).map { load.count(bin: $0, .reRequests) })")
        expectEqual(load.total(.reRequests), phones)
        expectEqual(load.count(bin: 40, .resent), phones)
        expectEqual(load.total(.resent), total.resent)
        for m in [10, 20, 30] { #expect(load.count(bin: m, .lettersIn) == phones && load.count(bin: m, .pushesSent) == phones) }
        // Pushes sent: the three first copies and the re-send.
        expectEqual(load.total(.pushesSent), 4 * phones)
        expectEqual(load.total(.summaries), 0)
    }

    @Test func theQueueOffArmCountsLettersAndPushesOnly() {
        var w = backOnline()
        let off = w.run(.off)
        expectEqual(off.load.total(.lettersIn), 3)
        expectEqual(off.load.total(.pushesSent), 3)
        expectEqual(off.load.total(.reRequests), 0)
        expectEqual(off.load.total(.resent), 0)
    }

    /// A summary is counted when shown: with every re-request answered by an error the gap's
    /// push becomes a summary at the answer's instant.
    @Test func summariesAreCountedWhereTheyAreShown() {
        var s = tinyScenario()
        s.xiva.requestError = 1
        var w = ScriptedWorld(s, letters: [
            ScriptedLetter(time: 1 * hour), ScriptedLetter(time: 2 * hour, lost: true), ScriptedLetter(time: 3 * hour),
        ])
        let on = w.run(.on)
        expectEqual(on.summaries, 1)
        expectEqual(on.load.total(.summaries), 1)
        expectEqual(on.load.count(bin: 180, .summaries), 1)
    }

    /// The width of a bin is the scenario's: 10-minute bins put the seven re-requests in bin 4.
    @Test func binsFollowTheScenariosWidth() {
        var s = tinyScenario()
        s.loadBin = span(10 * minute)
        var w = ScriptedWorld(s, letters: [ScriptedLetter(time: 10 * minute), ScriptedLetter(time: 20 * minute),
                                           ScriptedLetter(time: 30 * minute)], offline: [15 * minute..<(40 * minute)])
        let on = w.run(.on)
        expectEqual(on.load.count(bin: 4, .reRequests), 1)
        expectEqual(on.load.count(bin: 1, .lettersIn), 1)
    }

    /// A constant rate λ on n devices: each minute's letters are Poisson with mean μ = nλ·60 s.
    /// Over B minutes the sample mean is within 5 standard errors √(μ/B) of μ, and the sample
    /// variance within 5 of its own, √((μ + 2μ²)/B) (the Poisson fourth moment), of μ.
    @Test func aConstantRateGivesThePoissonMeanAndSpreadPerMinute() {
        var s = Scenario(name: "poisson", duration: span(2 * day), devices: 50)
        s.drain = span(1 * hour)
        s.mail.ratePerMicrosecond = 60.0 / Double(day)   // 60 letters a day per device
        s.connectivity = Scenario.Connectivity()
        s.queue.mode = .off
        let result = Simulator.run(s, jobs: 1)
        let load = result.arms[0].ledger.load
        let bins = Int(2 * day / minute)
        let values = (0..<bins).map { Double(load.count(bin: $0, .lettersIn)) }
        let mu = 50 * 60.0 / Double(day) * Double(minute)
        let mean = values.reduce(0, +) / Double(bins)
        let variance = values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(bins - 1)
        #expect(abs(mean - mu) < 5 * (mu / Double(bins)).squareRoot(), "mean \(mean) against \(mu)")
        #expect(abs(variance - mu) < 5 * ((mu + 2 * mu * mu) / Double(bins)).squareRoot(), "variance \(variance) against \(mu)")
        expectEqual(load.total(.lettersIn), result.arms[0].ledger.letters)
    }

    /// Series of disjoint devices add bin by bin, whatever the order.
    @Test func seriesMergeByAddition() {
        var a = LoadSeries(), b = LoadSeries()
        a.add(2, bin: 3, .reRequests)
        b.add(5, bin: 3, .reRequests)
        b.add(1, bin: 9, .lettersIn)
        var ab = a; ab.merge(b)
        var ba = b; ba.merge(a)
        expectEqual(ab, ba)
        expectEqual(ab.count(bin: 3, .reRequests), 7)
        expectEqual(ab.count(bin: 9, .lettersIn), 1)
        expectEqual(ab.bins, 10)
        expectEqual(ab.count(bin: -1, .lettersIn), 0)
        expectEqual(ab.count(bin: 99, .lettersIn), 0)
    }
}
