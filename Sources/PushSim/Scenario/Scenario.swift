// The typed, validated scenario: every key of the contract with its default.

/// Which arms a run simulates.
public enum QueueMode: String, Sendable, CaseIterable { case off, on, both }

/// Which client code the extension runs (domain.md §5).
public enum ClientVariant: String, Sendable, CaseIterable {
    /// The saved position moves forward on every numbered push.
    case intended
    /// The published snippet: the saved position moves only after a gap was found.
    case literal
}

/// A fixed offline window laid over every device: offline in [start + k·every, end + k·every).
public struct OfflineWindow: Hashable, Sendable {
    public var start: SimTime
    public var end: SimTime
    /// nil: the window happens once.
    public var every: SimTime?
    public init(start: SimTime, end: SimTime, every: SimTime? = nil) {
        self.start = start; self.end = end; self.every = every
    }
}

public struct Scenario: Sendable {
    public var name: String
    public var description: String = ""
    public var seed: UInt64 = 1
    public var duration: SimTime
    public var drain: SimTime = SimTime(microseconds: SimTime.day)
    public var devices: Int

    public struct Mail: Sendable {
        /// Poisson rate of letters per device, per microsecond.
        public var ratePerMicrosecond: Double = 40.0 / Double(SimTime.day)
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
    }
    public var xiva = Xiva()

    public struct Apns: Sendable {
        public var loss: Double = 0
        public var latency: Distribution = .constant(SimTime(microseconds: 100 * SimTime.millisecond))
        /// `.zero`: not stored; `.forever`: never expires.
        public var expiration: SimTime = SimTime(microseconds: SimTime.day)
    }
    public var apns = Apns()

    public struct Device: Sendable {
        public var alertsOff: Double = 0
        /// nil: never cleared (`forever`).
        public var clearAfter: Distribution? = nil
    }
    public var device = Device()

    public struct Extension: Sendable {
        public var deadline: SimTime = SimTime(microseconds: 30 * SimTime.second)
        public var processing: Distribution = .constant(SimTime(microseconds: 200 * SimTime.millisecond))
    }
    public var `extension` = Extension()

    public struct Queue: Sendable {
        public var mode: QueueMode = .both
        public var repeatMaxCount: Int = 10
        public var collapseId: Bool = true
        public var client: ClientVariant = .intended
    }
    public var queue = Queue()

    public init(name: String, duration: SimTime, devices: Int) {
        self.name = name; self.duration = duration; self.devices = devices
    }

    /// The instant the run stops: `duration + drain`.
    public var end: SimTime { duration + drain }

    /// The arms this scenario runs, in the contract's order (off, then on).
    public var arms: [Bool] {
        switch queue.mode {
        case .off: return [false]
        case .on: return [true]
        case .both: return [false, true]
        }
    }
}
