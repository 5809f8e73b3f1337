// OwnedArray: the world's in-place arrays behave like arrays for one owner.
import Testing
@testable import PushSimCore
import PushSimTestSupport

@Suite struct OwnedArrayTests {
    @Test func appendsPastItsCapacityAndKeepsOrder() {
        var array = OwnedArray<Int>(capacity: 2)
        for i in 0..<1_000 { array.append(i * 3) }
        expectEqual(array.count, 1_000)
        expectEqual(array.elements, (0..<1_000).map { $0 * 3 })
    }

    @Test func anArrayWithNoRoomHoldsNothingAndGrowsAsAnyOther() {
        // Room for none allocates nothing (a world between arms holds no room, OwnedArray.swift).
        var array = OwnedArray<Int>(capacity: 0)
        #expect(array.capacity == 0 && array.isEmpty)
        array.reset(repeating: 7, count: 0)
        array.removeFirst(0)
        expectEqual(array.count, 0)
        for i in 0..<10 { array.append(i) }
        #expect(array.elements == Array(0..<10) && array.capacity >= 10)
        array.releaseMemory()
        #expect(array.capacity == 0 && array.isEmpty)
        array.append(5)
        expectEqual(array.elements, [5])
        // Two arrays trade their elements and their room.
        var other = OwnedArray<Int>(capacity: 0)
        array.swapStorage(with: &other)
        #expect(array.isEmpty && array.capacity == 0 && other.elements == [5])
        var queue = EventQueue<Int>(capacity: 16), empty = EventQueue<Int>(capacity: 16)
        queue.schedule(at: 3, 30)
        queue.schedule(at: 1, 10)
        queue.swapStorage(with: &empty)
        #expect(queue.isEmpty && empty.count == 2 && empty.popNext()?.payload == 10)
        // The scheduling order went along: the next event at the same instant comes after.
        empty.schedule(at: 3, 31)
        #expect(empty.popNext()?.payload == 30 && empty.popNext()?.payload == 31)
    }

    @Test func itsHeaderIsAPointerAndTwo32BitCounts() {
        // 16 bytes in its owner, not 24: a world of a shared partition holds eight .
        expectEqual(MemoryLayout<OwnedArray<LetterState>>.size, 16)
        expectEqual(MemoryLayout<EventQueue<ChainEvent>>.size, 24)
        var array = OwnedArray<UInt8>(capacity: 0)
        array.append(repeating: 7, count: 70_000)
        array.append(8)
        let count = array.count, last = array[70_000], capacity = array.capacity
        #expect(count == 70_001 && last == 8 && capacity >= 70_001)
        array.removeFirst(70_000)
        let left = array.count, first = array[0]
        expectEqual(left, 1)
        expectEqual(first, 8)
    }

    @Test func growsByHalfNotDouble() {
        // Every coupled world holds its arrays at once: room grows half as much again (at least
        // 2), so a third of it at most is unused (doubling left half).
        var array = OwnedArray<Int>(capacity: 1)
        for i in 0..<5_000 {
            array.append(i)
            #expect(array.capacity <= array.count + max(2, array.count / 2), "\(array.count) in \(array.capacity)")
        }
        expectEqual(OwnedArray<Int>(capacity: 1).capacity, 1)
        var small = OwnedArray<Int>(capacity: 1)
        for i in 0..<3 { small.append(i) }
        expectEqual(small.capacity, 3)
        var bulk = OwnedArray<Int>(capacity: 100)
        bulk.append(repeating: 7, count: 101)
        #expect(bulk.capacity == 150 && bulk.count == 101 && bulk.elements.allSatisfy { $0 == 7 })
        expectEqual(array.elements, Array(0..<5_000))
    }

    @Test func updatesElementsInPlace() {
        var states = OwnedArray<LetterState>()
        states.reset(repeating: LetterState(), count: 5)
        states[3].delivered = true
        states[3].firstDelivery = 42
        states[1].position = 7
        expectEqual(states.elements.map(\.delivered), [false, false, false, true, false])
        #expect(states[3].firstDelivery == 42 && states[1].position == 7)
    }

    @Test func resetReplacesEverythingAndRemoveAllEmpties() {
        var array = OwnedArray<String>(capacity: 1)
        array.append("a"); array.append("b")
        array.reset(repeating: "z", count: 40)
        #expect(array.count == 40 && array.elements.allSatisfy { $0 == "z" })
        array.reset(repeating: "y", count: 3)
        expectEqual(array.elements, ["y", "y", "y"])
        array.removeAll()
        expectEqual(array.count, 0)
        array.append("c")
        expectEqual(array.elements, ["c"])
    }

    @Test func trimmingGivesBackRoomAboveWhatItKeepsAndNothingElse() {
        var array = OwnedArray<Int>(capacity: 0)
        for i in 0..<100 { array.append(i) }
        array.removeFirst(97)
        let grown = array.capacity
        #expect(grown >= 100)
        // Room for 8 kept: the 3 elements stay, in order, and the room comes down to 8.
        array.trimRoom(toHold: 8)
        #expect(array.capacity == 8 && array.elements == [97, 98, 99])
        // Within a growth step of what it keeps (8 + 8/4): nothing moves.
        array.trimRoom(toHold: 7)
        expectEqual(array.capacity, 8)
        // Never below the count; to nothing when empty.
        array.trimRoom(toHold: 0)
        #expect(array.capacity == 3 && array.elements == [97, 98, 99])
        array.removeAll()
        array.trimRoom(toHold: 0)
        #expect(array.capacity == 0 && array.isEmpty)
        // An array trimmed to nothing grows again as any other.
        for i in 0..<10 { array.append(i) }
        expectEqual(array.elements, Array(0..<10))
    }

