// The partition's writes made on a forecast, and its worlds' stops, put in the global (instant, world, write) order one window of time at a time, for the connection to check.

/// One item the connection takes in the global order: a write made on a forecast, or a world
/// waiting at an instant for what only the connection decides.
struct SweepEntry {
    enum Kind: UInt8 {
        /// Forecast accepted when its write ends: checked without the world's record.
        case plainForecast
        /// Any other forecast: its draws and outcome are in the world's record.
        case unusualForecast
        /// The world waits: its outbox is decided by the connection.
        case stop
    }

    var time: Int64
    var world: Int32
    /// The world's write it is (a stop: the next write it will take), so that a world's items
    /// of one instant keep the world's order.
    var sequence: Int32
    /// The world's generation when it was made: stale once the world runs its arm again.
    var generation: Int32
    var kind: Kind

    @inline(__always) func precedes(_ other: SweepEntry) -> Bool {
        if time != other.time { return time < other.time }
        if world != other.world { return world < other.world }
        return sequence < other.sequence
    }
}

/// The entries of one window of time `[windowStart, windowEnd)`. The worlds run ahead to the
/// window's end first, each in turn (hot in the caches: the point of running ahead), and their
/// entries are sorted once. A world that runs ahead while the window is swept (after a stop, or
/// run again after a wrong forecast) makes a run of entries in time order: the runs are merged
/// in through a small heap of their heads. Entries at or after the window's end wait for a later
/// window.
final class SpeculationSweep {
    /// Its state, in a slab of one: one thread sweeps a partition, and the state is read and
    /// written in place with no run-time exclusivity check.
    private struct State {
        var windowStart: Int64 = Int64.min
        var windowEnd: Int64 = Int64.min
        var window: [SweepEntry] = []
        var scratch: [SweepEntry] = []
        var nextInWindow: Int = 0
        var late: [SweepEntry] = []
        var runs: [LateRun] = []
        var openRunStart: Int = 0
        var firstRunSpent: Bool = false
        var carried: [SweepEntry] = []
        var sweeping: Bool = false
        var ranOut: [Int] = []
    }
    private let state = Slab<State>(count: 1) { _ in State() }

    private(set) var windowStart: Int64 {
        @inline(__always) _read { yield state[0].windowStart }
        @inline(__always) _modify { yield &state[0].windowStart }
    }
    private(set) var windowEnd: Int64 {
        @inline(__always) _read { yield state[0].windowEnd }
        @inline(__always) _modify { yield &state[0].windowEnd }
    }
    private var window: [SweepEntry] {
        @inline(__always) _read { yield state[0].window }
        @inline(__always) _modify { yield &state[0].window }
    }
    private var scratch: [SweepEntry] {
        @inline(__always) _read { yield state[0].scratch }
        @inline(__always) _modify { yield &state[0].scratch }
    }
    private var nextInWindow: Int {
        @inline(__always) _read { yield state[0].nextInWindow }
        @inline(__always) _modify { yield &state[0].nextInWindow }
    }
    /// Entries made while sweeping, run after run; `runs` are the unfinished runs' next
    /// entry and end, a heap by their next entry.
    private var late: [SweepEntry] {
        @inline(__always) _read { yield state[0].late }
        @inline(__always) _modify { yield &state[0].late }
    }
    private var runs: [LateRun] {
        @inline(__always) _read { yield state[0].runs }
        @inline(__always) _modify { yield &state[0].runs }
    }
    private var openRunStart: Int {
        @inline(__always) _read { yield state[0].openRunStart }
        @inline(__always) _modify { yield &state[0].openRunStart }
    }
    /// The first run gave its last entry: it leaves the heap, replaced by the run the world
    /// makes next if it makes one (one sift, as a world stopped again takes the first's place).
    private var firstRunSpent: Bool {
        @inline(__always) _read { yield state[0].firstRunSpent }
        @inline(__always) _modify { yield &state[0].firstRunSpent }
    }
    private var carried: [SweepEntry] {
        @inline(__always) _read { yield state[0].carried }
        @inline(__always) _modify { yield &state[0].carried }
    }
    private var sweeping: Bool {
        @inline(__always) _read { yield state[0].sweeping }
        @inline(__always) _modify { yield &state[0].sweeping }
    }
    /// Worlds that ran out during this window: finished once the window is swept.
    var ranOut: [Int] {
        @inline(__always) _read { yield state[0].ranOut }
        @inline(__always) _modify { yield &state[0].ranOut }
    }

    /// A run's next entry (kept here, so the heap compares without reading `late`), where
    /// the entry after it is, and the run's end.
    private struct LateRun {
        var head: SweepEntry
        var next: Int
        var end: Int
    }

