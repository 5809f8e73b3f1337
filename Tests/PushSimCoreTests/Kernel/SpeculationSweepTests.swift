// The sweep's order: every entry of a window once, in (instant, world, write) order, whether it was sorted with the window, carried from an earlier one, or added while the window was swept.
import Testing
@testable import PushSimCore
import PushSimTestSupport

@Suite struct SpeculationSweepTests {
    /// A small deterministic generator, so that a failure names its case.
    private struct Draws {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    private func entry(_ time: Int64, _ world: Int, _ sequence: Int) -> SweepEntry {
        SweepEntry(time: time, world: Int32(world), sequence: Int32(sequence), generation: 0, kind: .plainForecast)
    }

    private func key(_ e: SweepEntry) -> [Int64] { [e.time, Int64(e.world), Int64(e.sequence)] }

    @Test(arguments: [1, 7, 1_000, 70_000]) func aWindowComesOutInTheGlobalOrder(worlds: Int) {
        var draws = Draws(state: UInt64(worlds))
        let sweep = SpeculationSweep()
        let start: Int64 = 5_000_000, end: Int64 = 5_000_000 + 86_400_000_000
        sweep.startWindow(start: start, end: end)
        // Worlds run ahead in index order, each its writes in time order (instants shared by
        // many worlds, and several writes of one world at one instant).
        var made: [SweepEntry] = []
        var sequence = [Int](repeating: 0, count: worlds)
        for w in 0..<worlds {
            var time = start + Int64(draws.next(1_000))
            for _ in 0..<draws.next(6) {
                time += Int64(draws.next(3)) * Int64(draws.next(50_000_000_000) + 1)
                let e = entry(min(time, end + 5), w, sequence[w])
                sequence[w] += 1
                sweep.add(e)
                made.append(e)
            }
        }
        sweep.startSweep()
        // While sweeping, a few worlds run ahead again: runs in time order, after the entry taken.
        var taken: [SweepEntry] = []
        while let e = sweep.next() {
            taken.append(e)
            if draws.next(50) == 0 {
                let w = Int(e.world)
                var time = e.time
                for _ in 0..<draws.next(4) {
                    time += Int64(draws.next(2)) * Int64(draws.next(4_000_000_000) + 1)
                    let late = entry(time, w, sequence[w])
                    sequence[w] += 1
                    sweep.add(late)
                    made.append(late)
                }
                sweep.closeRun()
            }
        }
        let inWindow = made.filter { $0.time < end }.map(key).sorted { $0.lexicographicallyPrecedes($1) }
        expectEqual(taken.map(key), inWindow)
        // What falls at or after the window's end waits for the next window.
        sweep.startWindow(start: end, end: end + 86_400_000_000)
        sweep.startSweep()
        var carried: [[Int64]] = []
        while let e = sweep.next() { carried.append(key(e)) }
        expectEqual(carried, made.filter { $0.time >= end }.map(key).sorted { $0.lexicographicallyPrecedes($1) })
    }

    /// A mass reconnect: many worlds writing within a few microseconds or milliseconds, many at
    /// one instant and several writes of a world at one instant, with or without writes spread
    /// over the day — buckets of time far more crowded than the rest, sorted on their own (with
    /// an odd or even number of passes over worlds of 8 and 13 bits).
    @Test(arguments: [(3, 6_000, true), (40, 6_000, true), (5_000, 6_000, true), (3, 200, false), (0, 200, false), (40, 6_000, false)])
    func aCrowdedMomentComesOutInTheGlobalOrder(spreadMicroseconds: Int, worlds: Int, spreadOverTheDay: Bool) {
        var draws = Draws(state: UInt64(spreadMicroseconds * 7 + worlds))
        let sweep = SpeculationSweep()
        let start: Int64 = 0, end: Int64 = 86_400_000_000
        let reconnect: Int64 = 31_200_000_000
        sweep.startWindow(start: start, end: end)
        var made: [SweepEntry] = []
        for w in 0..<worlds {
            var times = spreadOverTheDay ? (0..<draws.next(4)).map { _ in Int64(draws.next(86_399_000_000)) } : []
            times += (0..<(1 + draws.next(3))).map { _ in reconnect + Int64(draws.next(spreadMicroseconds + 1)) }
            for (sequence, time) in times.sorted().enumerated() {
                let e = entry(time, w, sequence)
                sweep.add(e)
                made.append(e)
            }
        }
        sweep.startSweep()
        var taken: [[Int64]] = []
        while let e = sweep.next() { taken.append(key(e)) }
        expectEqual(taken, made.map(key).sorted { $0.lexicographicallyPrecedes($1) })
    }

