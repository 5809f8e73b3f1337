// The event list: order by (time, scheduling order), against a sorted reference.
import Testing
@testable import PushSimCore
import PushSimTestSupport

@Suite struct EventQueueTests {
    @Test func eventsComeOutInTimeOrder() {
        var queue = EventQueue<Int>()
        for (i, t) in [50, 10, 40, 20, 30].enumerated() { queue.schedule(at: Int64(t), i) }
        var times: [Int64] = []
        while let e = queue.popNext() { times.append(e.time) }
        expectEqual(times, [10, 20, 30, 40, 50])
    }

    @Test func simultaneousEventsRunInSchedulingOrder() {
        var queue = EventQueue<Int>()
        for i in 0..<100 { queue.schedule(at: 7, i) }
        var payloads: [Int] = []
        while let e = queue.popNext() { payloads.append(e.payload) }
        expectEqual(payloads, Array(0..<100))
    }

    /// Random schedules and pops, many ties, against a stable sort by (time, order scheduled).
    @Test func randomInterleavingsMatchASortedReference() {
        for seed in UInt64(1)...10 {
            var rng = RandomStream(seed: seed)
            var queue = EventQueue<Int>()
            var reference: [(time: Int64, id: Int)] = []
            var nextId = 0
            var popped: [Int] = [], expected: [Int] = []
            for _ in 0..<2_000 {
                if rng.nextUnit() < 0.6 || reference.isEmpty {
                    // Times never before the last popped one, as in a simulation; few values → ties.
                    let base = queue.nextTime ?? 0
                    let t = base + Int64(rng.next() % 8)
                    queue.schedule(at: t, nextId)
                    reference.append((t, nextId))
                    nextId += 1
                } else {
                    let e = queue.popNext()!
                    popped.append(e.payload)
                    // The reference minimum: earliest time, then lowest id (= scheduling order).
                    let k = reference.indices.min { (reference[$0].time, reference[$0].id) < (reference[$1].time, reference[$1].id) }!
                    expected.append(reference.remove(at: k).id)
                }
                if !queue.satisfiesHeapInvariant || queue.count != reference.count {
                    Issue.record("heap broken or count wrong at seed \(seed)"); return
                }
            }
            while let e = queue.popNext() { popped.append(e.payload) }
            expected += reference.sorted { ($0.time, $0.id) < ($1.time, $1.id) }.map(\.id)
            expectEqual(popped, expected, "seed \(seed)")
        }
    }

    @Test func heapInvariantHoldsAfterEveryOperation() {
        var rng = RandomStream(seed: 99)
        var queue = EventQueue<Int>()
        for i in 0..<1_000 {
            queue.schedule(at: Int64(rng.next() % 1_000), i)
            let wellFormed = queue.satisfiesHeapInvariant
            #expect(wellFormed)
        }
        while !queue.isEmpty {
            _ = queue.popNext()
            let wellFormed = queue.satisfiesHeapInvariant
            #expect(wellFormed)
        }
    }

    @Test func popBeforeLimitLeavesLaterEvents() {
        var queue = EventQueue<String>()
        queue.schedule(at: 5, "a")
        queue.schedule(at: 10, "b")
        expectEqual(queue.popNext(before: 10)?.payload, "a")
        #expect(queue.popNext(before: 10) == nil)
        expectEqual(queue.count, 1)
        expectEqual(queue.nextTime, 10)
        expectEqual(queue.popNext(before: 11)?.payload, "b")
        #expect(queue.popNext(before: .max) == nil)
    }

    @Test func removeAllRestartsTheSchedulingOrder() {
        var queue = EventQueue<Int>()
        queue.schedule(at: 1, 0)
        queue.schedule(at: 1, 1)
        queue.removeAll()
        expectEqual(queue.count, 0)
        queue.schedule(at: 3, 2)
        let e = queue.popNext()!
        expectEqual(e.sequence, 0)
        expectEqual(e.payload, 2)
    }
}
