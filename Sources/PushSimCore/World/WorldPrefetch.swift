// What a world of a shared partition touches first when it runs again, noted when it stops, so that the stepper can fetch it ahead.

import PushSimPrefetch

/// The memory a stopped world touches first when the stepper takes it again: its arrays'
/// objects and elements, its heap, its connectivity timeline where it stands, the letters it
/// reads next. In a partition of 10 000 phones a world has left the caches by the time it runs
/// again, and each of these was a miss it waited for, one after the other (an array is an
/// object, then its elements). Noted as line addresses when the world stops, when all of it is
/// in the caches, they can be fetched together a step ahead without reading the world
/// (``CoupledWorlds``; docs/performance.md, The coupled rung's first touches fetched ahead).
///
/// A row only names memory; it never reads through an address, and a prefetch of memory freed
/// or moved since (a world's arrays grow while it runs) costs a wasted line, nothing else.
enum HotMemory {
    /// Line addresses noted per world: 32, about what a stopped world holds; more, or fewer
    /// lines per array, measured slower (docs/performance.md).
    static let width = 32
    /// At most this many bytes of one array, from its start.
    static let bytesPerArray = 256

    /// Notes the lines `world` will touch first in `row` (``width`` of them; nil after the last).
    static func note(_ world: borrowing DeviceWorld, into row: UnsafeMutablePointer<UnsafeRawPointer?>) {
        var k = 0
        // The lines of `bytes` bytes from `start`, at most `bytesPerArray` of them.
        func add(_ start: UnsafeRawPointer?, _ bytes: Int) {
            guard let start else { return }
            var offset = 0
            repeat {
                guard k < width else { return }
                row[k] = start + offset
                k += 1
                offset += 64
            } while offset < min(bytes, bytesPerArray)
        }
        func object(_ o: AnyObject) { add(UnsafeRawPointer(Unmanaged.passUnretained(o).toOpaque()), 1) }
        func array<Element>(_ a: OwnedArray<Element>) {
            object(a)
            let (start, bytes) = a.elementBytes
            add(start, bytes)
        }
        object(world.clock.queue)
        let (events, eventBytes) = world.clock.queue.elementBytes
        add(events, eventBytes)
        array(world.copies)
        array(world.letterStates)
        array(world.ext.runs)
        array(world.ext.requests)
        array(world.xiva.letterAtPosition)
        // A Swift array's count sits in the 32 bytes before its elements.
        world.draws.timeline.flips.withUnsafeBufferPointer {
            guard let base = $0.baseAddress else { return }
            add(UnsafeRawPointer(base) - 32, 1)
            if world.clock.flipsPassed < $0.count { add(UnsafeRawPointer(base + world.clock.flipsPassed), 16) }
        }
        world.mechanisms.joining.withUnsafeBufferPointer {
            if let base = $0.baseAddress { add(UnsafeRawPointer(base) - 32, 1) }
        }
        world.draws.letters.noteNextLetters(add)
        if k < width { row[k] = nil }
    }

    /// Fetches the lines `row` names.
    @inline(__always) static func fetch(_ row: UnsafeMutablePointer<UnsafeRawPointer?>) {
        for k in 0..<width {
            guard let address = row[k] else { return }
            pushsim_prefetch(address)
        }
    }
}
