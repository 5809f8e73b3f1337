// The size of a run as the report's title gives it: devices, duration, drain.
import PushSimCore

/// What the title of a run's table says about its size, so that a merged run (which has no
/// scenario, only partial results) writes the very summary.md a single run writes.
package struct RunSize: Equatable, Sendable {
    package var devices: Int
    package var duration: SimTime
    package var drain: SimTime

    package init(devices: Int, duration: SimTime, drain: SimTime) {
        self.devices = devices; self.duration = duration; self.drain = drain
    }

    package init(_ scenario: Scenario) {
        self.init(devices: scenario.devices, duration: scenario.duration, drain: scenario.drain)
    }
}
