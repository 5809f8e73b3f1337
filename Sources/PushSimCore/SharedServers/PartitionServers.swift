// The servers a partition's devices share, stepped together: XIVA's re-request queue (finite capacity) and the binary connection.

/// What one coupled arm of a partition shares: XIVA's re-request server when capacity is finite
/// and the arm re-requests (docs/model.md §6), the binary connection when XIVA talks to APNs
/// over the legacy interface (§11). Either may be absent; a world's re-requests are taken
/// before its writes, always in that order, so the events they schedule keep one order.
package struct PartitionServers: SharedServer {
    package var xiva: XivaPartitionServer?
    package var binary: BinaryConnectionServer?

    package init(xiva: XivaPartitionServer?, binary: BinaryConnectionServer?) {
        self.xiva = xiva
        self.binary = binary
    }

    package mutating func collect(from world: inout DeviceWorld, device: Int, at now: Int64) {
        xiva?.collect(from: &world, device: device, at: now)
        binary?.collect(from: &world, device: device, at: now)
    }
}