    @Test func aTrimmedHeapKeepsItsEventsAndTheirOrder() {
        var queue = EventQueue<Int>(capacity: 4)
        for i in 0..<200 { queue.schedule(at: Int64(i % 7), i) }
        for _ in 0..<190 { _ = queue.popNext() }
        #expect(queue.capacity >= 200)
        queue.trimRoom(toHold: 4)
        expectEqual(queue.capacity, 10)
        expectEqual(queue.count, 10)
        // Events scheduled after the trim still come after those scheduled before at the same instant.
        queue.schedule(at: 6, 1_000)
        var out: [Int] = []
        while let e = queue.popNext() { out.append(e.payload) }
        var reference = Array(0..<200).sorted { ($0 % 7, $0) < ($1 % 7, $1) }.suffix(10).map { $0 }
        reference.append(1_000)
        expectEqual(out, reference)
    }

    /// A reference-counted element, to see whether the array's death lets it go.
    final class Tracked {}

    @Test func anArrayThatDiesReleasesItsElements() {
        // Both deinits free their memory without the generic storage's helpers
        // (OwnedArray.swift, EventQueue.swift): the elements must still be released.
        weak var inArray: Tracked?
        weak var inQueue: Tracked?
        do {
            var array = OwnedArray<Tracked>(capacity: 0)
            var queue = EventQueue<Tracked>(capacity: 4)
            for k in 0..<40 {
                let element = Tracked(), event = Tracked()
                if k == 17 { inArray = element; inQueue = event }
                array.append(element)
                queue.schedule(at: Int64(k), event)
            }
            #expect(inArray != nil && inQueue != nil)
            expectEqual(array.count, 40)
            expectEqual(queue.count, 40)
        }
        #expect(inArray == nil)
        #expect(inQueue == nil)
    }

    @Test func fetchesTheNewestElementsAndTheRoomAfterThemWithinItsMemory() {
        // Half before the end, half after, within the room: 8-byte elements, 256 bytes.
        expectEqual(OwnedArray<Int>.elementsAroundEnd(count: 100, capacity: 200, stride: 8, maxBytes: 256), 84..<116)
        // No room after the end: only the newest.
        expectEqual(OwnedArray<Int>.elementsAroundEnd(count: 100, capacity: 100, stride: 8, maxBytes: 256), 84..<100)
        // Nothing held yet: the room the first ones go in.
        expectEqual(OwnedArray<Int>.elementsAroundEnd(count: 0, capacity: 10, stride: 8, maxBytes: 256), 0..<10)
        #expect(OwnedArray<Int>.elementsAroundEnd(count: 0, capacity: 0, stride: 8, maxBytes: 256).isEmpty)
        var stream = RandomStream(seed: 5)
        for _ in 0..<2_000 {
            let capacity = Int(stream.next() % 300)
            let count = capacity == 0 ? 0 : Int(stream.next() % UInt64(capacity + 1))
            let stride = 1 + Int(stream.next() % 64)
            let maxBytes = Int(stream.next() % 1_024)
            let range = OwnedArray<Int>.elementsAroundEnd(count: count, capacity: capacity, stride: stride, maxBytes: maxBytes)
            #expect(range.lowerBound >= 0 && range.upperBound <= capacity)
            #expect(range.count * stride <= maxBytes)
            // What comes next, when there is room for it and the budget holds a few elements.
            if count < capacity && maxBytes >= 4 * stride { #expect(range.contains(count)) }
            if count > 0 && maxBytes >= 4 * stride { #expect(range.contains(count - 1)) }
        }
    }

    @Test func behavesAsAnArrayUnderRandomOperationsAndKeepsItsInvariants() {
        var stream = RandomStream(seed: 11)
        var owned = OwnedArray<Int>(capacity: 0)
        var shadow: [Int] = []
        for step in 0..<5_000 {
            switch stream.next() % 8 {
            case 0, 1, 2: owned.append(step); shadow.append(step)
            case 3: if !shadow.isEmpty { expectEqual(owned.removeLast(), shadow.removeLast()) }
            case 4: let n = shadow.isEmpty ? 0 : Int(stream.next() % UInt64(shadow.count + 1))
                owned.removeFirst(n); shadow.removeFirst(n)
            case 5: owned.trimRoom(toHold: Int(stream.next() % 8))
            case 6: if !shadow.isEmpty { let i = Int(stream.next() % UInt64(shadow.count)); owned[i] += 1; shadow[i] += 1 }
            default: if stream.next() % 50 == 0 { owned.releaseMemory(keepingRoom: 1); shadow = [] }
            }
            // Hints from anywhere, in range or not, read and change nothing.
            owned.prefetchElements(from: Int(stream.next() % 48) - 8, maxBytes: 64)
            owned.prefetchAroundEnd(maxBytes: Int(stream.next() % 600))
            owned._checkInvariants()
            #expect(owned.count == shadow.count && owned.capacity >= owned.count)
        }
        expectEqual(owned.elements, shadow)
    }
}
