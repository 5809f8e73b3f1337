// OutOfLine: a value with no memory until written, read as the shared fresh value until then.
import Testing
@testable import PushSimCore

@Suite struct OutOfLineTests {
    @Test func readsTheFreshValueUntilWrittenThenItsOwn() {
        let fresh = OutOfLine.madeOnce([Int]())
        var value = OutOfLine<[Int]>()
        let existsBefore = value.exists, readBefore = value.readable(orFresh: fresh)
        #expect(!existsBefore && readBefore == fresh)
        value.writable(orMake: [1]).pointee.append(2)
        let existsAfter = value.exists, own = value.readable(orFresh: fresh)
        #expect(existsAfter && own != fresh && own.pointee == [1, 2])
        // Written again in place, not made again.
        value.writable(orMake: [9]).pointee.append(3)
        let again = value.readable(orFresh: fresh).pointee
        #expect(again == [1, 2, 3] && fresh.pointee.isEmpty)
        value.release()
        let existsReleased = value.exists, readReleased = value.readable(orFresh: fresh)
        #expect(!existsReleased && readReleased == fresh)
        value.release()
        let existsTwice = value.exists
        #expect(!existsTwice)
    }

    @Test func eachOwnerHasItsOwnBlock() {
        let fresh = OutOfLine.madeOnce(0)
        var first = OutOfLine<Int>(), second = OutOfLine<Int>()
        first.writable(orMake: 1).pointee += 10
        second.writable(orMake: 2).pointee += 20
        let one = first.readable(orFresh: fresh).pointee, two = second.readable(orFresh: fresh).pointee
        #expect(one == 11 && two == 22 && fresh.pointee == 0)
    }
}
