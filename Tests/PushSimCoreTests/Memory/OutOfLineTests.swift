// OutOfLine: a value with no memory until written, read as the shared fresh value until then.
import Testing
@testable import PushSimCore
import PushSimTestSupport

@Suite struct OutOfLineTests {
    // Fresh values live for the program (an `Immortal` is never freed), so they are globals
    // here as in the engine: one made per test would be a leak by design.
    static let emptyArray = Immortal<[Int]>([])
    static let five = Immortal<Int>(5)
    static let one = Immortal<Int>(1)

    @Test func readsTheFreshValueUntilWrittenThenItsOwn() {
        let fresh = Self.emptyArray
        var value = OutOfLine<[Int]>()
        let existsBefore = value.exists, readBefore = value[orFresh: fresh]
        #expect(!existsBefore && readBefore.isEmpty)
        // The first write copies the fresh value into the owner's own block.
        value[orFresh: fresh].append(2)
        let existsAfter = value.exists, own = value[orFresh: fresh]
        #expect(existsAfter && own == [2])
        // Written again in place, not made again; the shared fresh value is never written.
        value[orFresh: fresh].append(3)
        let again = value[orFresh: fresh]
        #expect(again == [2, 3] && fresh.value.isEmpty)
        value._checkInvariants(fresh: fresh)
        value.release()
        let existsReleased = value.exists, readReleased = value[orFresh: fresh]
        #expect(!existsReleased && readReleased.isEmpty)
        value.release()
        let existsTwice = value.exists
        #expect(!existsTwice)
    }

    @Test func eachOwnerHasItsOwnBlock() {
        let fresh = Self.five
        var first = OutOfLine<Int>(), second = OutOfLine<Int>()
        first[orFresh: fresh] += 10
        second[orFresh: fresh] += 20
        let one = first[orFresh: fresh], two = second[orFresh: fresh]
        expectEqual(one, 15)
        expectEqual(two, 25)
        expectEqual(fresh.value, 5)
        first._checkInvariants(fresh: fresh)
        second._checkInvariants(fresh: fresh)
    }

    @Test func freshIsEvaluatedOnlyWithoutABlock() {
        let fresh = Self.one
        var asked = 0
        func counted() -> Immortal<Int> { asked += 1; return fresh }
        var value = OutOfLine<Int>()
        _ = value[orFresh: counted()]
        value[orFresh: counted()] = 7
        let before = asked
        _ = value[orFresh: counted()]
        value[orFresh: counted()] += 1
        #expect(before == 2 && asked == 2 && value[orFresh: fresh] == 8)
    }
}
