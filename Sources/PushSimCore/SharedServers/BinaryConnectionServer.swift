// One XIVA partition's binary connection as the partition's worlds share it: their writes and buffer checks, in the order rule 1 gives (docs/model.md §11).

/// The shared side of the binary interface: the partition's ``BinaryConnection``. A world hands
/// it the writes and buffer checks of an instant once it has taken every other step of that
/// instant; worlds come in (instant, device) order (``CoupledWorlds``), so the connection sees
/// the writes in the order one global event list would give, and every draw is the writer's
/// own, in its own order.
package struct BinaryConnectionServer: SharedServer {
    package internal(set) var connection: BinaryConnection

    package init(scenario: Scenario) {
        self.init(parameters: ChainParameters(scenario))
    }

    init(parameters: ChainParameters) {
        connection = BinaryConnection(writeTime: parameters.binaryWriteTime, bufferSize: parameters.resendBuffer)
    }

    package mutating func collect(from world: inout DeviceWorld, device: Int, at now: Int64) {
        world.settleBinaryOutbox(at: now, with: &connection)
    }
}
