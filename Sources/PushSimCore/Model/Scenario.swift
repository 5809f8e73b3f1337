// The typed, validated scenario: every key of the contract with its default.
import PushSimClient

/// Which arms a run simulates.
package enum QueueMode: String, Sendable, CaseIterable { case off, on, both }

/// Which client code the extension runs (docs/model.md §1).
package enum ClientVariant: String, Sendable, CaseIterable {
    /// The saved position moves forward on every numbered push.
    case intended
    /// The published snippet: the saved position moves only after a gap was found.
    case literal
}

/// A client the one who runs the scenario supplies in Swift (docs/client.md): it decides in the
/// queue arm instead of `queue.client`. The name and version are the team's, for messages and
/// for every result it makes; `rules` records the first rule of the protocol it breaks.
package struct UserClient: Sendable {
    /// The client's code, in the protocol version it was written for.
    package enum Logic: Sendable {
        /// Version 1: one pure decision on a saved position (``ExtensionClient``).
        case decision(any ExtensionClient)
        /// Version 2: a state of the team's own type, the clock, waits, several ranges
        /// (``ServiceExtensionClient``), its state's type erased (``StatefulClientLogic``).
        case stateful(any StatefulClientLogic)
    }

    package let logic: Logic
    package let name: String
    /// The version or hash the team gives its client; nil when it gave none.
    package let version: String?
    package let rules: ClientRuleBook

    package init(_ client: any ExtensionClient, name: String, version: String? = nil, rules: ClientRuleBook = ClientRuleBook()) {
        logic = .decision(client); self.name = name; self.version = version; self.rules = rules
    }

    package init<Client: ServiceExtensionClient>(stateful client: Client, name: String, version: String? = nil,
                                                 rules: ClientRuleBook = ClientRuleBook()) {
        logic = .stateful(StatefulClientAdapter(client)); self.name = name; self.version = version; self.rules = rules
    }

    package init(logic: Logic, name: String, version: String?, rules: ClientRuleBook) {
        self.logic = logic; self.name = name; self.version = version; self.rules = rules
    }

    /// The version-1 client, or nil for a version-2 one.
    package var client: (any ExtensionClient)? {
        if case .decision(let client) = logic { return client }
        return nil
    }

    /// The version-2 client, or nil for a version-1 one.
    package var stateful: (any StatefulClientLogic)? {
        if case .stateful(let client) = logic { return client }
        return nil
    }

    /// The client protocol's version the client is written for.
    package var protocolVersion: Int { stateful == nil ? 1 : 2 }

    /// How a result names the client: "name version" or the name alone.
    package var label: String { version.map { "\(name) \($0)" } ?? name }
}

/// An offline window: offline in [start + k·every, end + k·every) for every device, or, with
/// `length` or `spread` (docs/scenarios.md §2a), a window that differs per device: device d's
/// k-th occurrence is offline in [start + offset_d + k·every, … + length drawn per occurrence),
/// offset_d uniform in [0, spread), drawn once per device per window entry.
package struct OfflineWindow: Hashable, Sendable {
    package var start: SimTime
    /// The end of the occurrence at k = 0, always after `start` (a night written
    /// `{start: 23h, end: 7h, every: 1d}` is stored with end 31h). Unused when `length` is set.
    package var end: SimTime
    /// nil: the window happens once.
    package var every: SimTime?
    /// Drawn per device per occurrence instead of `end` (docs/model.md §5, Windows per device); nil: `end` applies.
    package var length: Distribution? = nil
    /// Each device shifts the window by an offset uniform in [0, spread); zero: no shift.
    package var spread: SimTime = .zero
    package init(start: SimTime, end: SimTime, every: SimTime? = nil) {
        self.start = start; self.end = end; self.every = every
    }
    package init(start: SimTime, length: Distribution, every: SimTime? = nil, spread: SimTime = .zero) {
        self.start = start; self.end = start; self.every = every; self.length = length; self.spread = spread
    }

    /// Whether every device has exactly the same occurrences (the version-1 window): those are
    /// laid out once per run rather than once per device.
    package var isSameForEveryDevice: Bool { length == nil && spread == .zero }
}

/// Extra letters that come in bursts (docs/scenarios.md §2a, Bursts): burst instants are a Poisson
/// process of `ratePerMicrosecond` per device; each brings `size` letters at b + U·spread.
package struct MailBursts: Hashable, Sendable {
    package var ratePerMicrosecond: Double
    package var size: Int
    package var spread: SimTime = .zero
    package init(ratePerMicrosecond: Double, size: Int, spread: SimTime = .zero) {
        self.ratePerMicrosecond = ratePerMicrosecond; self.size = size; self.spread = spread
    }
}

