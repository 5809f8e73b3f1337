// Coupling units: thread chunks and shards cut only between them; one-device units cut as before.
import Testing
@testable import PushSim

/// Thread chunks and shards cut only between coupling units.
@Suite struct CouplingUnitTests {
    @Test func chunksHoldWholeUnits() {
        let unit = CouplingUnit(devices: 4)
        let parts = Simulator.inChunks(of: 10..<31, jobs: 2, unit: unit) { $0 }
        #expect(parts.first?.lowerBound == 10 && parts.last?.upperBound == 31)
        for (a, b) in zip(parts, parts.dropFirst()) { #expect(a.upperBound == b.lowerBound) }
        // Every cut but the run's end falls on a unit boundary counted from the range's start.
        for part in parts.dropLast() { #expect((part.upperBound - 10) % 4 == 0) }
        #expect(parts.count == 6)   // 21 devices: five whole units and one of one device
    }

    @Test func shardsHoldWholeUnitsAndCoverEveryDevice() {
        let unit = CouplingUnit(devices: 3)
        let ranges = (0..<4).map { ShardSpec(index: $0, count: 4)!.devices(of: 20, unit: unit) }
        #expect(ranges.first?.lowerBound == 0 && ranges.last?.upperBound == 20)
        for (a, b) in zip(ranges, ranges.dropFirst()) { #expect(a.upperBound == b.lowerBound) }
        for range in ranges.dropLast() { #expect(range.upperBound % 3 == 0) }
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
