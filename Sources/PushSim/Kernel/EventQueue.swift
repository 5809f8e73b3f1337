// The event list: a binary min-heap ordered by (time, scheduling order).

/// A pending event: when it happens, the order it was scheduled in, and what it is.
public struct ScheduledEvent<Payload> {
    public var time: Int64
    public var sequence: UInt64
    public var payload: Payload

    func precedes(_ other: ScheduledEvent) -> Bool {
        time < other.time || (time == other.time && sequence < other.sequence)
    }
}

/// A priority queue of events. Events at the same instant come out in the order they were
/// scheduled, so a run never depends on how the heap happens to break ties.
///
/// The kernel knows nothing of pushes: the payload is whatever the model dispatches on.
/// - Complexity: `schedule` and `popNext` are O(log n); `removeAll` keeps the storage.
public struct EventQueue<Payload> {
    var heap: [ScheduledEvent<Payload>] = []
    var nextSequence: UInt64 = 0

    public init() { heap.reserveCapacity(64) }

    public var count: Int { heap.count }
    public var isEmpty: Bool { heap.isEmpty }

    /// The time of the earliest pending event.
    public var nextTime: Int64? { heap.first?.time }

    /// Forgets every event and restarts the scheduling order, keeping the allocated storage.
    public mutating func removeAll() {
        heap.removeAll(keepingCapacity: true)
        nextSequence = 0
    }

    public mutating func schedule(at time: Int64, _ payload: Payload) {
        let event = ScheduledEvent(time: time, sequence: nextSequence, payload: payload)
        nextSequence &+= 1
        heap.append(event)
        siftUp(heap.count - 1)
    }

    /// Removes and returns the earliest event if it happens before `limit`.
    public mutating func popNext(before limit: Int64) -> ScheduledEvent<Payload>? {
        guard let first = heap.first, first.time < limit else { return nil }
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            siftDown(0)
        }
        return first
    }

    /// Removes and returns the earliest event, whatever its time.
    public mutating func popNext() -> ScheduledEvent<Payload>? {
        heap.isEmpty ? nil : popAny()
    }

    mutating func popAny() -> ScheduledEvent<Payload> {
        let first = heap[0]
        let last = heap.removeLast()
        if !heap.isEmpty { heap[0] = last; siftDown(0) }
        return first
    }

    /// The pending events in no particular order (for accounting at the end of a run).
    public var pending: [ScheduledEvent<Payload>] { heap }

    mutating func siftUp(_ start: Int) {
        var child = start
        let moving = heap[child]
        while child > 0 {
            let parent = (child - 1) >> 1
            if !moving.precedes(heap[parent]) { break }
            heap[child] = heap[parent]
            child = parent
        }
        heap[child] = moving
    }

    mutating func siftDown(_ start: Int) {
        let count = heap.count
        var parent = start
        let moving = heap[parent]
        while true {
            let left = 2 * parent + 1
            if left >= count { break }
            var best = left
            let right = left + 1
            if right < count && heap[right].precedes(heap[left]) { best = right }
            if !heap[best].precedes(moving) { break }
            heap[parent] = heap[best]
            parent = best
        }
        heap[parent] = moving
    }
}
