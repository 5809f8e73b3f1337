// The event list: a binary min-heap ordered by (time, scheduling order), on storage it manages itself.

/// A pending event: when it happens, the order it was scheduled in, and what it is.
package struct ScheduledEvent<Payload> {
    package var time: Int64
    package var sequence: UInt64
    package var payload: Payload

    @inline(__always) func precedes(_ other: ScheduledEvent) -> Bool {
        time < other.time || (time == other.time && sequence < other.sequence)
    }
}

/// A priority queue of events. Events at the same instant come out in the order they were
/// scheduled, so a run never depends on how the heap happens to break ties.
///
/// It cannot be copied: it is held inline by the one world that schedules into it, and every
/// heap step is a plain load or store on its ``OwnedArray``, with no copy-on-write check.
///
/// The kernel knows nothing of pushes: the payload is whatever the model dispatches on.
/// - Complexity: `schedule` and `popNext` are O(log n); `removeAll` keeps the storage.
package struct EventQueue<Payload>: ~Copyable {
    /// The heap and the scheduling counter (see ``GrowableStorage``).
    private var storage: OwnedArray<ScheduledEvent<Payload>>
    private var nextSequence: UInt64 = 0

    package init(capacity: Int = 64) {
        storage = OwnedArray(capacity: Swift.max(capacity, 16))
    }

    package var count: Int { storage.count }
    /// How many events its memory holds (for the coupled path's memory accounts).
    package var capacity: Int { storage.capacity }

    /// Forgets every event and gives the heap's memory back, keeping room for 1: for a world
    /// that waits beside its partition's other worlds with an event or two due (the heap grows
    /// as it needs, in the same order). With `keepingRoom: false`, no room at all: for a world
    /// that will not run again.
    package mutating func releaseMemory(keepingRoom: Bool = true) {
        storage.releaseMemory(keepingRoom: keepingRoom ? 1 : 0)
    }

    package var isEmpty: Bool { storage.count == 0 }

    /// Makes room for at least `events` events at once; the events and the scheduling order stay.
    package mutating func reserve(_ events: Int) {
        storage.reserve(events)
    }

    /// Gives back room above `room` events when more than a quarter as much again is unused
    /// (``GrowableStorage/trim(toHold:)``); the events and the scheduling order stay.
    package mutating func trimRoom(toHold room: Int) {
        storage.trimRoom(toHold: room)
    }

    /// Asks the processor to bring the first events, at most `maxBytes` of them, into its
    /// caches: a hint that changes nothing.
    @inline(__always) func prefetchEvents(maxBytes: Int) { storage.prefetchElements(maxBytes: maxBytes) }

    /// Trades heaps and scheduling orders with `other` (a world borrowing room for an arm,
    /// WorldRoom.swift).
    package mutating func swapStorage(with other: inout EventQueue<Payload>) {
        storage.swapStorage(with: &other.storage)
        swap(&nextSequence, &other.nextSequence)
    }

    /// The heap in array order (for invariant checks and end-of-run accounting).
    var heap: [ScheduledEvent<Payload>] { (0..<storage.count).map { storage[$0] } }

    /// The time of the earliest pending event.
    package var nextTime: Int64? { isEmpty ? nil : storage[0].time }

    /// The earliest pending event's time and scheduling order, or (`Int64.max`, `UInt64.max`)
    /// when there is none; for a caller that merges the heap with streams of its own.
    @inline(__always) package var nextKey: (time: Int64, sequence: UInt64) {
        storage.count == 0 ? (Int64.max, UInt64.max) : (storage[0].time, storage[0].sequence)
    }

    /// Takes the next place in the scheduling order without scheduling anything: for an event
    /// the caller keeps outside the heap, which must still be ordered as if it were inside.
    @inline(__always) package mutating func takeSequence() -> UInt64 {
        let sequence = nextSequence
        nextSequence = sequence &+ 1
        return sequence
    }

    /// Forgets every event and restarts the scheduling order, keeping the allocated storage.
    package mutating func removeAll() {
        storage.removeAll()
        nextSequence = 0
    }

    @inline(__always) package mutating func schedule(at time: Int64, _ payload: Payload) {
        insert(ScheduledEvent(time: time, sequence: takeSequence(), payload: payload))
    }

    @inline(__always) private mutating func insert(_ moving: ScheduledEvent<Payload>) {
        storage.heapInsert(moving) { $0.precedes($1) }
    }

    /// Removes and returns the earliest event if it happens before `limit`.
    @inline(__always)
    package mutating func popNext(before limit: Int64) -> ScheduledEvent<Payload>? {
        guard !isEmpty, storage[0].time < limit else { return nil }
        return popAny()
    }

    /// Removes and returns the earliest event, whatever its time.
    package mutating func popNext() -> ScheduledEvent<Payload>? {
        isEmpty ? nil : popAny()
    }

    /// Removes the root; the heap must not be empty.
    mutating func popAny() -> ScheduledEvent<Payload> {
        storage.heapRemoveFirst { $0.precedes($1) }
    }

    /// The pending events in no particular order (for accounting at the end of a run).
    package var pending: [ScheduledEvent<Payload>] { heap }
}
