// The SimPy peer's measured speed, which `pushsim bench` divides by, and where it was measured.

/// What the SimPy model of the same chain (Tests/Peers/simpy/chain.py) did when
/// Tests/Peers/simpy/compare.py timed it, as docs/performance.md quotes it. The bench's
/// "× SimPy" figures divide by this measured figure and print where it comes from; re-measure
/// with the command in `measuredBy` on the machine that measures results/bench.json, and
/// change both together: a ratio across two machines measures the machines.
package enum SimPyReference {
    /// Letters per second, one core (the peer's own count of letters, both arms simulated).
    package static let lettersPerSecond = 5_586.0
    /// The command that measured it.
    package static let measuredBy = "python3 Tests/Peers/simpy/compare.py scenarios/quickstart.yaml --devices 300"
    /// When and on what.
    package static let measuredOn = "2026-12-07 01:36 UTC, Linux x86_64, 2-core AMD EPYC at 1-minute load 0.81, simpy 4.1.2, python 3.11.7"
    /// The workload, which differs from the bench's (the peer reads version-1 scenario files).
    package static let scenario = "scenarios/quickstart.yaml, 300 devices, both arms"

    /// The line the bench's table ends with.
    package static var line: String {
        "SimPy peer: \(Int(lettersPerSecond)) letters/s on \(scenario), measured by `\(measuredBy)` (\(measuredOn))"
    }
}
