// One XIVA partition's binary connection as the partition's worlds share it: their writes and buffer checks, in the order rule 1 gives (docs/model.md §11).

/// The shared side of the binary interface: the partition's ``BinaryConnection``. A world hands
/// it the writes and buffer checks of an instant once it has taken every other step of that
/// instant; worlds come in (instant, device) order (``CoupledWorlds``), so the connection sees
/// the writes in the order one global event list would give, and every draw is the writer's
/// own, in its own order.
package struct BinaryConnectionServer: SharedServer {
    package private(set) var connection: BinaryConnection

    package init(scenario: Scenario) {
        self.init(parameters: ChainParameters(scenario))
    }

    init(parameters: ChainParameters) {
        connection = BinaryConnection(writeTime: parameters.binaryWriteTime, bufferSize: parameters.resendBuffer)
    }

    package mutating func collect(from world: inout DeviceWorld, device: Int, at now: Int64) {
        // The outbox is read in place (the server appends nothing to it while it works) and
        // emptied once: no swap, no generic `removeAll(keepingCapacity:)` per push. Read
        // through the world at each item rather than held in a local: a local reference lives
        // across the `inout` world handed to `write`, so the compiler retained and released
        // it per push (an unowned local kept the retain).
        let count = world.mechanisms.binaryLink.outbox.count
        guard count > 0 else { return }
        for k in 0..<count {
            switch world.mechanisms.binaryLink.outbox[k] {
            case .write(let c):
                write(c, in: &world, at: now)
            case .check(let c):
                // Every write that reached the closed connection ended before now: the count is final.
                if let discarded = world.mechanisms.binaryLink.takeDiscard(of: c), connection.isStillBuffered(discarded) {
                    write(world.binaryRewrite(copy: c, at: now), in: &world, at: now)
                } else {
                    world.binaryDiscardLost(copy: c, at: now)
                }
            }
        }
        world.mechanisms.binaryLink.outbox.removeAll()
    }

    /// Copy `c` of `world` is written: its draw, the connection's decision, the world's events.
    private mutating func write(_ c: CopyIndex, in world: inout DeviceWorld, at now: Int64) {
        let bad = world.binaryWriteIsBad(c)
        let outcome = connection.write(joiningAt: now, malformed: bad) { world.binaryErrorDelay() }
        world.binaryWritten(copy: c, outcome)
    }
}
