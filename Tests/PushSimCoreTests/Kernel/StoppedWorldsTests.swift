// The coupled stepper's heap of stopped worlds: (instant, world) order against a sorted reference.
import Testing
@testable import PushSimCore
import PushSimTestSupport

@Suite struct StoppedWorldsTests {
    /// The stepper's use, at random: take the first, put it back later or let it finish; the
    /// order taken is that of a sorted list, ties by world.
    @Test func takingTheFirstAndPuttingItBackFollowsASortedReference() {
        for seed in UInt64(1)...20 {
            var rng = RandomStream(seed: seed)
            let count = 1 + Int(rng.next() % 200)
            var heap = StoppedWorlds(capacity: count)
            var reference: [(time: Int64, world: Int)] = []
            for w in 0..<count {
                let t = Int64(rng.next() % 50)
                heap.insert(time: t, world: w)
                reference.append((t, w))
            }
            var taken = 0
            while let first = heap.first {
                reference.sort { ($0.time, $0.world) < ($1.time, $1.world) }
                #expect(first.time == reference[0].time && first.world == reference[0].world, "seed \(seed)")
                // The guess the stepper prefetches by: the second, third and fourth of the order.
                let likely = heap.likelyNext()
                func world(_ k: Int) -> Int { reference.count > k ? reference[k].world : -1 }
                expectEqual(likely.next, world(1), "seed \(seed)")
                expectEqual(likely.second, world(2), "seed \(seed)")
                expectEqual(likely.third, world(3), "seed \(seed)")
                if rng.nextUnit() < 0.1 {
                    heap.removeFirst()
                    reference.removeFirst()
                } else {
                    // Not before its last stop; often far ahead (a world's next push), often a tie.
                    let later = first.time + Int64(rng.next() % (rng.nextUnit() < 0.5 ? 3 : 500))
                    heap.replaceFirst(time: later)
                    reference[0].time = later
                }
                taken += 1
                expectEqual(heap.count, reference.count)
            }
            #expect(reference.isEmpty && taken > 0)
        }
    }

    @Test func anEmptyHeapHasNoFirstAndIgnoresRemovals() {
        var heap = StoppedWorlds(capacity: 0)
        #expect(heap.first == nil)
        heap.removeFirst()
        heap.replaceFirst(time: 5)
        #expect(heap.first == nil && heap.count == 0)
        heap.insert(time: 3, world: 0)
        #expect(heap.first?.world == 0 && heap.first?.time == 3)
    }
}
