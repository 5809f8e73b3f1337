// A fixed log-bucket histogram of microsecond values: mergeable, bounded memory, ≤ 0.4 % error.

/// Counts of values in log-linear buckets: values below 128 µs exactly, above that 128 buckets
/// per power of two, so a bucket's midpoint is within 1/256 of any value in it.
///
/// Histograms of different shards add bucket by bucket, so percentiles of a merged run are
/// exactly those of a single run.
package struct LatencyHistogram: Equatable, Sendable {
    static let subBucketBits = 7
    static let subBuckets = 1 << subBucketBits                 // 128
    package static let bucketCount = subBuckets + (63 - subBucketBits) * subBuckets

    package private(set) var counts: [UInt64]
    package private(set) var total: UInt64 = 0
    package private(set) var maximum: Int64 = 0

    package init() { counts = Array(repeating: 0, count: LatencyHistogram.bucketCount) }

    package static func index(of value: Int64) -> Int {
        let v = UInt64(max(value, 0))
        if v < UInt64(subBuckets) { return Int(v) }
        let exponent = 63 - v.leadingZeroBitCount                 // ≥ 7
        let shift = exponent - subBucketBits
        let sub = Int(v >> UInt64(shift)) - subBuckets          // 0..<128
        return subBuckets + shift * subBuckets + sub
    }

    /// The midpoint of a bucket: the value reported for any sample in it.
    static func representative(of index: Int) -> Int64 {
        if index < subBuckets { return Int64(index) }
        let shift = (index - subBuckets) / subBuckets
        let sub = (index - subBuckets) % subBuckets
        let low = UInt64(subBuckets + sub) << UInt64(shift)
        let width = UInt64(1) << UInt64(shift)
        let mid = low &+ width / 2
        return mid > UInt64(Int64.max) ? Int64.max : Int64(mid)
    }

    package mutating func record(_ value: Int64) {
        recording { record in record(value) }
    }

    /// Lets `body` record any number of values, with the bucket array opened once (its
    /// elements in place) rather than checked for sharing per value.
    @inline(__always)
    mutating func recording(_ body: (_ record: (Int64) -> Void) -> Void) {
        var total = self.total, maximum = self.maximum
        var buckets = counts.mutableSpan
        body { value in
            buckets[LatencyHistogram.index(of: value)] &+= 1
            total &+= 1
            if value > maximum { maximum = value }
        }
        self.total = total
        self.maximum = maximum
    }

    package mutating func merge(_ other: LatencyHistogram) {
        // An empty one (a world's running counts, before its letters are recorded) adds nothing.
        guard other.total != 0 else { return }
        for i in 0..<counts.count where other.counts[i] != 0 { counts[i] &+= other.counts[i] }
        total &+= other.total
        maximum = max(maximum, other.maximum)
    }

    /// Nearest-rank percentile (p in (0, 1]), in microseconds; 0 when empty. Never above the maximum.
    package func percentile(_ p: Double) -> Int64 {
        if total == 0 { return 0 }
        let rank = max(UInt64(1), UInt64((p * Double(total)).rounded(.up)))
        var seen: UInt64 = 0
        for (index, count) in counts.enumerated() where count != 0 {
            seen &+= count
            if seen >= rank { return min(LatencyHistogram.representative(of: index), maximum) }
        }
        return maximum
    }

    /// Non-empty buckets as (index, count), for partial results that travel between machines.
    package var sparseBuckets: [(index: Int, count: UInt64)] {
        counts.enumerated().compactMap { $0.element == 0 ? nil : ($0.offset, $0.element) }
    }

    /// Rebuilds a histogram from sparse buckets; nil when an index is out of range.
    package init?(sparse: [(index: Int, count: UInt64)], maximum: Int64) {
        self.init()
        for (index, count) in sparse {
            guard index >= 0 && index < counts.count else { return nil }
            counts[index] &+= count
            total &+= count
        }
        self.maximum = maximum
    }
}
