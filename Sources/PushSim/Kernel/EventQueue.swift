// The event list: a binary min-heap ordered by (time, scheduling order), on storage it manages itself.

/// A pending event: when it happens, the order it was scheduled in, and what it is.
public struct ScheduledEvent<Payload> {
    public var time: Int64
    public var sequence: UInt64
    public var payload: Payload

    @inline(__always) func precedes(_ other: ScheduledEvent) -> Bool {
        time < other.time || (time == other.time && sequence < other.sequence)
    }
}

/// The heap's elements in one buffer. The queue copies it before writing when it is shared,
/// so `EventQueue` keeps value semantics; in a run it never is, and every heap step is a plain
/// load or store (no per-element bounds or uniqueness checks, which cost ~1/3 of the time of
/// the array-based heap on the bench workload).
final class EventStorage<Payload> {
    var base: UnsafeMutablePointer<ScheduledEvent<Payload>>
    var count = 0
    var capacity: Int

    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        base = UnsafeMutablePointer.allocate(capacity: self.capacity)
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    func copy() -> EventStorage {
        let clone = EventStorage(capacity: capacity)
        clone.base.initialize(from: base, count: count)
        clone.count = count
        return clone
    }

    func grow() {
        let bigger = UnsafeMutablePointer<ScheduledEvent<Payload>>.allocate(capacity: capacity * 2)
        bigger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = bigger
        capacity *= 2
    }
}

/// A priority queue of events. Events at the same instant come out in the order they were
/// scheduled, so a run never depends on how the heap happens to break ties.
///
/// The kernel knows nothing of pushes: the payload is whatever the model dispatches on.
/// - Complexity: `schedule` and `popNext` are O(log n); `removeAll` keeps the storage.
public struct EventQueue<Payload> {
    var storage = EventStorage<Payload>(capacity: 64)
    var nextSequence: UInt64 = 0

    public init() {}

    public var count: Int { storage.count }
    public var isEmpty: Bool { storage.count == 0 }

    /// The heap in array order (for invariant checks and end-of-run accounting).
    var heap: [ScheduledEvent<Payload>] { Array(UnsafeBufferPointer(start: storage.base, count: storage.count)) }

    /// The time of the earliest pending event.
    public var nextTime: Int64? { storage.count == 0 ? nil : storage.base[0].time }

    /// The earliest pending event's time and scheduling order, or (`Int64.max`, `UInt64.max`)
    /// when there is none; for a caller that merges the heap with streams of its own.
    @inline(__always) public var nextKey: (time: Int64, sequence: UInt64) {
        storage.count == 0 ? (Int64.max, UInt64.max) : (storage.base[0].time, storage.base[0].sequence)
    }

    /// Takes the next place in the scheduling order without scheduling anything: for an event
    /// the caller keeps outside the heap, which must still be ordered as if it were inside.
    @inline(__always) public mutating func takeSequence() -> UInt64 {
        defer { nextSequence &+= 1 }
        return nextSequence
    }

    @inline(__always) mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
    }

    /// Forgets every event and restarts the scheduling order, keeping the allocated storage.
    public mutating func removeAll() {
        makeUnique()
        storage.base.deinitialize(count: storage.count)
        storage.count = 0
        nextSequence = 0
    }

    public mutating func schedule(at time: Int64, _ payload: Payload) {
        makeUnique()
        let s = storage
        if s.count == s.capacity { s.grow() }
        let moving = ScheduledEvent(time: time, sequence: nextSequence, payload: payload)
        nextSequence &+= 1
        // Sift up from the new last slot, moving parents down into the hole.
        let base = s.base
        var child = s.count
        while child > 0 {
            let parent = (child - 1) >> 1
            if !moving.precedes(base[parent]) { break }
            (base + child).initialize(to: base[parent])
            (base + parent).deinitialize(count: 1)
            child = parent
        }
        (base + child).initialize(to: moving)
        s.count += 1
    }

    /// Removes and returns the earliest event if it happens before `limit`.
    @inline(__always)
    public mutating func popNext(before limit: Int64) -> ScheduledEvent<Payload>? {
        guard storage.count > 0, storage.base[0].time < limit else { return nil }
        return popAny()
    }

    /// Removes and returns the earliest event, whatever its time.
    public mutating func popNext() -> ScheduledEvent<Payload>? {
        storage.count == 0 ? nil : popAny()
    }

    /// Removes the root; the heap must not be empty.
    mutating func popAny() -> ScheduledEvent<Payload> {
        makeUnique()
        let s = storage
        let base = s.base
        let first = (base + 0).move()
        s.count -= 1
        let count = s.count
        if count > 0 {
            let moving = (base + count).move()
            // Sift the former last element down from the root's hole.
            var parent = 0
            while true {
                let left = 2 * parent + 1
                if left >= count { break }
                var best = left
                let right = left + 1
                if right < count && base[right].precedes(base[left]) { best = right }
                if !base[best].precedes(moving) { break }
                (base + parent).initialize(to: (base + best).move())
                parent = best
            }
            (base + parent).initialize(to: moving)
        }
        return first
    }

    /// The pending events in no particular order (for accounting at the end of a run).
    public var pending: [ScheduledEvent<Payload>] { heap }
}
