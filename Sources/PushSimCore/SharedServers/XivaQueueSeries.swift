// The length of XIVA's re-request queue over time: the most waiting in any partition, minute by minute.

/// For each minute in which re-requests waited, the most waiting at once in one partition
/// (docs/model.md §6, written as `xiva-queue.csv`). Minutes with none waiting are left out.
/// Series of disjoint partitions merge by taking the larger count of each minute.
package struct XivaQueueSeries: Equatable, Sendable {
    /// Minutes counted from time 0, ascending, each with its largest count (> 0).
    package private(set) var minutes: [Int] = []
    package private(set) var waiting: [Int] = []

    package init() {}

    /// `count` re-requests waited at once during `minute`, which is not before the last one noted.
    mutating func note(minute: Int, count: Int) {
        guard count > 0 else { return }
        if let last = minutes.last, last == minute {
            waiting[waiting.count - 1] = max(waiting[waiting.count - 1], count)
        } else {
            minutes.append(minute)
            waiting.append(count)
        }
    }

    /// A series read back from its pairs; nil unless minutes ascend strictly and counts are positive.
    package init?(minutes: [Int], waiting: [Int]) {
        guard minutes.count == waiting.count, waiting.allSatisfy({ $0 > 0 }), minutes.allSatisfy({ $0 >= 0 }),
              zip(minutes, minutes.dropFirst()).allSatisfy({ $0 < $1 }) else { return nil }
        self.minutes = minutes
        self.waiting = waiting
    }

    /// The larger count of each minute of either series.
    package mutating func merge(_ other: XivaQueueSeries) {
        guard !other.minutes.isEmpty else { return }
        guard !minutes.isEmpty else { self = other; return }
        var m: [Int] = [], w: [Int] = []
        m.reserveCapacity(minutes.count + other.minutes.count)
        w.reserveCapacity(m.capacity)
        var i = 0, j = 0
        while i < minutes.count || j < other.minutes.count {
            if j == other.minutes.count || (i < minutes.count && minutes[i] < other.minutes[j]) {
                m.append(minutes[i]); w.append(waiting[i]); i += 1
            } else if i == minutes.count || other.minutes[j] < minutes[i] {
                m.append(other.minutes[j]); w.append(other.waiting[j]); j += 1
            } else {
                m.append(minutes[i]); w.append(max(waiting[i], other.waiting[j])); i += 1; j += 1
            }
        }
        minutes = m
        waiting = w
    }

    package var isEmpty: Bool { minutes.isEmpty }
}
