// The worlds of a coupling unit stopped at a send, by (instant, world index): the coupled stepper's heap, with a replace-the-top step.

/// The worlds stopped at a send, ordered by (instant, world index) — unique keys, so the order
/// they come out in does not depend on how the heap breaks ties. The stepper takes the first,
/// lets the server collect from it, runs it to its next send and puts it back: one sift down
/// from the root (``replaceFirst(time:)``) instead of a pop and a push, and none at all when
/// the world is still first — over the binary interface every push stops its world, so this is
/// on the hot path (docs/performance.md, The binary interface on the coupled path).
///
/// Not an ``EventQueue``: its entries are 16 bytes (the world is the tie-break), not 24, so a
/// partition's heap spans a third less memory; its steps are the event heap's
/// (``OwnedArray/heapInsert(_:precedes:)`` and the others). Owned by one stepper and never copied. Holds at most `capacity` worlds (the unit's
/// count: each world is in it at most once).
struct StoppedWorlds: ~Copyable {
    struct Stop {
        var time: Int64
        var world: Int

        @inline(__always) func precedes(_ other: Stop) -> Bool {
            time < other.time || (time == other.time && world < other.world)
        }
    }

    private var stops: OwnedArray<Stop>
    private let capacity: Int
    var count: Int { stops.count }

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        stops = OwnedArray(capacity: self.capacity)
    }

    /// The first stopped world, if any.
    @inline(__always) var first: Stop? { count > 0 ? stops[0] : nil }

    /// The three worlds most likely to be taken after the first, in order, as world indices
    /// (-1 for none): the three earliest of the rest. Exact for the heap as it stands: a slot
    /// below the third level has three ancestors under the root that come before it, so the
    /// three earliest are in slots 1 to 14. Wrong only when the first world stops again before
    /// some of them. For prefetching only (WorldPrefetch.swift).
    func likelyNext() -> (next: Int, second: Int, third: Int) {
        var a = -1, b = -1, c = -1   // slots of the earliest, second and third so far
        for slot in 1..<Swift.max(1, Swift.min(15, count)) {
            let stop = stops[slot]
            if a < 0 || stop.precedes(stops[a]) { (a, b, c) = (slot, a, b) }
            else if b < 0 || stop.precedes(stops[b]) { (b, c) = (slot, b) }
            else if c < 0 || stop.precedes(stops[c]) { c = slot }
        }
        func world(_ slot: Int) -> Int { slot < 0 ? -1 : stops[slot].world }
        return (world(a), world(b), world(c))
    }

    /// Puts world `world`, stopped at `time`, among the others.
    mutating func insert(time: Int64, world: Int) {
        InternalChecks.require(count < capacity, "more stopped worlds than the unit holds")
        guard count < capacity else { return }
        stops.heapInsert(Stop(time: time, world: world)) { $0.precedes($1) }
    }

    /// The first world stopped again, now at `time` (not before its last stop): it sinks to
    /// its place.
    @inline(__always) mutating func replaceFirst(time: Int64) {
        guard count > 0 else { return }
        stops.heapReplaceFirst(Stop(time: time, world: stops[0].world)) { $0.precedes($1) }
    }

    /// The first world has finished: it leaves.
    mutating func removeFirst() {
        guard count > 0 else { return }
        _ = stops.heapRemoveFirst { $0.precedes($1) }
    }
}
