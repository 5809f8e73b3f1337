// What a stopped world's row names for the stepper to fetch ahead: the memory it touches first, within the row's width.
import Testing
@testable import PushSimCore
import PushSimTestSupport

@Suite struct HotMemoryTests {
    /// Calls `check` with a world of the herd stopped at its re-request and the row noted for
    /// it; returns whether one of the herd's devices stopped.
    func withStoppedWorldAndRow(_ check: (borrowing DeviceWorld, [UnsafeRawPointer?]) throws -> Void) throws -> Bool {
        let scenario = try CoupledRunTests().herd(devices: 36, extra: ["duration=2d", "queue.mode=on"])
        for device in 0..<36 {
            var world = DeviceWorld(scenario: scenario)
            world.prepare(device: device, lettersOnDemand: true)
            world.begin(.on)
            guard world.runUntilItSends() != nil else { continue }
            let row = UnsafeMutablePointer<UnsafeRawPointer?>.allocate(capacity: HotMemory.width)
            defer { row.deallocate() }
            // A mark that noting must overwrite up to its end.
            row.initialize(repeating: Self.mark, count: HotMemory.width)
            HotMemory.note(world, into: row)
            try check(world, Array(UnsafeBufferPointer(start: row, count: HotMemory.width)))
            return true
        }
        return false
    }

    /// (A computed property: a stored pointer is not `Sendable`.)
    static var mark: UnsafeRawPointer? { UnsafeRawPointer(bitPattern: 1) }

    func address(of object: AnyObject) -> UnsafeRawPointer { UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque()) }

    @Test func aStoppedWorldsRowNamesItsArraysObjectsAndElements() throws {
        let stopped = try withStoppedWorldAndRow { world, row in
            let named = Set(row.compactMap { $0 })
            #expect(named.contains(address(of: world.clock.queue)))
            #expect(named.contains(address(of: world.copies)))
            #expect(named.contains(address(of: world.letterStates)))
            #expect(named.contains(address(of: world.ext.runs)) && named.contains(address(of: world.ext.requests)))
            // The elements of the arrays that hold any, from their first line (the letters it
            // reached are there; its heap may be empty until the server answers).
            #expect(world.letterStates.count > 0 && named.contains(world.letterStates.elementBytes.start))
            #expect(world.clock.queue.count == 0 || named.contains(world.clock.queue.elementBytes.start))
            #expect(world.copies.count == 0 || named.contains(world.copies.elementBytes.start))
            // The re-request it stopped for is in `joining`, whose count the server reads first.
            #expect(!world.mechanisms.joining.isEmpty)
            let joiningCount = world.mechanisms.joining.withUnsafeBufferPointer { $0.baseAddress.map { UnsafeRawPointer($0) - 32 } }
            #expect(joiningCount.map(named.contains) == true)
        }
        #expect(stopped)
    }

    @Test func aRowEndsWithNilOrFillsItsWidthAndTakesAnArraysLinesInOrderUpToItsCap() throws {
        let stopped = try withStoppedWorldAndRow { world, row in
            // Everything before the first nil is a line, and noting wrote up to there.
            let used = row.firstIndex(where: { $0 == nil }) ?? row.count
            #expect(used > 0 && used <= HotMemory.width)
            #expect(!row.prefix(min(used + 1, row.count)).contains(Self.mark))
            // An array is noted as its object, then its elements' lines in 64-byte steps from
            // their start, as many as they take up to bytesPerArray.
            let at = try #require(row.firstIndex(of: address(of: world.letterStates)))
            let (start, bytes) = world.letterStates.elementBytes
            let expected = (max(1, min(bytes, HotMemory.bytesPerArray)) + 63) / 64
            #expect(expected >= 1 && expected <= HotMemory.bytesPerArray / 64)
            for k in 0..<expected where at + 1 + k < used {
                #expect(row[at + 1 + k] == start + 64 * k)
            }
        }
        #expect(stopped)
    }
}