/// Letters replayed from a `time,device` CSV (docs/scenarios.md §2a, Replaying real traffic), read and checked when the
/// scenario is loaded. Stored by device (offsets into one array of times, each device's times
/// sorted, rows of equal time in file order), so a device's letters are one slice.
package final class MailTrace: Sendable {
    /// The path as written in the scenario (relative to the scenario file).
    package let path: String
    /// `times[offsets[d] ..< offsets[d + 1]]` are device d's letters, in microseconds.
    package let offsets: [Int]
    package let times: [Int64]

    /// FNV-1a over the letters (each device's count and times): two files with the same path
    /// and other letters are other scenarios, so shards of them must not merge.
    package let digest: UInt64

    package init(path: String, offsets: [Int], times: [Int64]) {
        self.path = path; self.offsets = offsets; self.times = times
        // The arrays' words as stored: 64-bit little-endian.
        let ofOffsets = FNV1a.hash(words: offsets.lazy.map { UInt64(bitPattern: Int64($0)) })
        digest = FNV1a.hash(words: times.lazy.map { UInt64(bitPattern: $0) }, continuing: ofOffsets)
    }

    /// Device d's letter instants, sorted.
    package func letters(device d: Int) -> ArraySlice<Int64> {
        guard d >= 0, d + 1 < offsets.count else { return [] }
        return times[offsets[d]..<offsets[d + 1]]
    }

    package var count: Int { times.count }
}

/// What a scenario's fingerprint (`String(reflecting:)`) sees of a trace: its path and its
/// letters' digest, not the object's identity.
extension MailTrace: CustomDebugStringConvertible {
    package var debugDescription: String { "MailTrace(path: \(String(reflecting: path)), letters: \(count), digest: \(digest))" }
}

