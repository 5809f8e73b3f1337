// Devices are cut into chunks for threads: a partition, near-equal, for any population.
import Testing
@testable import PushSimExperiment
@testable import PushSimCore
import PushSimTestSupport

@Suite struct ChunkRangeTests {
    @Test(arguments: [(0..<10, 3), (5..<105, 16), (0..<7, 32), (3..<4, 1)])
    func chunksPartitionTheRangeInOrder(range: Range<Int>, count: Int) {
        let chunks = (0..<count).map { Simulator.chunkRange(range, $0, of: count) }
        expectEqual(chunks.first?.lowerBound, range.lowerBound)
        expectEqual(chunks.last?.upperBound, range.upperBound)
        for (a, b) in zip(chunks, chunks.dropFirst()) { expectEqual(a.upperBound, b.lowerBound) }
        let sizes = chunks.map(\.count)
        #expect((sizes.max() ?? 0) - (sizes.min() ?? 0) <= 1)
    }

    @Test func hugePopulationsDoNotOverflow() {
        // count × chunk once overflowed from about 5.6·10^14 devices at 1 024 threads.
        let range = 0..<1_000_000_000_000_000
        let last = Simulator.chunkRange(range, 16_383, of: 16_384)
        expectEqual(last.upperBound, range.upperBound)
        #expect(last.count == 1_000_000_000_000_000 / 16_384 || last.count == 1_000_000_000_000_000 / 16_384 + 1)
    }
}
