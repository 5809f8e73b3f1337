// What a world of a shared partition touches first when it runs again, fetched ahead in three steps while other worlds run.

import PushSimPrefetch

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
    @inline(__always) static func fetchWorld(_ world: UnsafeMutablePointer<DeviceWorld>) {
        pushsim_prefetch_range(world, MemoryLayout<DeviceWorld>.size)
    }

    /// Two worlds ahead: what the world's own fields point to (read from the world, in the
    /// caches since the step before) — the counts of its Swift arrays (in the 32 bytes before
    /// their elements), and the elements those lead to directly: its timeline where it stands,
    /// the letters it reads next. Its heap and owned arrays keep their counts in the world.
    static func fetchObjects(of world: borrowing DeviceWorld) {
        world.draws.timeline.flips.withUnsafeBufferPointer {
            guard let base = $0.baseAddress else { return }
            pushsim_prefetch(UnsafeRawPointer(base) - 32)
            if world.clock.flipsPassed < $0.count { pushsim_prefetch(base + world.clock.flipsPassed) }
        }
        world.draws.letters.fetchNextLetters()
    }

    /// The first line of `bytes` bytes of elements from `start`, and more up to ``bytesPerArray``.
    @inline(__always) static func fetchElements(from start: UnsafeRawPointer?, bytes: Int) {
        pushsim_prefetch_range(start, min(max(bytes, 1), bytesPerArray))
    }

    /// One world ahead: the elements of its heap and owned arrays, up to ``bytesPerArray`` of each.
    static func fetchElements(of world: borrowing DeviceWorld) {
        func elements(_ range: (start: UnsafeRawPointer, bytes: Int)) { fetchElements(from: range.start, bytes: range.bytes) }
        elements(world.clock.queue.elementBytes)
        elements(world.copies.elementBytes)
        elements(world.letterStates.elementBytes)
        elements(world.ext.runs.elementBytes)
        elements(world.ext.requests.elementBytes)
        elements(world.xiva.letterAtPosition.elementBytes)
    }
}
