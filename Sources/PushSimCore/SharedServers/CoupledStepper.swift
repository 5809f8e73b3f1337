// Runs the device worlds of one coupling unit around a server they share, in the order one global (time, device, sequence) list would give.

/// A server that the devices of a coupling unit share (an XIVA partition's re-request queue).
/// A world hands it what it sent at an instant once it has taken every other step of that
/// instant; the server answers by scheduling events in that world. A world stops for its
/// server when it has something for it (`runUntilItSends`: today the re-requests in `joining`;
/// another shared server adds its own outbox there).
package protocol SharedServer {
    /// World number `device` (its index in the unit) has taken every step of instant `now`.
    mutating func collect(from world: inout DeviceWorld, device: Int, at now: Int64)
}

/// The worlds of one coupling unit, held together while one arm steps them. Devices meet only
/// at the server, and only through what they send it; what a world does between two sends
/// depends on nothing else. So each world runs on its own until it sends (stopping at the end
/// of that instant), and the server takes the waiting senders in (instant, device) order: a
/// sender is taken only when every other world has either finished or stopped at a later
/// (instant, device), so the server hears every send in exactly the order one global event
/// list ordered by (time, device, sequence) would give it (a test checks this byte for byte;
/// docs/performance.md, The coupled path).
package final class CoupledWorlds {
    package let count: Int
    let worlds: Slab<DeviceWorld>

    /// `count` worlds, world i made by `make(i)`.
    package init(count: Int, _ make: (Int) -> DeviceWorld) {
        self.count = count
        worlds = Slab(count: count, make)
    }

    /// Calls `body` with world i, in place.
    package func with<R>(_ i: Int, _ body: (inout DeviceWorld) -> R) -> R {
        body(&worlds[i])
    }

    /// ``step(server:finished:)`` with a partition's servers, the product's one server: a
    /// concrete entry, so that this module specializes the loop for them. Called from another
    /// module, the generic `step` ran unspecialized, every send through a witness table.
    package func step(servers: inout PartitionServers, finished: (Int) -> Void) {
        step(server: &servers, finished: finished)
    }

    /// Runs one arm of every world (already begun) to its end, with `server` between them;
    /// `finished(i)` hears of each world once it has nothing more to do before the end (its
    /// accounts are the caller's to close).
    package func step<Server: SharedServer>(server: inout Server, finished: (Int) -> Void) {
        // The worlds stopped at a send, by (instant, world index). Over the binary interface
        // every push stops its world, so this heap is on the hot path: the first world goes
        // back in with one sift down (``StoppedWorlds``).
        var stopped = StoppedWorlds(capacity: count)
        for i in 0..<count {
            if let t = worlds[i].runUntilItSends() { stopped.insert(time: t, world: i) } else { finished(i) }
        }
        while let next = stopped.first {
            let i = next.world
            // What the worlds taken next touch first, fetched while this one runs: each link of
            // the chain world → object → elements a step before the next (WorldPrefetch.swift).
            let (likely, second, third) = stopped.likelyNext()
            if third >= 0 { HotMemory.fetchWorld(third, of: worlds) }
            if second >= 0 { HotMemory.fetchObjects(of: &worlds[second]) }
            if likely >= 0 { HotMemory.fetchElements(of: &worlds[likely]) }
            server.collect(from: &worlds[i], device: i, at: next.time)
            if let t = worlds[i].runUntilItSends() { stopped.replaceFirst(time: t) } else { stopped.removeFirst(); finished(i) }
        }
    }
}
