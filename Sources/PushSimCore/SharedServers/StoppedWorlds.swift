// The worlds of a coupling unit stopped at a send, by (instant, world index): the coupled stepper's heap, with a replace-the-top step.

/// The worlds stopped at a send, ordered by (instant, world index) — unique keys, so the order
/// they come out in does not depend on how the heap breaks ties. The stepper takes the first,
/// lets the server collect from it, runs it to its next send and puts it back: one sift down
/// from the root (``replaceFirst(time:)``) instead of a pop and a push, and none at all when
/// the world is still first — over the binary interface every push stops its world, so this is
/// on the hot path (docs/performance.md, The binary interface on the coupled path).
///
/// Not an ``EventQueue``: its entries are 16 bytes (the world is the tie-break), not 24, so a
/// partition's heap spans a third less memory (callgrind's cache model: 0.57 M → 0.38 M
/// last-level misses on 5 000 phones × 1 day), and its sift down is the kernel's (duplicated on
/// purpose, on another element). A class over plain memory, owned by one stepper: no
/// copy-on-write checks. Holds at most `capacity` worlds (the unit's count: each world is in
/// it at most once).
final class StoppedWorlds {
    struct Stop {
        var time: Int64
        var world: Int

        @inline(__always) func precedes(_ other: Stop) -> Bool {
            time < other.time || (time == other.time && world < other.world)
        }
    }

    private let base: UnsafeMutablePointer<Stop>
    private let capacity: Int
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        base = UnsafeMutablePointer<Stop>.allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
    }

    /// The first stopped world, if any.
    @inline(__always) var first: Stop? { count > 0 ? base[0] : nil }

    /// The three worlds most likely to be taken after the first, in order, as world indices
    /// (-1 for none): the three earliest of the rest. Exact for the heap as it stands (they
    /// are found among the root's descendants three levels down); wrong only when the first
    /// world stops again before some of them. For prefetching only (WorldPrefetch.swift).
    func likelyNext() -> (next: Int, second: Int, third: Int) {
        // Heap slots that may hold the next earliest: the children of the root and of each
        // slot already taken. At most 2 + 2 + 2 of them, minus those taken.
        var candidates: (Int, Int, Int, Int, Int, Int) = (-1, -1, -1, -1, -1, -1)
        var found = (-1, -1, -1)
        withUnsafeMutableBytes(of: &candidates) { raw in
            let slots = raw.bindMemory(to: Int.self)
            var n = 0
            func add(childrenOf parent: Int) {
                for child in 2 * parent + 1...2 * parent + 2 where child < count && n < slots.count {
                    slots[n] = child
                    n += 1
                }
            }
            add(childrenOf: 0)
            for k in 0..<3 {
                guard n > 0 else { return }
                var best = 0
                for c in 1..<n where base[slots[c]].precedes(base[slots[best]]) { best = c }
                let slot = slots[best]
                n -= 1
                slots[best] = slots[n]
                switch k {
                case 0: found.0 = base[slot].world
                case 1: found.1 = base[slot].world
                default: found.2 = base[slot].world
                }
                add(childrenOf: slot)
            }
        }
        return (found.0, found.1, found.2)
    }

    /// Puts world `world`, stopped at `time`, among the others.
    func insert(time: Int64, world: Int) {
        InternalChecks.require(count < capacity, "more stopped worlds than the unit holds")
        guard count < capacity else { return }
        let moving = Stop(time: time, world: world)
        var child = count
        while child > 0 {
            let parent = (child - 1) >> 1
            if !moving.precedes(base[parent]) { break }
            base[child] = base[parent]
            child = parent
        }
        base[child] = moving
        count += 1
    }

    /// The first world stopped again, now at `time` (not before its last stop): it sinks to
    /// its place.
    @inline(__always) func replaceFirst(time: Int64) {
        guard count > 0 else { return }
        siftDown(Stop(time: time, world: base[0].world))
    }

    /// The first world has finished: it leaves.
    func removeFirst() {
        guard count > 0 else { return }
        count -= 1
        if count > 0 { siftDown(base[count]) }
    }

    /// Puts `moving` in the root's hole and sifts it down.
    @inline(__always) private func siftDown(_ moving: Stop) {
        let count = self.count
        var parent = 0
        while true {
            let left = 2 * parent + 1
            if left >= count { break }
            var best = left
            let right = left + 1
            if right < count && base[right].precedes(base[left]) { best = right }
            if !base[best].precedes(moving) { break }
            base[parent] = base[best]
            parent = best
        }
        base[parent] = moving
    }
}