    /// A new window from `start` up to `end`: entries carried from earlier windows that fall
    /// in it join it.
    func startWindow(start: Int64, end: Int64) {
        windowStart = start
        windowEnd = end
        sweeping = false
        window.removeAll(keepingCapacity: true)
        nextInWindow = 0
        late.removeAll(keepingCapacity: true)
        runs.removeAll(keepingCapacity: true)
        openRunStart = 0
        firstRunSpent = false
        ranOut.removeAll(keepingCapacity: true)
        var kept = 0
        for k in carried.indices {
            if carried[k].time < end { window.append(carried[k]) } else { carried[kept] = carried[k]; kept += 1 }
        }
        carried.removeLast(carried.count - kept)
    }

    func add(_ entry: SweepEntry) {
        if entry.time >= windowEnd {
            carried.append(entry)
        } else if sweeping {
            late.append(entry)
        } else {
            window.append(entry)
        }
    }

    /// A world has run ahead while the window is swept: its entries since the last call are
    /// one run in time order, merged in from now on.
    func closeRun() {
        guard sweeping, openRunStart < late.count else { return }
        let run = LateRun(head: late[openRunStart], next: openRunStart + 1, end: late.count)
        openRunStart = late.count
        if firstRunSpent {
            firstRunSpent = false
            siftDown(run)
        } else {
            pushRun(run)
        }
    }

    /// Every world has run to the window's end (or stopped in it): its entries in order.
    func startSweep() {
        sortWindow()
        sweeping = true
    }

    /// The next entry in the global order, nil once the window is swept.
    func next() -> SweepEntry? {
        if firstRunSpent {
            firstRunSpent = false
            let last = runs.removeLast()
            if !runs.isEmpty { siftDown(last) }
        }
        guard let top = runs.first else {
            guard nextInWindow < window.count else { return nil }
            nextInWindow += 1
            return window[nextInWindow - 1]
        }
        if nextInWindow < window.count && window[nextInWindow].precedes(top.head) {
            nextInWindow += 1
            return window[nextInWindow - 1]
        }
        if top.next < top.end {
            siftDown(LateRun(head: late[top.next], next: top.next + 1, end: top.end))
        } else {
            firstRunSpent = true
        }
        return top.head
    }

    /// Sorts the window's entries by (instant, world), keeping each world's order within an
    /// instant: a stable radix sort, least significant digit first, on the instant within the
    /// window and the world — entries are made world after world, each world's in its order,
    /// and entries carried from earlier windows come first and were made before.
    private func sortWindow() {
        guard window.count > 1 else { return }
        var earliest = Int64.max
        var latest = Int64.min
        var worlds: Int32 = 0
        for entry in window {
            earliest = min(earliest, entry.time)
            latest = max(latest, entry.time)
            worlds = max(worlds, entry.world)
        }
        let span = latest &- windowStart
        let worldBits = UInt64(Int32.bitWidth - worlds.leadingZeroBitCount)
        let keyBits = worldBits + UInt64(Int64.bitWidth - span.leadingZeroBitCount)
        // Keys must fit 64 bits from the window's start: anything else (never in a run) is
        // sorted by comparison, which gives the same order.
        guard earliest >= windowStart, span >= 0, keyBits <= 64 else {
            window.sort { $0.precedes($1) }
            return
        }
        let digitBits: UInt64 = 11
        let buckets = 1 << digitBits
        let start = windowStart
        @inline(__always) func key(_ e: SweepEntry) -> UInt64 { UInt64(e.time &- start) << worldBits | UInt64(e.world) }
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: window)
        var counts = [Int](repeating: 0, count: buckets)
        var shift: UInt64 = 0
        while shift < keyBits {
            for b in 0..<buckets { counts[b] = 0 }
            for entry in window { counts[Int((key(entry) >> shift) & UInt64(buckets - 1))] += 1 }
            var total = 0
            for b in 0..<buckets { let c = counts[b]; counts[b] = total; total += c }
            do {
                // Into the scratch array's elements in place, opened once.
                var target = scratch.mutableSpan
                var bucketStarts = counts.mutableSpan
                for entry in window {
                    let b = Int((key(entry) >> shift) & UInt64(buckets - 1))
                    target[bucketStarts[b]] = entry
                    bucketStarts[b] += 1
                }
            }
            swap(&window, &scratch)
            shift += digitBits
        }
    }

    private func pushRun(_ run: LateRun) {
        var child = runs.count
        runs.append(run)
        while child > 0 {
            let parent = (child - 1) >> 1
            if !run.head.precedes(runs[parent].head) { break }
            runs[child] = runs[parent]
            child = parent
        }
        runs[child] = run
    }

    /// Puts `run` at the root's place and sifts it down.
    private func siftDown(_ run: LateRun) {
        let count = runs.count
        var parent = 0
        while true {
            let left = 2 * parent + 1
            if left >= count { break }
            var best = left
            if left + 1 < count && runs[left + 1].head.precedes(runs[left].head) { best = left + 1 }
            if !runs[best].head.precedes(run.head) { break }
            runs[parent] = runs[best]
            parent = best
        }
        runs[parent] = run
    }
}
