// Looking up an instant in sorted, disjoint intervals (a sleeping device's, a Low Power Mode phone's).

extension Array where Element == Range<Int64> {
    /// The interval holding t in these sorted, disjoint intervals, if any: the first that ends
    /// after t, when it has begun (a binary search).
    func interval(holding t: Int64) -> Range<Int64>? {
        var low = 0, high = count
        while low < high {
            let mid = (low + high) / 2
            if self[mid].upperBound <= t { low = mid + 1 } else { high = mid }
        }
        guard low < count, self[low].lowerBound <= t else { return nil }
        return self[low]
    }
}
