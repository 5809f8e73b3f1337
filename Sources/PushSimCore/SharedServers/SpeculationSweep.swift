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
    /// of one instant keep the world's order. When the connection is decided ahead
    /// (ConnectionDecidedAhead.swift), the letter whose first send it is.
    var sequence: Int32
    /// The world's generation when it was made: stale once the world runs its arm again. When
    /// the connection is decided ahead, which replays nothing, 1 when the letter's payload is
    /// over the binary limit, else 0: the pass then reads nothing of the world.
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

    /// The window's entry `distance` places after the next one, entries added while sweeping
    /// aside: what comes soon, most likely, for fetching a world's memory ahead.
    @inline(__always) func upcoming(_ distance: Int) -> SweepEntry? {
        let k = nextInWindow + distance
        return k < window.count ? window[k] : nil
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
    /// instant (entries are made world after world, each world's in its order, and entries
    /// carried from earlier windows come first and were made before). Every pass is stable.
    private func sortWindow() {
        guard window.count > 1 else { return }
        Self.sortByInstantAndWorld(&window, scratch: &scratch)
    }

    /// `entries` sorted stably by (instant, world), `scratch` its room to work in: a counting
    /// pass into at most 2 048 buckets of time (few enough that the writes of the pass stay in
    /// the caches), then each bucket on its own, in its own room — a counting pass into buckets
    /// of about one entry each, and those of more than one entry in order.
    static func sortByInstantAndWorld(_ entries: inout [SweepEntry], scratch: inout [SweepEntry]) {
        var earliest = Int64.max
        var latest = Int64.min
        var worlds: Int32 = 0
        for entry in entries {
            earliest = min(earliest, entry.time)
            latest = max(latest, entry.time)
            worlds = max(worlds, entry.world)
        }
        let (span, overflow) = latest.subtractingReportingOverflow(earliest)
        let worldBits = Int32.bitWidth - worlds.leadingZeroBitCount
        let spanBits = Int64.bitWidth - span.leadingZeroBitCount
        // Instants within the window and worlds must fit a key of 64 bits: anything else (never
        // in a run) is sorted by comparison, which gives the same order.
        guard !overflow, worlds >= 0, worldBits + spanBits <= 64 else {
            entries.sort { $0.precedes($1) }
            return
        }
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: entries)
        let shift = max(0, spanBits - 11)
        let ends = countingPass(from: entries, to: &scratch, 0..<entries.count, buckets: Int(span >> Int64(shift)) + 1) {
            Int(($0.time &- earliest) >> Int64(shift))
        }
        // `entries` is the room each bucket of `scratch` is sorted in.
        var lo = 0
        for hi in ends {
            if hi - lo > 1 {
                sortBucket(&scratch, lo..<hi, room: &entries, earliest: earliest, timeBits: shift, worldBits: worldBits)
            }
            lo = hi
        }
        swap(&entries, &scratch)
    }

    /// A stable counting pass of `source[range]` into `target[range]` by `bucket` (from 0 up
    /// to `buckets`): where each bucket ends.
    @inline(__always) private static func countingPass(from source: [SweepEntry], to target: inout [SweepEntry], _ range: Range<Int>,
                                                       buckets: Int, bucket: (SweepEntry) -> Int) -> [Int] {
        var ends = [Int](repeating: 0, count: buckets)
        for i in range { ends[bucket(source[i])] += 1 }
        var total = range.lowerBound
        for b in 0..<buckets { let c = ends[b]; ends[b] = total; total += c }
        var out = target.mutableSpan
        var next = ends.mutableSpan
        for i in range {
            let entry = source[i]
            let b = bucket(entry)
            out[next[b]] = entry
            next[b] += 1
        }
        return ends
    }

    /// `entries[range]`, whose instants share all but their low `timeBits` bits past
    /// `earliest`, in (instant, world) order, stably, with the same range of `room` to work in.
    private static func sortBucket(_ entries: inout [SweepEntry], _ range: Range<Int>, room: inout [SweepEntry],
                                   earliest: Int64, timeBits: Int, worldBits: Int) {
        guard range.count > 32 else {
            insertionSort(&entries, range)
            return
        }
        let mask = (Int64(1) << Int64(timeBits)) &- 1
        let shift = max(0, timeBits - (Int.bitWidth - range.count.leadingZeroBitCount))
        let ends = countingPass(from: entries, to: &room, range, buckets: Int(mask >> Int64(shift)) + 1) {
            Int((($0.time &- earliest) & mask) >> Int64(shift))
        }
        var lo = range.lowerBound
        for hi in ends {
            if hi - lo > 32 {
                radixSort(&room, lo..<hi, room: &entries, earliest: earliest, timeBits: shift, worldBits: worldBits)
            } else if hi - lo > 1 {
                insertionSort(&room, lo..<hi)
            }
            lo = hi
        }
        var back = entries.mutableSpan
        for i in range { back[i] = room[i] }
    }

    /// Whether `a` comes before `b` by (instant, world): what orders two entries of one bucket.
    @inline(__always) private static func before(_ a: SweepEntry, _ b: SweepEntry) -> Bool {
        a.time != b.time ? a.time < b.time : a.world < b.world
    }

    /// `entries[range]` in (instant, world) order, stably: a few entries.
    private static func insertionSort(_ entries: inout [SweepEntry], _ range: Range<Int>) {
        var sorted = entries.mutableSpan
        for i in range where i > range.lowerBound {
            let entry = sorted[i]
            var j = i
            while j > range.lowerBound && before(entry, sorted[j - 1]) {
                sorted[j] = sorted[j - 1]
                j -= 1
            }
            sorted[j] = entry
        }
    }

    /// `entries[range]`, whose instants share all but their low `timeBits` bits past
    /// `earliest`, in (instant, world) order, stably: a radix sort, least significant digit
    /// first, through the same range of `room`.
    private static func radixSort(_ entries: inout [SweepEntry], _ range: Range<Int>, room: inout [SweepEntry],
                                  earliest: Int64, timeBits: Int, worldBits: Int) {
        let keyBits = timeBits + worldBits
        let digitBits = 8
        let digits = 1 << digitBits
        let mask = (UInt64(1) << UInt64(timeBits)) &- 1
        @inline(__always) func key(_ e: SweepEntry) -> UInt64 {
            (UInt64(bitPattern: e.time &- earliest) & mask) << UInt64(worldBits) | UInt64(UInt32(bitPattern: e.world))
        }
        var counts = [Int](repeating: 0, count: digits)
        // Passes alternate between the two arrays' ranges.
        var passes = 0
        var shift = 0
        while shift < keyBits {
            for d in 0..<digits { counts[d] = 0 }
            if passes % 2 == 0 {
                radixPass(from: entries, to: &room, range, counts: &counts, shift: shift, key: key)
            } else {
                radixPass(from: room, to: &entries, range, counts: &counts, shift: shift, key: key)
            }
            passes += 1
            shift += digitBits
        }
        if passes % 2 == 1 {
            var target = entries.mutableSpan
            for i in range { target[i] = room[i] }
        }
    }

    /// One stable pass of the radix sort: `source[range]` into `target[range]` by the digit
    /// of the key at `shift`.
    @inline(__always) private static func radixPass(from source: [SweepEntry], to target: inout [SweepEntry], _ range: Range<Int>,
                                                    counts: inout [Int], shift: Int, key: (SweepEntry) -> UInt64) {
        let digitMask = UInt64(counts.count - 1)
        for i in range { counts[Int((key(source[i]) >> UInt64(shift)) & digitMask)] += 1 }
        var total = range.lowerBound
        for d in counts.indices { let c = counts[d]; counts[d] = total; total += c }
        var out = target.mutableSpan
        var next = counts.mutableSpan
        for i in range {
            let entry = source[i]
            let d = Int((key(entry) >> UInt64(shift)) & digitMask)
            out[next[d]] = entry
            next[d] += 1
        }
    }

    private func pushRun(_ run: LateRun) {
        Self.push(run, into: &runs)
    }

    /// Puts `run` at the root's place and sifts it down.
    private func siftDown(_ run: LateRun) {
        Self.siftDown(run, in: &runs)
    }

    // The heap's two moves, on its elements in place (one uniqueness check a move, not one a step).
    private static func push(_ run: LateRun, into runs: inout [LateRun]) {
        var child = runs.count
        runs.append(run)
        var heap = runs.mutableSpan
        while child > 0 {
            let parent = (child - 1) >> 1
            if !run.head.precedes(heap[parent].head) { break }
            heap[child] = heap[parent]
            child = parent
        }
        heap[child] = run
    }

    private static func siftDown(_ run: LateRun, in runs: inout [LateRun]) {
        var heap = runs.mutableSpan
        let count = heap.count
        var parent = 0
        while true {
            let left = 2 * parent + 1
            if left >= count { break }
            var best = left
            if left + 1 < count && heap[left + 1].head.precedes(heap[left].head) { best = left + 1 }
            if !heap[best].head.precedes(run.head) { break }
            heap[parent] = heap[best]
            parent = best
        }
        heap[parent] = run
    }
}