    /// Thousands of worlds resumed while the window is swept, as after a mass reconnect: each
    /// makes a run from the instant it was taken (its first entry often at that very instant)
    /// over the rest of the window, in steps from microseconds to hours, so that thousands of
    /// runs are merged at once, and entries of runs share instants with the window's and each
    /// other's. Windows of a day, of a few milliseconds, and one ending at the end of time.
    @Test(arguments: [(Int64(0), Int64(86_400_000_000)), (Int64(7_000), Int64(7_000 + 3_000)),
                      (Int64(4_000_000_000_000_000_000), Int64.max)])
    func runsMadeByThousandsOfResumedWorldsComeOutInTheGlobalOrder(start: Int64, end: Int64) {
        var draws = Draws(state: UInt64(truncatingIfNeeded: end &- start))
        let span = end - start
        let sweep = SpeculationSweep()
        sweep.startWindow(start: start, end: end)
        let worlds = 3_000
        var made: [SweepEntry] = []
        var sequence = [Int](repeating: 0, count: worlds)
        for w in 0..<worlds {
            // One or two entries near the window's start.
            for _ in 0..<(1 + draws.next(2)) {
                let e = entry(start + Int64(draws.next(Int(min(span / 8, 1_000_000)) + 1)), w, sequence[w])
                sequence[w] += 1
                sweep.add(e)
                made.append(e)
            }
        }
        sweep.startSweep()
        var taken: [SweepEntry] = []
        var lateMade: [SweepEntry] = []
        // Runs make runs (a world resumed at an entry of its run): a budget keeps them finite.
        var runsLeft = 2 * worlds
        while let e = sweep.next() {
            taken.append(e)
            guard runsLeft > 0, draws.next(3) == 0 else { continue }
            runsLeft -= 1
            let w = Int(e.world)
            var time = e.time
            for _ in 0..<draws.next(12) {
                switch draws.next(4) {
                case 0: break
                case 1: time += Int64(draws.next(5))
                case 2: time += Int64(draws.next(Int(min(span / 64, 4_000_000_000)) + 1))
                default: time += Int64(draws.next(Int(min(span / 4, 40_000_000_000)) + 1))
                }
                let late = entry(time, w, sequence[w])
                sequence[w] += 1
                sweep.add(late)
                lateMade.append(late)
            }
            sweep.closeRun()
        }
        let expected = (made + lateMade).filter { $0.time < end }.map(key).sorted { $0.lexicographicallyPrecedes($1) }
        expectEqual(taken.count, expected.count)
        expectEqual(taken.map(key), expected)
        #expect(runsLeft == 0 && lateMade.count > 2 * worlds, "too few late entries to test: \(lateMade.count)")
    }

    @Test func entriesBeforeTheWindowsStartAreSortedByComparison() {
        // Never made by a run (the first window starts at 0), but the order holds.
        let sweep = SpeculationSweep()
        sweep.startWindow(start: 100, end: 1_000)
        for e in [entry(150, 2, 0), entry(-5, 1, 0), entry(150, 0, 3), entry(99, 4, 1)] { sweep.add(e) }
        sweep.startSweep()
        var taken: [[Int64]] = []
        while let e = sweep.next() { taken.append(key(e)) }
        expectEqual(taken, [[-5, 1, 0], [99, 4, 1], [150, 0, 3], [150, 2, 0]])
    }
}
