// The device's pre-drawn world: drawn once in `prepare`, read by both arms.

/// Everything about one device that both arms share (its letters, when it is online, whether
/// its alerts are off, when it sleeps, its letters' FCM keys and attachment sizes): `prepare`
/// writes it, the arms only read it, so the two arms see the same device.
package struct DeviceDraws: ~Copyable {
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
    /// FCM's keys, attachments), out of line: none until one of them is drawn, so a world where
    /// none is ever drawn holds only the empty reference. Each field below reads the shared
    /// empty draws until the device draws its own.
    private var mechanismDraws = OutOfLine<MechanismDraws>()

    package init() {}

    /// Whether a mechanism's draws exist out of line (for the memory's tests).
    var hasMechanismDraws: Bool { mechanismDraws.exists }

    /// Gives every mechanism's draws back (they read as empty again).
    mutating func removeMechanismDraws() { mechanismDraws.release() }

    /// When the device sleeps while online (docs/model.md §10); empty unless `device.sleep` and priority 5 meet.
    var sleepTimeline: SleepTimeline {
        @inline(__always) _read { yield mechanismDraws[orFresh: noMechanismDraws].sleepTimeline }
        @inline(__always) _modify { yield &mechanismDraws[orFresh: noMechanismDraws].sleepTimeline }
    }
    /// When the device is in Low Power Mode (docs/model.md §10); empty unless it is one of `device.low_power`'s share.
    var lowPowerTimeline: LowPowerTimeline {
        @inline(__always) _read { yield mechanismDraws[orFresh: noMechanismDraws].lowPowerTimeline }
        @inline(__always) _modify { yield &mechanismDraws[orFresh: noMechanismDraws].lowPowerTimeline }
    }
    /// The user's summary, Focus and time-sensitive setting, and each letter's level (docs/model.md §10,
    /// Focus and the scheduled summary); empty unless the run measures the latency seen.
    var holding: HoldingDraws {
        @inline(__always) _read { yield mechanismDraws[orFresh: noMechanismDraws].holding }
        @inline(__always) _modify { yield &mechanismDraws[orFresh: noMechanismDraws].holding }
    }
    /// Each letter's FCM collapse key (docs/model.md §12, FCM); empty unless the channel has keys.
    var fcmKeys: [UInt16] {
        @inline(__always) _read { yield mechanismDraws[orFresh: noMechanismDraws].fcmKeys }
        @inline(__always) _modify { yield &mechanismDraws[orFresh: noMechanismDraws].fcmKeys }
    }
    /// Each letter's attachment size in bytes (0: none; docs/model.md §8, Media attachments).
    var mediaBytes: [Int64] {
        @inline(__always) _read { yield mechanismDraws[orFresh: noMechanismDraws].mediaBytes }
        @inline(__always) _modify { yield &mechanismDraws[orFresh: noMechanismDraws].mediaBytes }
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

/// Empty mechanism draws, read by every device that has not drawn its own.
private let noMechanismDraws = Immortal<MechanismDraws>(MechanismDraws())

/// The draws only some mechanisms make per device (``DeviceDraws``), in one block.
struct MechanismDraws {
    var sleepTimeline = SleepTimeline()
    var lowPowerTimeline = LowPowerTimeline()
    var holding = HoldingDraws()
    var fcmKeys: [UInt16] = []
    var mediaBytes: [Int64] = []
}
