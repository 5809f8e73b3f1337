// The device's pre-drawn world: drawn once in `prepare`, read by both arms.

/// Everything about one device that both arms share (its letters, when it is online, whether
/// its alerts are off, when it sleeps, its letters' FCM keys and attachment sizes): `prepare`
/// writes it, the arms only read it, so the two arms see the same device.
package struct DeviceDraws {
    package internal(set) var letters = LetterScript()
    package internal(set) var timeline = ConnectivityTimeline()
    package internal(set) var alertsOff = false
    /// Whether the timeline is drawn a few flips at a time (ConnectivityOnDemand.swift): set by
    /// `prepare` for a world of a shared partition whose phone draws its own connectivity.
    var timelineOnDemand = false
    /// Whether `timeline.flips` starts at the timeline's first flip (none dropped since it was
    /// last started): an arm may then read it from there, drawing on where the drawing stands.
    var timelineFromStart = true
    /// What only some mechanisms draw per device (sleep, Low Power Mode, Focus and the summary,
    /// FCM's keys, attachments), out of line: nil until one of them is drawn. Inline they were
    /// 64 bytes of every world of a shared partition, where none of them is ever drawn (a
    /// scenario with one of them draws its letters whole, ``DeviceWorld/allowsLettersOnDemand``).
    private var mechanismDraws: MechanismDraws? = nil

    /// The mechanisms' draws, made on first write, and made again if a copy of these draws
    /// shares them (a copy of a world's draws must not change when the world's do).
    private mutating func ownMechanismDraws() -> MechanismDraws {
        if isKnownUniquelyReferenced(&mechanismDraws), let mechanismDraws { return mechanismDraws }
        let made = mechanismDraws.map { $0.copy() } ?? MechanismDraws()
        mechanismDraws = made
        return made
    }

    /// Whether a mechanism's draws exist out of line (for the memory's tests).
    var hasMechanismDraws: Bool { mechanismDraws != nil }

    /// Gives every mechanism's draws back (they read as empty again).
    mutating func removeMechanismDraws() { mechanismDraws = nil }

    /// When the device sleeps while online (docs/model.md §10); empty unless `device.sleep` and priority 5 meet.
    var sleepTimeline: SleepTimeline {
        get { mechanismDraws?.sleepTimeline ?? SleepTimeline() }
        _modify { let draws = ownMechanismDraws(); yield &draws.sleepTimeline }
    }
    /// When the device is in Low Power Mode (docs/model.md §10); empty unless it is one of `device.low_power`'s share.
    var lowPowerTimeline: LowPowerTimeline {
        get { mechanismDraws?.lowPowerTimeline ?? LowPowerTimeline() }
        _modify { let draws = ownMechanismDraws(); yield &draws.lowPowerTimeline }
    }
    /// The user's summary, Focus and time-sensitive setting, and each letter's level (docs/model.md §10,
    /// Focus and the scheduled summary); empty unless the run measures the latency seen.
    var holding: HoldingDraws {
        get { mechanismDraws?.holding ?? HoldingDraws() }
        _modify { let draws = ownMechanismDraws(); yield &draws.holding }
    }
    /// Each letter's FCM collapse key (docs/model.md §12, FCM); empty unless the channel has keys.
    var fcmKeys: [UInt16] {
        get { mechanismDraws?.fcmKeys ?? [] }
        _modify { let draws = ownMechanismDraws(); yield &draws.fcmKeys }
    }
    /// Each letter's attachment size in bytes (0: none; docs/model.md §8, Media attachments).
    var mediaBytes: [Int64] {
        get { mechanismDraws?.mediaBytes ?? [] }
        _modify { let draws = ownMechanismDraws(); yield &draws.mediaBytes }
    }
    /// Buffers the timeline's generation reuses from device to device: a lonely world's own,
    /// made at its first device; a world of a shared partition borrows its partition's while it
    /// is prepared (``DeviceWorld/prepareBesidePartition(device:scratch:)``) and keeps none.
    var scratch: DrawScratch? = nil

    /// The scratch buffers, made on first use.
    mutating func drawScratch() -> DrawScratch {
        if let scratch { return scratch }
        let made = DrawScratch()
        scratch = made
        return made
    }
}

/// The draws only some mechanisms make per device (``DeviceDraws``), in one object.
final class MechanismDraws {
    var sleepTimeline = SleepTimeline()
    var lowPowerTimeline = LowPowerTimeline()
    var holding = HoldingDraws()
    var fcmKeys: [UInt16] = []
    var mediaBytes: [Int64] = []

    init() {}

    func copy() -> MechanismDraws {
        let made = MechanismDraws()
        made.sleepTimeline = sleepTimeline
        made.lowPowerTimeline = lowPowerTimeline
        made.holding = holding
        made.fcmKeys = fcmKeys
        made.mediaBytes = mediaBytes
        return made
    }
}
