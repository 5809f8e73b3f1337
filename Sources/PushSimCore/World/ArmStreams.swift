// The random streams an arm draws from while it runs, owned together so an arm starts with one assignment.

/// The per-device streams of one arm (docs/determinism.md): each purpose its own, so a draw
/// for one never moves another. The streams of a key that is not set are not even seeded (a
/// mechanism that is off costs nothing), and are never drawn from.
///
/// The chain's own four streams are held here; the mechanisms' thirteen are held out of line
/// (``MechanismStreamValues``), only while a mechanism that draws from one is on.
struct ArmStreams: ~Copyable {
    /// When the user clears a notification.
    var user = RandomStream(seed: 0)
    /// The latency of a stored push sent when its device comes back online.
    var redelivery = RandomStream(seed: 0)
    /// Re-requests: their latency, their errors, the re-sends' latency.
    var requests = RandomStream(seed: 0)
    /// Re-sent copies: loss and latency at APNs, the extension's processing.
    var resends = RandomStream(seed: 0)
    /// The mechanisms' streams; none while none is seeded (they then read as unseeded).
    private var mechanismValues = OutOfLine<MechanismStreamValues>()

    init() {}

    /// Seeds the streams of one arm of a device afresh: the chain's four, and of the
    /// mechanisms' those in `streams` (the others stay unseeded: a stream nobody draws from
    /// costs nothing and moves nothing). The mechanisms' streams reuse this world's block from
    /// arm to arm; with none to seed, the block is given back.
    mutating func seed(_ seed: UInt64, device: Int, streams: MechanismStreamSet) {
        user = RandomStream(seed: seed, device: device, purpose: .user)
        redelivery = RandomStream(seed: seed, device: device, purpose: .redelivery)
        requests = RandomStream(seed: seed, device: device, purpose: .requests)
        resends = RandomStream(seed: seed, device: device, purpose: .resends)
        guard !streams.isEmpty else {
            mechanismValues.release()
            return
        }
        func stream(_ member: MechanismStreamSet, _ purpose: StreamPurpose) -> RandomStream {
            streams.contains(member) ? RandomStream(seed: seed, device: device, purpose: purpose) : RandomStream(seed: 0)
        }
        var values = MechanismStreamValues()
        values.store = stream(.store, .apnsStore)
        values.duplicates = stream(.duplicates, .duplicates)
        values.appOpens = stream(.appOpens, .appOpens)
        values.kills = stream(.kills, .extensionKills)
        values.idChanges = stream(.idChanges, .deviceIdChanges)
        values.saveDelays = stream(.saveDelays, .saveDelays)
        values.answers = stream(.answers, .apnsAnswers)
        values.retries = stream(.retries, .retries)
        values.callKit = stream(.callKit, .callKitReports)
        values.fcmStore = stream(.fcmStore, .fcmStore)
        values.mediaDownloads = stream(.mediaDownloads, .mediaDownloads)
        values.reinstalls = stream(.reinstalls, .reinstalls)
        values.binaryErrors = stream(.binaryErrors, .binaryErrors)
        mechanismValues[orFresh: unseededMechanismStreams] = values
    }

    /// Whether the mechanisms' streams are held (some mechanism that draws is on).
    var holdsMechanismStreams: Bool { mechanismValues.exists }

    /// The mechanisms' streams (`armState.streams.mechanismStreams.kills`), drawn from in place.
    /// A stream nobody seeded is never drawn from, but if it were, it would draw what an
    /// unseeded stream draws.
    var mechanismStreams: MechanismStreamValues {
        @inline(__always) _read { yield mechanismValues[orFresh: unseededMechanismStreams] }
        @inline(__always) _modify { yield &mechanismValues[orFresh: unseededMechanismStreams] }
    }
}

/// Unseeded mechanism streams, read by every arm that seeded none.
private let unseededMechanismStreams = Immortal<MechanismStreamValues>(MechanismStreamValues())

/// Which of the mechanisms' streams an arm seeds: one member for each field of
/// ``MechanismStreamValues`` (each mechanism declares its own, ``MechanismDeclaration``).
struct MechanismStreamSet: OptionSet, Sendable {
    let rawValue: UInt16
    static let store = MechanismStreamSet(rawValue: 1 << 0)
    static let duplicates = MechanismStreamSet(rawValue: 1 << 1)
    static let appOpens = MechanismStreamSet(rawValue: 1 << 2)
    static let kills = MechanismStreamSet(rawValue: 1 << 3)
    static let idChanges = MechanismStreamSet(rawValue: 1 << 4)
    static let saveDelays = MechanismStreamSet(rawValue: 1 << 5)
    static let answers = MechanismStreamSet(rawValue: 1 << 6)
    static let retries = MechanismStreamSet(rawValue: 1 << 7)
    static let callKit = MechanismStreamSet(rawValue: 1 << 8)
    static let fcmStore = MechanismStreamSet(rawValue: 1 << 9)
    static let mediaDownloads = MechanismStreamSet(rawValue: 1 << 10)
    static let reinstalls = MechanismStreamSet(rawValue: 1 << 11)
    static let binaryErrors = MechanismStreamSet(rawValue: 1 << 12)
}

/// The mechanisms' streams of an arm (``ArmStreams``), each unseeded until its mechanism's arm seeds it.
struct MechanismStreamValues {
    /// `keep_older`: whether the store keeps the older push.
    var store = RandomStream(seed: 0)
    /// `duplicate`: second copies, their latency and processing.
    var duplicates = RandomStream(seed: 0)
    /// `recovery: catch_up`: when the user opens the app.
    var appOpens = RandomStream(seed: 0)
    /// `extension.early_kill`: whether a run is killed.
    var kills = RandomStream(seed: 0)
    /// `device.id_change`: when the device id changes.
    var idChanges = RandomStream(seed: 0)
    /// `extension.concurrency: parallel`: when a run writes the saved position.
    var saveDelays = RandomStream(seed: 0)
    /// `apns.server_error`, `apns.answer_loss`: what APNs answers.
    var answers = RandomStream(seed: 0)
    /// `xiva.retry`: backoffs, and the loss and APNs latency of retried pushes.
    var retries = RandomStream(seed: 0)
    /// `pushkit.report_failure`: whether the app fails to report a VoIP push to CallKit.
    var callKit = RandomStream(seed: 0)
    /// `fcm.collapse_keys` above four: which key FCM's store drops.
    var fcmStore = RandomStream(seed: 0)
    /// `extension.media`: whether a run finds the attachment cached, and its bandwidth.
    var mediaDownloads = RandomStream(seed: 0)
    /// `device.reinstall`: when the app is reinstalled and when XIVA learns the new token.
    var reinstalls = RandomStream(seed: 0)
    /// `apns.interface: binary`: whether a written notification is malformed, its error's round trip.
    var binaryErrors = RandomStream(seed: 0)
}
