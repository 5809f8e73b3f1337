// The size of a run as the report's title gives it: devices, duration, drain.

/// What the title of a run's table says about its size, so that a merged run (which has no
/// scenario, only partial results) writes the very summary.md a single run writes.
public struct RunSize: Equatable, Sendable {
    public var devices: Int
    public var duration: SimTime
    public var drain: SimTime

    public init(devices: Int, duration: SimTime, drain: SimTime) {
        self.devices = devices; self.duration = duration; self.drain = drain
    }

    public init(_ scenario: Scenario) {
        self.init(devices: scenario.devices, duration: scenario.duration, drain: scenario.drain)
    }
}
