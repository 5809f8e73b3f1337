// The coupling unit: the smallest group of devices that must be simulated together, which --jobs and --shard cut between.
import PushSimCore

/// Devices in one unit share something the model simulates (a server's queue), so a unit must
/// run on one thread and in one shard: thread chunks and shards are cut only between units.
/// Without a shared server a unit is one device (or a fixed-size block, for tests); with a
/// finite XIVA capacity the units are the XIVA partitions (docs/model.md §6), whose boundaries
/// are fixed by the whole run's device count, so a shard's sub-range is cut at the same places.
package struct CouplingUnit: Equatable, Sendable {
    /// Devices per unit (the last unit of a run may hold fewer); at least 1. Unused when
    /// `partitions` is set.
    package var devices: Int
    /// When set, the units are the XIVA partitions `(count, of: total devices of the run)`.
    package var partitions: (count: Int, runDevices: Int)? {
        get { partitionCount.map { ($0, partitionedDevices) } }
        set { partitionCount = newValue?.count; partitionedDevices = newValue?.runDevices ?? 0 }
    }
    private var partitionCount: Int? = nil
    private var partitionedDevices: Int = 0

    package init(devices: Int) { self.devices = devices }

    /// Units that are the `count` XIVA partitions of a run of `runDevices` devices.
    package static func xivaPartitions(_ count: Int, ofDevices runDevices: Int) -> CouplingUnit {
        var unit = CouplingUnit(devices: 1)
        unit.partitions = (max(1, min(count, max(1, runDevices))), max(0, runDevices))
        return unit
    }

    package static let oneDevice = CouplingUnit(devices: 1)

    /// The unit of a scenario's devices: its XIVA partitions when capacity is finite (devices of
    /// a partition share one server) or XIVA writes over APNs' binary interface (they share one
    /// connection, docs/model.md §11), one device otherwise.
    package static func of(_ scenario: Scenario) -> CouplingUnit {
        guard scenario.xiva.capacityPerMicrosecond != nil || scenario.apns.interface == .binary else { return .oneDevice }
        return .xivaPartitions(scenario.xiva.partitions, ofDevices: scenario.devices)
    }

    /// Why a run cannot be split into `shards` shards of whole units, or nil if it can: a
    /// shard holds whole partitions, so an empty shard would be a split that simulates nothing.
    package func refusal(shards: Int) -> String? {
        guard let (count, _) = partitions, shards > count else { return nil }
        return "--shard: \(shards) shards but only \(count) XIVA partition\(count == 1 ? "" : "s"): devices of a partition share one server (xiva.capacity is finite) or one binary connection (apns.interface: binary), so a shard holds whole partitions; use at most \(count) shards or more xiva.partitions"
    }

    /// The units whose first device lies in `range` (a run, or a shard of whole units).
    func units(in range: Range<Int>) -> Range<Int> {
        guard let (count, total) = partitions else {
            return 0..<fixedUnits(in: range.count)
        }
        return firstPartition(atOrAfter: range.lowerBound, count, total)
            ..< firstPartition(atOrAfter: range.upperBound, count, total)
    }

    /// The device at which unit `u` of `units(in: range)` starts, clamped to `range`.
    func firstDevice(ofUnit u: Int, in range: Range<Int>) -> Int {
        guard let (count, total) = partitions else {
            return range.lowerBound + fixedFirstDevice(ofUnit: u, in: range.count)
        }
        let start = u >= count ? total : xivaPartitionDevices(u, of: count, devices: total).lowerBound
        return min(max(start, range.lowerBound), range.upperBound)
    }

    /// The smallest partition starting at or after `device` (`count` when none does), by
    /// bisection: partition starts grow with the partition index.
    private func firstPartition(atOrAfter device: Int, _ count: Int, _ total: Int) -> Int {
        var low = 0, high = count
        while low < high {
            let mid = low + (high - low) / 2
            if xivaPartitionDevices(mid, of: count, devices: total).lowerBound < device { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// Fixed-size units in a run of `total` devices, the last one possibly partial.
    private func fixedUnits(in total: Int) -> Int {
        let size = max(1, devices)
        return total / size + (total % size == 0 ? 0 : 1)
    }

    /// The device at which fixed-size unit `u` starts, clamped to `total`.
    private func fixedFirstDevice(ofUnit u: Int, in total: Int) -> Int {
        let (product, overflow) = u.multipliedReportingOverflow(by: max(1, devices))
        return overflow ? total : min(product, total)
    }

    package static func == (a: CouplingUnit, b: CouplingUnit) -> Bool {
        a.devices == b.devices && a.partitionCount == b.partitionCount && a.partitionedDevices == b.partitionedDevices
    }
}
