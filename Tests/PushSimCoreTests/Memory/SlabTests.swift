// Slab: a fixed number of values that cannot be copied, made once, read and written in place, freed once.
import Testing
@testable import PushSimCore
import PushSimTestSupport

@Suite struct SlabTests {
    /// A value that cannot be copied and counts its ends.
    final class Ends { var count = 0 }
    struct Tracked: ~Copyable {
        var value: Int
        let ends: Ends
        deinit { ends.count += 1 }
    }

    @Test func valuesAreMadeInOrderAndWrittenInPlace() {
        let ends = Ends()
        do {
            let slab = Slab(count: 5) { i in Tracked(value: i * 10, ends: ends) }
            slab._checkInvariants()
            expectEqual(slab.count, 5)
            expectEqual((0..<5).map { slab[$0].value }, [0, 10, 20, 30, 40])
            slab[3].value += 7
            #expect(slab[3].value == 37 && slab[2].value == 20)
            expectEqual(ends.count, 0)
        }
        // Each value ends exactly once, with the slab.
        expectEqual(ends.count, 5)
    }

    @Test func anEmptySlabHoldsNothing() {
        let slab = Slab<Int>(count: 0) { $0 }
        slab._checkInvariants()
        slab.prefetch(0)
        expectEqual(slab.count, 0)
    }

    @Test func prefetchingChangesNothing() {
        let slab = Slab(count: 3) { $0 + 1 }
        for i in -2...5 { slab.prefetch(i) }
        expectEqual((0..<3).map { slab[$0] }, [1, 2, 3])
    }
}
