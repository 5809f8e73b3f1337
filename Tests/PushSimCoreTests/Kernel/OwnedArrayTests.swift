// OwnedArray: the world's in-place arrays behave like arrays for one owner.
import Testing
@testable import PushSimCore
import PushSimTestSupport

@Suite struct OwnedArrayTests {
    @Test func appendsPastItsCapacityAndKeepsOrder() {
        let array = OwnedArray<Int>(capacity: 2)
        for i in 0..<1_000 { array.append(i * 3) }
        #expect(array.count == 1_000)
        #expect(Array(array) == (0..<1_000).map { $0 * 3 })
    }

    @Test func anArrayWithNoRoomHoldsNothingAndGrowsAsAnyOther() {
        // Room for none allocates nothing (a world between arms holds no room, OwnedArray.swift).
        let array = OwnedArray<Int>(capacity: 0)
        #expect(array.capacity == 0 && array.isEmpty)
        array.reset(repeating: 7, count: 0)
        array.removeFirst(0)
        #expect(array.isEmpty)
        for i in 0..<10 { array.append(i) }
        #expect(Array(array) == Array(0..<10) && array.capacity >= 10)
        array.releaseMemory()
        #expect(array.capacity == 0 && array.isEmpty)
        array.append(5)
        #expect(Array(array) == [5])
        // Two arrays trade their elements and their room.
        let other = OwnedArray<Int>(capacity: 0)
        array.swapStorage(with: other)
        #expect(array.isEmpty && array.capacity == 0 && Array(other) == [5])
        let queue = EventQueue<Int>(capacity: 16), empty = EventQueue<Int>(capacity: 16)
        queue.schedule(at: 3, 30)
        queue.schedule(at: 1, 10)
        queue.swapStorage(with: empty)
        #expect(queue.isEmpty && empty.count == 2 && empty.popNext()?.payload == 10)
        // The scheduling order went along: the next event at the same instant comes after.
        empty.schedule(at: 3, 31)
        #expect(empty.popNext()?.payload == 30 && empty.popNext()?.payload == 31)
    }

    @Test func growsByHalfNotDouble() {
        // Every coupled world holds its arrays at once: room grows half as much again (at least
        // 4), so a third of it at most is unused (doubling left half).
        let array = OwnedArray<Int>(capacity: 1)
        for i in 0..<5_000 {
            array.append(i)
            #expect(array.capacity <= array.count + max(4, array.count / 2), "\(array.count) in \(array.capacity)")
        }
        #expect(OwnedArray<Int>(capacity: 1).capacity == 1)
        let small = OwnedArray<Int>(capacity: 1)
        for i in 0..<3 { small.append(i) }
        #expect(small.capacity == 5)
        let bulk = OwnedArray<Int>(capacity: 100)
        bulk.append(repeating: 7, count: 101)
        #expect(bulk.capacity == 150 && bulk.count == 101 && bulk.allSatisfy { $0 == 7 })
        #expect(Array(array) == Array(0..<5_000))
    }

    @Test func updatesElementsInPlace() {
        let states = OwnedArray<LetterState>()
        states.reset(repeating: LetterState(), count: 5)
        states[3].delivered = true
        states[3].firstDelivery = 42
        states[1].position = 7
        #expect(states.map(\.delivered) == [false, false, false, true, false])
        #expect(states[3].firstDelivery == 42 && states[1].position == 7)
    }

    @Test func resetReplacesEverythingAndRemoveAllEmpties() {
        let array = OwnedArray<String>(capacity: 1)
        array.append("a"); array.append("b")
        array.reset(repeating: "z", count: 40)
        #expect(array.count == 40 && array.allSatisfy { $0 == "z" })
        array.reset(repeating: "y", count: 3)
        #expect(Array(array) == ["y", "y", "y"])
        array.removeAll()
        #expect(array.isEmpty)
        array.append("c")
        #expect(Array(array) == ["c"])
    }

    /// A reference-counted element, to see whether the array's death lets it go.
    final class Tracked {}

    @Test func anArrayThatDiesReleasesItsElements() {
        // Both deinits free their memory without the generic storage's helpers
        // (OwnedArray.swift, EventQueue.swift): the elements must still be released.
        weak var inArray: Tracked?
        weak var inQueue: Tracked?
        do {
            let array = OwnedArray<Tracked>(capacity: 0)
            let queue = EventQueue<Tracked>(capacity: 4)
            for k in 0..<40 {
                let element = Tracked(), event = Tracked()
                if k == 17 { inArray = element; inQueue = event }
                array.append(element)
                queue.schedule(at: Int64(k), event)
            }
            #expect(inArray != nil && inQueue != nil)
            #expect(array.count == 40 && queue.count == 40)
        }
        #expect(inArray == nil)
        #expect(inQueue == nil)
    }
}
