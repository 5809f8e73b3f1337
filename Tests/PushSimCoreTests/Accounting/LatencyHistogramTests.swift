// The latency histogram: percentiles against exact nearest-rank, merging, bounds.
import Testing
@testable import PushSimCore
import PushSimTestSupport

@Suite struct LatencyHistogramTests {
    /// Nearest rank: the smallest value with at least ⌈p·n⌉ values at or below it.
    func exactPercentile(_ sorted: [Int64], _ p: Double) -> Int64 {
        let rank = max(1, Int((p * Double(sorted.count)).rounded(.up)))
        return sorted[rank - 1]
    }

    func randomLatencies(_ n: Int, seed: UInt64) -> [Int64] {
        var rng = RandomStream(seed: seed)
        let d = Distribution.lognormal(median: Double(300 * ms), p99: Double(1 * hour))
        return (0..<n).map { _ in
            // Some exact small values too, where buckets are one microsecond wide.
            rng.chance(0.05) ? Int64(rng.next() % 200) : d.sample(&rng).microseconds
        }
    }

    @Test func percentilesWithinOnePercentOfExactNearestRank() {
        for seed in UInt64(1)...5 {
            let values = randomLatencies(20_000, seed: seed)
            var h = LatencyHistogram()
            values.forEach { h.record($0) }
            let sorted = values.sorted()
            for p in [0.001, 0.01, 0.1, 0.5, 0.9, 0.99, 0.999, 1.0] {
                let exact = Double(exactPercentile(sorted, p))
                let got = Double(h.percentile(p))
                #expect(abs(got - exact) <= 0.01 * exact + 0.5, "seed \(seed) p\(p): \(got) vs \(exact)")
            }
            #expect(h.percentile(1.0) <= sorted.last!)
            expectEqual(h.maximum, sorted.last!)
            expectEqual(h.total, UInt64(values.count))
        }
    }

    @Test func smallValuesAreExact() {
        var h = LatencyHistogram()
        for v in Int64(0)..<128 { h.record(v) }
        for k in 1...128 { expectEqual(h.percentile(Double(k) / 128), Int64(k - 1)) }
    }

    @Test func emptyHistogramReportsZero() {
        expectEqual(LatencyHistogram().percentile(0.5), 0)
        expectEqual(LatencyHistogram().percentile(1), 0)
    }

    @Test func hugeValuesDoNotTrap() {
        var h = LatencyHistogram()
        h.record(Int64.max)
        h.record(Int64.max / 3)
        h.record(-5)   // clamped to the zero bucket
        // The top bucket's midpoint, within 1/256 of the value.
        #expect(Double(h.percentile(1)) >= Double(Int64.max) * (1 - 1.0 / 256))
        expectEqual(h.percentile(0.01), 0)
    }

    @Test func mergeEqualsTheHistogramOfTheUnion() {
        let a = randomLatencies(5_000, seed: 10), b = randomLatencies(7_000, seed: 11)
        var ha = LatencyHistogram(), hb = LatencyHistogram(), union = LatencyHistogram()
        a.forEach { ha.record($0) }
        b.forEach { hb.record($0) }
        (a + b).forEach { union.record($0) }
        var merged = ha
        merged.merge(hb)
        expectEqual(merged, union)
        var other = hb
        other.merge(ha)
        expectEqual(other, union)
    }

    @Test func sparseBucketsRoundTrip() {
        var h = LatencyHistogram()
        randomLatencies(3_000, seed: 12).forEach { h.record($0) }
        let rebuilt = LatencyHistogram(sparse: h.sparseBuckets, maximum: h.maximum)
        expectEqual(rebuilt, h)
        #expect(LatencyHistogram(sparse: [(index: -1, count: 1)], maximum: 0) == nil)
        #expect(LatencyHistogram(sparse: [(index: LatencyHistogram.bucketCount, count: 1)], maximum: 0) == nil)
    }
}
