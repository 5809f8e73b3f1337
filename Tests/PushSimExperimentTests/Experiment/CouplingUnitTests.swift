// Coupling units: thread chunks and shards cut only between them; one-device units cut as before.
import Testing
@testable import PushSimCore
@testable import PushSimExperiment
import PushSimTestSupport

/// Thread chunks and shards cut only between coupling units.
@Suite struct CouplingUnitTests {
    @Test func chunksHoldWholeUnits() {
        let unit = CouplingUnit(devices: 4)
        let parts = Simulator.inChunks(of: 10..<31, jobs: 2, unit: unit) { $0 }
        #expect(parts.first?.lowerBound == 10 && parts.last?.upperBound == 31)
        for (a, b) in zip(parts, parts.dropFirst()) { expectEqual(a.upperBound, b.lowerBound) }
        // Every cut but the run's end falls on a unit boundary counted from the range's start.
        for part in parts.dropLast() { expectEqual((part.upperBound - 10) % 4, 0) }
        expectEqual(parts.count, 6)   // 21 devices: five whole units and one of one device
    }

    @Test func shardsHoldWholeUnitsAndCoverEveryDevice() {
        let unit = CouplingUnit(devices: 3)
        let ranges = (0..<4).map { ShardSpec(index: $0, count: 4)!.devices(of: 20, unit: unit) }
        #expect(ranges.first?.lowerBound == 0 && ranges.last?.upperBound == 20)
        for (a, b) in zip(ranges, ranges.dropFirst()) { expectEqual(a.upperBound, b.lowerBound) }
        for range in ranges.dropLast() { expectEqual(range.upperBound % 3, 0) }
    }

    @Test func oneDeviceUnitsCutAsBefore() {
        for total in [0, 1, 7, 1000] {
            for n in 1...5 {
                for k in 0..<n {
                    let spec = ShardSpec(index: k, count: n)!
                    #expect(spec.devices(of: total, unit: .oneDevice)
                            == ShardSpec.cut(total, at: k, of: n)..<ShardSpec.cut(total, at: k + 1, of: n))
                }
            }
        }
    }
}

/// With a finite XIVA capacity the units are the partitions (docs/model.md §6).
@Suite struct CouplingUnitPartitionTests {
    /// Partition starts of a run, the cuts every split must fall on.
    private func starts(_ count: Int, of total: Int) -> Set<Int> {
        Set((0..<count).map { xivaPartitionDevices($0, of: count, devices: total).lowerBound } + [total])
    }

    @Test func chunksCutOnlyAtPartitionStarts() {
        let unit = CouplingUnit.xivaPartitions(7, ofDevices: 23)
        for jobs in [1, 2, 8] {
            let parts = Simulator.inChunks(of: 0..<23, jobs: jobs, unit: unit) { $0 }
            #expect(parts.first?.lowerBound == 0 && parts.last?.upperBound == 23)
            for (a, b) in zip(parts, parts.dropFirst()) { expectEqual(a.upperBound, b.lowerBound) }
            for part in parts { #expect(starts(7, of: 23).contains(part.upperBound)) }
            expectEqual(parts.count, 7)   // at most one chunk per partition
        }
    }

    @Test func shardsHoldWholePartitionsAndTheirChunksToo() {
        let unit = CouplingUnit.xivaPartitions(5, ofDevices: 17)
        let ranges = (0..<3).map { ShardSpec(index: $0, count: 3)!.devices(of: 17, unit: unit) }
        #expect(ranges.first?.lowerBound == 0 && ranges.last?.upperBound == 17)
        for (a, b) in zip(ranges, ranges.dropFirst()) { expectEqual(a.upperBound, b.lowerBound) }
        for range in ranges {
            #expect(!range.isEmpty && starts(5, of: 17).contains(range.lowerBound))
            // A shard's own chunks are cut at the run's partition starts, not at its own.
            let parts = Simulator.inChunks(of: range, jobs: 4, unit: unit) { $0 }
            #expect(parts.first?.lowerBound == range.lowerBound && parts.last?.upperBound == range.upperBound)
            for part in parts { #expect(starts(5, of: 17).contains(part.lowerBound) && !part.isEmpty) }
        }
    }

    @Test func moreShardsThanPartitionsAreRefusedSayingWhy() {
        let unit = CouplingUnit.xivaPartitions(3, ofDevices: 10)
        #expect(unit.refusal(shards: 3) == nil)
        let message = unit.refusal(shards: 4)
        expectEqual(message?.contains("4 shards but only 3 XIVA partitions"), true)
        #expect(CouplingUnit.oneDevice.refusal(shards: 1000) == nil)
    }

    @Test func capacityForeverKeepsOneDeviceUnits() {
        var scenario = Scenario(name: "t", duration: SimTime(microseconds: 1), devices: 10)
        scenario.xiva.partitions = 2
        expectEqual(CouplingUnit.of(scenario), .oneDevice)
        scenario.xiva.capacityPerMicrosecond = 1e-6
        expectEqual(CouplingUnit.of(scenario), .xivaPartitions(2, ofDevices: 10))
    }
}
