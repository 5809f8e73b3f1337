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
}