@dynamicMemberLookup
package struct Scenario: Sendable, HoldsMechanismSettings {
    package var name: String
    package var description: String = ""
    package var seed: UInt64 = 1
    package var duration: SimTime
    package var drain: SimTime = SimTime(microseconds: SimTime.day)
    package var devices: Int

    /// Letters of [0, warmup) are simulated but not counted (docs/model.md §5, Warm-up); `.zero`: all count.
    package var warmup: SimTime = .zero
    /// The width of a bin of the load series (`pushsim run --load-bin`, docs/model.md §14): how
    /// the run is reported, not a key of the file; it changes no count. Unless given, a minute,
    /// or for a run too long to hold in ``maxDefaultLoadBins`` minutes the first of 5 min,
    /// 15 min, 1 h, 6 h, 1 d, 7 d that does (beyond, whole days).
    package var loadBin: SimTime {
        get { loadBinGiven ?? Scenario.defaultLoadBin(end: end) }
        set { loadBinGiven = newValue }
    }
    /// `--load-bin`, when given.
    package var loadBinGiven: SimTime?
    /// A minute: the load series' bin for any run of up to ``maxDefaultLoadBins`` minutes.
    package static let defaultLoadBin = SimTime(microseconds: 60 * SimTime.second)
    /// The most bins a default width gives: 100 000 (69 days of minutes, 4 MB a series), so a
    /// run of years does not ask for a series of gigabytes unless `--load-bin` says so.
    package static let maxDefaultLoadBins: Int64 = 100_000

    /// The default bin for a run ending at `end` (see ``loadBin``).
    package static func defaultLoadBin(end: SimTime) -> SimTime {
        let minute = 60 * SimTime.second
        let span = max(0, end.microseconds)
        for width in [1, 5, 15, 60, 360, 1440, 10080].map({ Int64($0) * minute })
        where span / width < maxDefaultLoadBins || span / width == maxDefaultLoadBins && span % width == 0 {
            return SimTime(microseconds: width)
        }
        let day = 1440 * minute
        let days = span / maxDefaultLoadBins / day + 1
        return SimTime(microseconds: days * day)
    }

    @dynamicMemberLookup
    package struct Mail: Sendable, HoldsMechanismSettings {
        /// Poisson rate of letters per device, per microsecond.
        package var ratePerMicrosecond: Double = 40.0 / Double(SimTime.day)
        /// 24 hourly weights (docs/model.md §5, Time of day): intensity rate × w[h(t)] / mean(w); nil: constant rate.
        package var dailyProfile: [Double]? = nil
        package var bursts: MailBursts? = nil
        /// Replaces rate, profile and bursts when set.
        package var trace: MailTrace? = nil
        /// Its mechanisms' keys, each declared in its mechanism's folder, read as its own
        /// (`mail.someKey`, ``HoldsMechanismSettings``).
        package var mechanisms = MailMechanismSettings()
    }
    package var mail = Mail()

    package struct Connectivity: Sendable {
        /// Both or neither; neither → online except in windows.
        package var online: Distribution? = nil
        package var offline: Distribution? = nil
        package var windows: [OfflineWindow] = []
    }
    package var connectivity = Connectivity()

    @dynamicMemberLookup
    package struct Xiva: Sendable, HoldsMechanismSettings {
        package var drop: Double = 0
        package var latency: Distribution = .constant(SimTime(microseconds: 50 * SimTime.millisecond))
        package var retention: SimTime = SimTime(microseconds: 3 * SimTime.day)
        package var requestLatency: Distribution = .constant(SimTime(microseconds: 300 * SimTime.millisecond))
        package var requestError: Double = 0
        package var resendLatency: Distribution = .constant(SimTime(microseconds: 200 * SimTime.millisecond))
        /// Windows in which XIVA is out, the same for every device (docs/model.md §6, XIVA as a shared server).
        package var outages: [XivaOutage] = []
        package var outageMode: XivaOutageMode = .delay
        /// Re-requests one partition's server serves per microsecond; nil: `forever` (no queue).
        package var capacityPerMicrosecond: Double? = nil
        /// A re-request that would wait longer is answered with an error; `.forever`: it waits.
        package var queueTimeout: SimTime = .forever
        package var partitions: Int = 1
        /// The defaults docs/scenarios.md gives (the file reader starts from them).
        package init() {}
        /// Its mechanisms' keys, each declared in its mechanism's folder, read as its own
        /// (`xiva.someKey`, ``HoldsMechanismSettings``).
        package var mechanisms = XivaMechanismSettings()
    }
    package var xiva = Xiva()

    @dynamicMemberLookup
    package struct Apns: Sendable, HoldsMechanismSettings {
        package var loss: Double = 0
        package var latency: Distribution = .constant(SimTime(microseconds: 100 * SimTime.millisecond))
        /// `.zero`: not stored; `.forever`: never expires.
        package var expiration: SimTime = SimTime(microseconds: SimTime.day)
        /// Probability the older push stays in the store when the newer one enters less than
        /// `keepWindow` after it (docs/model.md §5, APNs' store).
        package var keepOlder: Double = 0
        package var keepWindow: SimTime = SimTime(microseconds: SimTime.second)
        /// Probability APNs hands a push to the device twice (docs/model.md §5, Second copies).
        package var duplicate: Double = 0
        /// The share of letters sent at priority 5 (docs/model.md §10); 0: all at 10 (the default).
        package var lowPriorityShare: Double = 0
        /// The defaults docs/scenarios.md gives (the file reader starts from them).
        package init() {}
        /// Its mechanisms' keys, each declared in its mechanism's folder, read as its own
        /// (`apns.someKey`, ``HoldsMechanismSettings``).
        package var mechanisms = ApnsMechanismSettings()
    }
    package var apns = Apns()

    @dynamicMemberLookup
    package struct Device: Sendable, HoldsMechanismSettings {
        package var alertsOff: Double = 0
        /// nil: never cleared (`forever`).
        package var clearAfter: Distribution? = nil
        /// Poisson rate per microsecond at which the app is uninstalled (docs/model.md §9, Unregistered); 0: never.
        package var uninstallRatePerMicrosecond: Double = 0
        /// Its mechanisms' keys, each declared in its mechanism's folder, read as its own
        /// (`device.someKey`, ``HoldsMechanismSettings``).
        package var mechanisms = DeviceMechanismSettings()
    }
    package var device = Device()

    @dynamicMemberLookup
    package struct Extension: Sendable, HoldsMechanismSettings {
        package var deadline: SimTime = SimTime(microseconds: 30 * SimTime.second)
        package var processing: Distribution = .constant(SimTime(microseconds: 200 * SimTime.millisecond))
        /// Its mechanisms' keys, each declared in its mechanism's folder, read as its own
        /// (`extension.someKey`, ``HoldsMechanismSettings``).
        package var mechanisms = ExtensionMechanismSettings()
    }
    package var `extension` = Extension()

    package struct Queue: Sendable {
        package var mode: QueueMode = .both
        package var repeatMaxCount: Int = 10
        package var collapseId: Bool = true
        package var client: ClientVariant = .intended
        /// Whether XIVA sends, with every letter it numbers in the queue arm, a background push
        /// that may wake a version-2 client's main app (docs/model.md §7, Background pushes in
        /// the queue design).
        package var backgroundPushes: Bool = false
        /// A client supplied in Swift (``UserClient``, docs/client.md), deciding instead of `client`;
        /// never read from a file, set by the one who runs the scenario.
        package var userClient: UserClient? = nil
    }
    package var queue = Queue()

    /// The queue arm's design of recovery (docs/model.md §7): the push queue, a client catch-up, or none.
    package var recovery: RecoveryDesign = .queue

    /// What outcomes cost (docs/research.md, A stated cost): read by `sweep` and `optimize`,
    /// never by the chain, so it changes no number of a run.
    package struct Objective: Equatable, Sendable {
        /// One outcome's weight as written: `amount` per event, or per `unit` of time (`1/h`).
        package struct Weight: Equatable, Sendable {
            package var term: String
            package var amount: Double
            /// The unit of a latency's weight (`s`, `min`, `h`, `d`), nil for the others.
            package var unit: String?
            package init(term: String, amount: Double, unit: String?) { self.term = term; self.amount = amount; self.unit = unit }
        }
        package var weights: [Weight] = []
        package init(weights: [Weight] = []) { self.weights = weights }
    }
    package var objective = Objective()

    /// The push service between XIVA and the device (docs/model.md §12); per segment too.
    package var channel: PushChannel = .apns
    /// The mechanisms' keys of the top level (the channels' sections), read as its own (`scenario.fcm`).
    package var mechanisms = ScenarioMechanismSettings()

    /// One kind of user in a population (docs/model.md §5, Segments): its devices and its own sections, already
    /// resolved (a key the segment does not give holds the top-level value).
    package struct Segment: Sendable {
        package var name: String
        /// The share as written (`60%`, `0.25`), for reports and the resolved scenario.
        package var share: String
        /// Its devices, `[B(i−1), B(i))`, worked out exactly from the shares.
        package var devices: Range<Int>
        package var mail: Mail
        package var connectivity: Connectivity
        package var device: Device
        package var `extension`: Extension
        package var channel: PushChannel
        package init(name: String, share: String, devices: Range<Int>, mail: Mail, connectivity: Connectivity,
                    device: Device, extension: Extension, channel: PushChannel = .apns) {
            self.name = name; self.share = share; self.devices = devices; self.mail = mail
            self.connectivity = connectivity; self.device = device; self.extension = `extension`
            self.channel = channel
        }
    }
    /// Empty: one kind of user, the top-level sections.
    package var segments: [Segment] = []

    package init(name: String, duration: SimTime, devices: Int) {
        self.name = name; self.duration = duration; self.devices = devices
    }

    /// The instant the run stops: `duration + drain`.
    package var end: SimTime { duration + drain }

    /// The scenario a device of segment `i` lives in: the top-level one with the segment's
    /// sections (and no segments). Device ids, and so random streams, stay global.
    package func scenario(forSegment i: Int) -> Scenario {
        var resolved = self
        let segment = segments[i]
        resolved.mail = segment.mail
        resolved.connectivity = segment.connectivity
        resolved.device = segment.device
        resolved.extension = segment.extension
        resolved.channel = segment.channel
        resolveMechanisms(into: &resolved, segment: segment)
        resolved.segments = []
        return resolved
    }

    /// The index of the segment holding device `d` (segments are contiguous and in order);
    /// nil without segments.
    package func segmentIndex(ofDevice d: Int) -> Int? {
        guard !segments.isEmpty else { return nil }
        var low = 0, high = segments.count - 1
        while low < high {
            let mid = (low + high) / 2
            if d < segments[mid].devices.upperBound { high = mid } else { low = mid + 1 }
        }
        return low
    }

    /// The scenario device `d` runs with: its segment's, or this one without segments.
    package func scenario(forDevice d: Int) -> Scenario {
        segmentIndex(ofDevice: d).map(scenario(forSegment:)) ?? self
    }

    /// The arms this scenario runs, in the contract's order (off, then on).
    package var arms: [Arm] {
        switch queue.mode {
        case .off: return [.off]
        case .on: return [.on]
        case .both: return [.off, .on]
        }
    }
}
