// One run split every way the product splits work: threads and shards merged back, for tests that the split never shows.
import Testing
@testable import PushSimCore
@testable import PushSimExperiment
@testable import PushSimReport

/// Expects `scenario` to give the bytes of one thread on two threads, and from 2, 3 and 4
/// shards written, read back and merged.
package func expectTheSameBytesOnEverySplit(_ scenario: Scenario, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let one = Simulator.run(scenario, jobs: 1)
    #expect(Simulator.run(scenario, jobs: 2) == one, sourceLocation: sourceLocation)
    for n in [2, 3, 4] {
        let parts = (0..<n).compactMap { ShardSpec(index: $0, count: n) }.map { PartialResult.run(scenario, shard: $0) }
        let reread = try parts.flatMap { try PartialResult.read($0.json.text, source: "part") }
        let merged = try PartialResult.merge(reread)
        #expect(merged == one, "\(n) shards", sourceLocation: sourceLocation)
        #expect(merged.json.text == one.json.text, sourceLocation: sourceLocation)
    }
}
