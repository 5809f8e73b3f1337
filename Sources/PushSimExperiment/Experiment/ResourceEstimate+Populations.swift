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

        /// `devices` devices living in `mail` and `connectivity`; `deviceRange` are their ids
        /// (for a trace's exact counts).
        init(devices: Double, deviceRange: Range<Int>, mail: Scenario.Mail, connectivity: Scenario.Connectivity,
             duration: SimTime, end: Double) {
            self.devices = devices
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
                let cycle = ResourceEstimate.truncatedMean(online, at: end) + ResourceEstimate.truncatedMean(offline, at: end)
                // A cycle shorter than a microsecond still advances the clock by at least one
                // microsecond every other period at most; never divide by (almost) nothing.
                processFlips = 2 * end / max(cycle, 1) + 2
            }
            var intervals = 0.0, shared = 0.0, own = 0.0
            for window in connectivity.windows {
                let start = Double(window.start.microseconds), stop = Double(window.end.microseconds)
                var windowIntervals = 0.0, steps = 0.0
                if window.length == nil && stop <= start { continue }
                if let every = window.every, !every.isForever, every.microseconds > 0 {
                    let period = Double(every.microseconds)
                    if window.length == nil && stop - start >= period {
                        windowIntervals = 1; steps = 1
                    } else {
                        // An offset within `spread` may add one repetition at either end.
                        let shift = window.spread == .zero ? 0.0 : 1.0
                        windowIntervals = end / period + 2 + shift
                        steps = (max(stop, start) + Double(window.spread.microseconds) + end) / period + 2 + shift
                    }
                } else {
                    windowIntervals = 1; steps = 1
                }
                intervals += windowIntervals
                if window.isSameForEveryDevice { shared += steps } else { own += steps }
            }
            windowIntervals = ResourceEstimate.finite(intervals)
            sharedWindowSteps = ResourceEstimate.finite(shared)
            perDeviceWindowSteps = ResourceEstimate.finite(own)
        }
    }

    /// The populations of `scenario` with `devices` devices in all: one, or one per segment
    /// (a shard's devices are split in the segments' proportions).
    static func populations(_ scenario: Scenario, devices: Double) -> [Population] {
        let end = Double(scenario.end.microseconds)
        if scenario.segments.isEmpty {
            return [Population(devices: devices, deviceRange: 0..<scenario.devices, mail: scenario.mail,
                               connectivity: scenario.connectivity, duration: scenario.duration, end: end)]
        }
        let scale = devices / Double(max(1, scenario.devices))
        let segments = scenario.segments.filter { !$0.devices.isEmpty }.map { segment in
            Population(devices: Double(segment.devices.count) * scale, deviceRange: segment.devices, mail: segment.mail,
                       connectivity: segment.connectivity, duration: scenario.duration, end: end)
        }
        // The top level's own windows and periods, with no device and no letter: a simulator may
        // lay them out even when every segment replaces them, and an estimate may be high, never low.
        var idle = scenario.mail
        idle.ratePerMicrosecond = 0; idle.bursts = nil; idle.trace = nil
        return segments + [Population(devices: 0, deviceRange: 0..<0, mail: idle, connectivity: scenario.connectivity,
                                      duration: scenario.duration, end: end)]
    }

    /// The largest of many compound counts with this mean and variance, generously.
    static func peak(_ mean: Double, variance: Double) -> Double {
        mean <= 0 ? 0 : finite(mean + 6 * variance.squareRoot() + 16)
    }
}
