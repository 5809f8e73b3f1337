// The typed, validated scenario: every key of the contract with its default.

/// Which arms a run simulates.
public enum QueueMode: String, Sendable, CaseIterable { case off, on, both }

/// Which client code the extension runs (docs/model.md §1).
public enum ClientVariant: String, Sendable, CaseIterable {
    /// The saved position moves forward on every numbered push.
    case intended
    /// The published snippet: the saved position moves only after a gap was found.
    case literal
}

/// An offline window: offline in [start + k·every, end + k·every) for every device, or, with
/// `length` or `spread` (docs/scenarios.md §2a), a window that differs per device: device d's
/// k-th occurrence is offline in [start + offset_d + k·every, … + length drawn per occurrence),
/// offset_d uniform in [0, spread), drawn once per device per window entry.
public struct OfflineWindow: Hashable, Sendable {
    public var start: SimTime
    /// The end of the occurrence at k = 0, always after `start` (a night written
    /// `{start: 23h, end: 7h, every: 1d}` is stored with end 31h). Unused when `length` is set.
    public var end: SimTime
    /// nil: the window happens once.
    public var every: SimTime?
    /// Drawn per device per occurrence instead of `end` (docs/model.md §5, Windows per device); nil: `end` applies.
    public var length: Distribution? = nil
    /// Each device shifts the window by an offset uniform in [0, spread); zero: no shift.
    public var spread: SimTime = .zero
    public init(start: SimTime, end: SimTime, every: SimTime? = nil) {
        self.start = start; self.end = end; self.every = every
    }
    public init(start: SimTime, length: Distribution, every: SimTime? = nil, spread: SimTime = .zero) {
        self.start = start; self.end = start; self.every = every; self.length = length; self.spread = spread
    }

    /// Whether every device has exactly the same occurrences (the version-1 window): those are
    /// laid out once per run rather than once per device.
    public var isSameForEveryDevice: Bool { length == nil && spread == .zero }
}

/// Extra letters that come in bursts (docs/scenarios.md §2a, Bursts): burst instants are a Poisson
/// process of `ratePerMicrosecond` per device; each brings `size` letters at b + U·spread.
public struct MailBursts: Hashable, Sendable {
    public var ratePerMicrosecond: Double
    public var size: Int
    public var spread: SimTime = .zero
    public init(ratePerMicrosecond: Double, size: Int, spread: SimTime = .zero) {
        self.ratePerMicrosecond = ratePerMicrosecond; self.size = size; self.spread = spread
    }
}

/// Letters replayed from a `time,device` CSV (docs/scenarios.md §2a, Replaying real traffic), read and checked when the
/// scenario is loaded. Stored by device (offsets into one array of times, each device's times
/// sorted, rows of equal time in file order), so a device's letters are one slice.
public final class MailTrace: Sendable {
    /// The path as written in the scenario (relative to the scenario file).
    public let path: String
    /// `times[offsets[d] ..< offsets[d + 1]]` are device d's letters, in microseconds.
    public let offsets: [Int]
    public let times: [Int64]

    public init(path: String, offsets: [Int], times: [Int64]) {
        self.path = path; self.offsets = offsets; self.times = times
    }

    /// Device d's letter instants, sorted.
    public func letters(device d: Int) -> ArraySlice<Int64> {
        guard d >= 0, d + 1 < offsets.count else { return [] }
        return times[offsets[d]..<offsets[d + 1]]
    }

    public var count: Int { times.count }
}

public struct Scenario: Sendable {
    public var name: String
    public var description: String = ""
    public var seed: UInt64 = 1
    public var duration: SimTime
    public var drain: SimTime = SimTime(microseconds: SimTime.day)
    public var devices: Int

    /// Letters of [0, warmup) are simulated but not counted (docs/model.md §5, Warm-up); `.zero`: all count.
    public var warmup: SimTime = .zero

    public struct Mail: Sendable {
        /// Poisson rate of letters per device, per microsecond.
        public var ratePerMicrosecond: Double = 40.0 / Double(SimTime.day)
        /// 24 hourly weights (docs/model.md §5, Time of day): intensity rate × w[h(t)] / mean(w); nil: constant rate.
        public var dailyProfile: [Double]? = nil
        public var bursts: MailBursts? = nil
        /// Replaces rate, profile and bursts when set.
        public var trace: MailTrace? = nil
    }
    public var mail = Mail()

    public struct Connectivity: Sendable {
        /// Both or neither; neither → online except in windows.
        public var online: Distribution? = nil
        public var offline: Distribution? = nil
        public var windows: [OfflineWindow] = []
    }
    public var connectivity = Connectivity()

    public struct Xiva: Sendable {
        public var drop: Double = 0
        public var latency: Distribution = .constant(SimTime(microseconds: 50 * SimTime.millisecond))
        public var retention: SimTime = SimTime(microseconds: 3 * SimTime.day)
        public var requestLatency: Distribution = .constant(SimTime(microseconds: 300 * SimTime.millisecond))
        public var requestError: Double = 0
        public var resendLatency: Distribution = .constant(SimTime(microseconds: 200 * SimTime.millisecond))
        /// Windows in which XIVA is out, the same for every device (docs/model.md §6, XIVA as a shared server).
        public var outages: [XivaOutage] = []
        public var outageMode: XivaOutageMode = .delay
        /// Re-requests one partition's server serves per microsecond; nil: `forever` (no queue).
        public var capacityPerMicrosecond: Double? = nil
        /// A re-request that would wait longer is answered with an error; `.forever`: it waits.
        public var queueTimeout: SimTime = .forever
        public var partitions: Int = 1
    }
    public var xiva = Xiva()

