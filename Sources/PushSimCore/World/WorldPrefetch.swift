// What a world of a shared partition touches first when it runs again, fetched ahead in three steps while other worlds run.

/// The memory a stopped world touches first when the stepper takes it again: its heap's and
/// arrays' elements, its connectivity timeline where it stands, the letters it reads next. In
/// a partition of 10 000 phones a world has left the caches by the time it runs again, and
/// each of these was a miss it waited for, one after the other: the world, then what it points to. The stepper knows which worlds come next
/// (``StoppedWorlds/likelyNext()``), so it fetches each link one step ahead of the next: the
/// world itself three worlds ahead, what the world points to two and one ahead — each read
/// from memory the step before brought into the caches (``CoupledWorlds``;
/// docs/performance.md, The coupled rung's first touches fetched ahead). The heap and the
/// owned arrays keep their headers in the world itself (no object of their own).
///
/// Only addresses are formed and prefetched: a guess that turns out wrong (the world taken now
/// stops again before the ones foreseen) costs lines fetched for nothing, never a result.
enum HotMemory {
    /// At most this many bytes of one array's elements, from their start.
    static let bytesPerArray = 256

    /// Three worlds ahead: the world's own lines.
    @inline(__always) static func fetchWorld(_ i: Int, of worlds: Slab<DeviceWorld>) {
        worlds.prefetch(i)
    }

    /// Two worlds ahead: the headers of the arrays the world's own fields point to (read from
    /// the world, in the caches since the step before): its timeline's and its letters'. Only
    /// addresses: their counts are read one step later, from lines fetched now. Its heap and
    /// owned arrays keep their counts in the world.
    /// The world is taken `inout` only to be read in place: borrowed from its slab, it would be
    /// copied whole to the stack first, a read of every line of it.
    static func fetchObjects(of world: inout DeviceWorld) {
        world.draws.timeline.flips.prefetchHeader()
        world.draws.letters.fetchHeaders()
    }

    /// One world ahead: the elements it touches first, up to ``bytesPerArray`` of each array —
    /// where it stands, not where its arm began: the flip it stands at; the letter it reaches
    /// next and the two before it (in the script and in the letters' states); the newest
    /// copies, runs, re-requests and positions, and the room the next ones are written in; the
    /// heap from its root. A world that settles its letters holds a few, so these are its first
    /// elements; one that keeps every letter of its arm (the binary interface's) holds the
    /// whole arm so far.
    static func fetchElements(of world: inout DeviceWorld) {
        world.draws.timeline.flips.prefetchElements(from: world.clock.flipsPassed, bytes: 8)
        let next = world.clock.agenda.firstStreamIndex ?? world.letterStates.count
        world.draws.letters.fetchNextLetters(from: next)
        world.clock.queue.prefetchEvents(maxBytes: bytesPerArray)
        world.copies.prefetchAroundEnd(maxBytes: bytesPerArray)
        world.letterStates.prefetchElements(from: next - lettersBehindTheNext, maxBytes: bytesPerArray)
        world.ext.runs.prefetchAroundEnd(maxBytes: bytesPerArray)
        world.ext.requests.prefetchAroundEnd(maxBytes: bytesPerArray)
        world.xiva.letterAtPosition.prefetchAroundEnd(maxBytes: bytesPerArray)
    }

    /// Letters before the next one whose states a resumed world likely touches: those whose
    /// copies are still on their way.
    static let lettersBehindTheNext = 2
}
