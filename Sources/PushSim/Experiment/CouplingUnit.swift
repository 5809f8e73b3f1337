// The coupling unit: the smallest group of devices that must be simulated together, which --jobs and --shard cut between.

/// Devices in one unit share something the model simulates (a server's queue, say), so a
/// unit must run on one thread and in one shard: thread chunks and shards are cut only between
/// units. Devices never interact in today's model, so a unit is one device; a mechanism that
/// couples devices returns its unit size from `of(_:)` and everything that splits a run
/// follows.
public struct CouplingUnit: Equatable, Sendable {
    /// Devices per unit (the last unit of a run may hold fewer); at least 1.
    public var devices: Int

    public static let oneDevice = CouplingUnit(devices: 1)

    /// The unit of a scenario's devices.
    public static func of(_ scenario: Scenario) -> CouplingUnit { .oneDevice }

    /// The units a run of `total` devices holds, the last one possibly partial.
    func units(in total: Int) -> Int {
        let size = max(1, devices)
        return total / size + (total % size == 0 ? 0 : 1)
    }

    /// The device at which unit `u` starts, clamped to `total`.
    func firstDevice(ofUnit u: Int, in total: Int) -> Int {
        let (product, overflow) = u.multipliedReportingOverflow(by: max(1, devices))
        return overflow ? total : min(product, total)
    }
}