    public struct Apns: Sendable {
        public var loss: Double = 0
        public var latency: Distribution = .constant(SimTime(microseconds: 100 * SimTime.millisecond))
        /// `.zero`: not stored; `.forever`: never expires.
        public var expiration: SimTime = SimTime(microseconds: SimTime.day)
        /// Probability the older push stays in the store when the newer one enters less than
        /// `keepWindow` after it (docs/model.md §5, APNs' store).
        public var keepOlder: Double = 0
        public var keepWindow: SimTime = SimTime(microseconds: SimTime.second)
        /// Probability APNs hands a push to the device twice (docs/model.md §5, Second copies).
        public var duplicate: Double = 0
    }
    public var apns = Apns()

    public struct Device: Sendable {
        public var alertsOff: Double = 0
        /// nil: never cleared (`forever`).
        public var clearAfter: Distribution? = nil
        /// The time between two openings of the app by the user (docs/model.md §7, Client catch-up); nil: never.
        public var appOpen: Distribution? = nil
        /// Poisson rate of device id changes per microsecond (docs/model.md §8, Device id change); 0: never.
        public var idChangeRatePerMicrosecond: Double = 0
        /// Doze windows, the same for every device of the segment (docs/model.md §9, FCM): FCM
        /// holds normal-priority messages while one lasts. Empty: the device never dozes.
        public var doze: [OfflineWindow] = []
    }
    public var device = Device()

    public struct Extension: Sendable {
        public var deadline: SimTime = SimTime(microseconds: 30 * SimTime.second)
        public var processing: Distribution = .constant(SimTime(microseconds: 200 * SimTime.millisecond))
        /// Probability the system kills a run at start-up or for memory, without the expiry
        /// callback (docs/model.md §8, Early kill).
        public var earlyKill: Double = 0
        /// Whether runs of one device check and save the position one at a time or side by side
        /// (docs/model.md §8, Parallel runs).
        public var concurrency: ExtensionConcurrency = .serial
        /// With `parallel`, the time from a run's start to its write of the saved position; nil: at once.
        public var saveDelay: Distribution? = nil
    }
    public var `extension` = Extension()

    public struct Queue: Sendable {
        public var mode: QueueMode = .both
        public var repeatMaxCount: Int = 10
        public var collapseId: Bool = true
        public var client: ClientVariant = .intended
    }
    public var queue = Queue()

    /// The queue arm's design of recovery (docs/model.md §7): the push queue, a client catch-up, or none.
    public var recovery: RecoveryDesign = .queue

    /// The push service between XIVA and the device (docs/model.md §9); per segment too.
    public var channel: PushChannel = .apns
    public var pushkit = PushKit()
    public var fcm = FCM()

    /// One kind of user in a population (docs/model.md §5, Segments): its devices and its own sections, already
    /// resolved (a key the segment does not give holds the top-level value).
    public struct Segment: Sendable {
        public var name: String
        /// The share as written (`60%`, `0.25`), for reports and the resolved scenario.
        public var share: String
        /// Its devices, `[B(i−1), B(i))`, worked out exactly from the shares.
        public var devices: Range<Int>
        public var mail: Mail
        public var connectivity: Connectivity
        public var device: Device
        public var `extension`: Extension
        public var channel: PushChannel
        public init(name: String, share: String, devices: Range<Int>, mail: Mail, connectivity: Connectivity,
                    device: Device, extension: Extension, channel: PushChannel = .apns) {
            self.name = name; self.share = share; self.devices = devices; self.mail = mail
            self.connectivity = connectivity; self.device = device; self.extension = `extension`
            self.channel = channel
        }
    }
    /// Empty: one kind of user, the top-level sections.
    public var segments: [Segment] = []

    public init(name: String, duration: SimTime, devices: Int) {
        self.name = name; self.duration = duration; self.devices = devices
    }

    /// The instant the run stops: `duration + drain`.
    public var end: SimTime { duration + drain }

    /// The scenario a device of segment `i` lives in: the top-level one with the segment's
    /// sections (and no segments). Device ids, and so random streams, stay global.
    public func scenario(forSegment i: Int) -> Scenario {
        var resolved = self
        let segment = segments[i]
        resolved.mail = segment.mail
        resolved.connectivity = segment.connectivity
        resolved.device = segment.device
        resolved.extension = segment.extension
        resolved.channel = segment.channel
        resolved.segments = []
        return resolved
    }

    /// The index of the segment holding device `d` (segments are contiguous and in order);
    /// nil without segments.
    public func segmentIndex(ofDevice d: Int) -> Int? {
        guard !segments.isEmpty else { return nil }
        var low = 0, high = segments.count - 1
        while low < high {
            let mid = (low + high) / 2
            if d < segments[mid].devices.upperBound { high = mid } else { low = mid + 1 }
        }
        return low
    }

    /// The arms this scenario runs, in the contract's order (off, then on).
    public var arms: [Bool] {
        switch queue.mode {
        case .off: return [false]
        case .on: return [true]
        case .both: return [false, true]
        }
    }
}
