// A deliberate slowdown for the instruction gate's own test: a busy loop per device and arm.
import Synchronization

/// `PUSHSIM_SPEED_GATE_SPIN=N` (read once, when the command line starts) makes every device
/// turn a xorshift N × 2 000 times before each arm, about 12 000 instructions a device and arm
/// for N = 1: a slowdown the instruction gate (`.ci/instruction-gate`) must catch. Unset or 0,
/// it costs one test of a number per device and arm. It never changes a result: the loop's
/// value goes to an atomic that nothing reads, which the optimizer cannot drop.
package enum SpeedGateSpin {
    /// Units of 2 000 turns per device and arm; 0 = off. Set before any run starts.
    nonisolated(unsafe) package static var units = 0

    /// Reads `PUSHSIM_SPEED_GATE_SPIN`: a whole number from 0 to 1 000; anything else is 0.
    package static func install(environment: [String: String]) {
        units = environment["PUSHSIM_SPEED_GATE_SPIN"].flatMap { Int($0) }.map { max(0, min($0, 1_000)) } ?? 0
    }

    /// The busy loop for one device and arm, when on.
    @inline(__always) static func spin(device: Int) {
        if units > 0 { turn(seed: UInt64(truncatingIfNeeded: device), count: units * 2_000) }
    }

    private static let sink = Atomic<UInt64>(0)

    @inline(never) private static func turn(seed: UInt64, count: Int) {
        var x = seed | 1
        for _ in 0..<count { x ^= x << 13; x ^= x >> 7; x ^= x << 17 }
        sink.store(x, ordering: .relaxed)
    }
}
