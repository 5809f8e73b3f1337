// The estimate's per-device figures for one kind of device: letters (rate, profile, bursts, trace) and connectivity changes (process, windows).
import PushSimCore

extension ResourceEstimate {
    /// What one device of a population (the whole scenario, or one segment) costs.
    struct Population {
        /// Devices in it (scaled to a shard's count).
        var devices: Double
        /// Mean letters of one device, and the busiest device's.
        var letters: Double
        var peakLetters: Double
        /// Flips of the alternating process, and window intervals inside the run.
        var processFlips: Double
        var windowIntervals: Double
        /// Steps to lay out the windows every device shares (once per chunk), and those drawn
        /// per device (`length`, `spread`: once per device).
        var sharedWindowSteps: Double
        var perDeviceWindowSteps: Double

        var flips: Double { ResourceEstimate.finite(processFlips + 2 * windowIntervals) }
        var peakFlips: Double { ResourceEstimate.peak(processFlips) + 2 * windowIntervals }

        /// The resolved scenario its devices run in (a segment's: docs/model.md §5), for the
        /// mechanisms' figures (``ResourceEstimate/loads(of:arms:scenario:end:)``).
        var scenario: Scenario

        /// `devices` devices living in `scenario` (resolved: no segments); `deviceRange` are
        /// their ids (for a trace's exact counts).
        init(devices: Double, deviceRange: Range<Int>, scenario: Scenario, duration: SimTime, end: Double) {
            self.devices = devices
            self.scenario = scenario
            let mail = scenario.mail, connectivity = scenario.connectivity
            let span = Double(duration.microseconds)
            if let trace = mail.trace {
                // Exact: the trace's letters of these devices, and the most any one of them has.
                let ids = deviceRange.clamped(to: 0..<max(0, trace.offsets.count - 1))
                let count = ids.isEmpty ? 0 : Double(trace.offsets[ids.upperBound] - trace.offsets[ids.lowerBound])
                letters = deviceRange.isEmpty ? 0 : count / Double(deviceRange.count)
                peakLetters = Double(ids.map { trace.offsets[$0 + 1] - trace.offsets[$0] }.max() ?? 0)
            } else {
                // A daily profile keeps the mean rate; a burst brings `size` letters at once, so
                // the busiest device is judged by the compound count's variance.
                let regular = ResourceEstimate.finite(mail.ratePerMicrosecond * span)
                var mean = regular, variance = regular
                if let bursts = mail.bursts {
                    let instants = ResourceEstimate.finite(bursts.ratePerMicrosecond * span)
                    let size = Double(bursts.size)
                    mean = ResourceEstimate.finite(mean + instants * size)
                    variance = ResourceEstimate.finite(variance + instants * size * size)
                }
                letters = mean
                peakLetters = mail.bursts == nil ? ResourceEstimate.peak(mean) : ResourceEstimate.peak(mean, variance: variance)
            }

            processFlips = 0
            if let online = connectivity.online, let offline = connectivity.offline, offline.mean > 0 {
                processFlips = ResourceEstimate.alternatingFlips(online, offline, end: end)
            }
            let shared = ResourceEstimate.repetitions(connectivity.windows.filter(\.isSameForEveryDevice), end: end)
            let own = ResourceEstimate.repetitions(connectivity.windows.filter { !$0.isSameForEveryDevice }, end: end)
            windowIntervals = ResourceEstimate.finite(shared.intervals + own.intervals)
            sharedWindowSteps = shared.steps
            perDeviceWindowSteps = own.steps
        }
    }

    /// The populations of `scenario` with `devices` devices in all: one, or one per segment
    /// (a shard's devices are split in the segments' proportions).
    static func populations(_ scenario: Scenario, devices: Double) -> [Population] {
        let end = Double(scenario.end.microseconds)
        if scenario.segments.isEmpty {
            return [Population(devices: devices, deviceRange: 0..<scenario.devices, scenario: scenario,
                               duration: scenario.duration, end: end)]
        }
        let scale = devices / Double(max(1, scenario.devices))
        // Each segment in its resolved scenario: its own mail, connectivity, device, extension and
        // channel, so a mechanism one segment turns on is counted for its devices.
        let segments = scenario.segments.indices.filter { !scenario.segments[$0].devices.isEmpty }.map { i in
            Population(devices: Double(scenario.segments[i].devices.count) * scale, deviceRange: scenario.segments[i].devices,
                       scenario: scenario.scenario(forSegment: i), duration: scenario.duration, end: end)
        }
        // The top level's own windows and periods, with no device and no letter: a simulator may
        // lay them out even when every segment replaces them, and an estimate may be high, never low.
        var idle = scenario
        idle.segments = []
        idle.mail.ratePerMicrosecond = 0; idle.mail.bursts = nil; idle.mail.trace = nil
        return segments + [Population(devices: 0, deviceRange: 0..<0, scenario: idle, duration: scenario.duration, end: end)]
    }

    /// The largest of many compound counts with this mean and variance, generously.
    static func peak(_ mean: Double, variance: Double) -> Double {
        mean <= 0 ? 0 : finite(mean + 6 * variance.squareRoot() + 16)
    }
}
