// Looking up an instant in sorted, disjoint intervals (a sleeping device's, a Low Power Mode phone's).

extension Array where Element == Range<Int64> {
    /// The interval holding t in these sorted, disjoint intervals, if any.
    func interval(holding t: Int64) -> Range<Int64>? {
        index(holding: t) { $0 }.map { self[$0] }
    }
}

extension Array {
    /// The index of the element whose interval holds t, the elements' intervals (`interval`)
    /// being sorted and disjoint: the first that ends after t, when it has begun (a binary search).
    func index(holding t: Int64, _ interval: (Element) -> Range<Int64>) -> Int? {
        var low = 0, high = count
        while low < high {
            let mid = (low + high) / 2
            if interval(self[mid]).upperBound <= t { low = mid + 1 } else { high = mid }
        }
        guard low < count, interval(self[low]).lowerBound <= t else { return nil }
        return low
    }
}
