// The random streams an arm draws from while it runs, owned together so an arm starts with one assignment.

/// The per-device streams of one arm (docs/determinism.md): each purpose its own, so a draw
/// for one never moves another. The streams of a key that is not set are not even seeded (a
/// mechanism that is off costs nothing), and are never drawn from.
///
/// The chain's own four streams are held here; the mechanisms' thirteen are held out of line
/// (``MechanismStreamValues``), only while a mechanism that draws from one is on: inline they were
/// 416 of the 2 216 bytes of every world of a shared partition (issue 26, item 1).
struct ArmStreams {
    /// When the user clears a notification.
    var user: RandomStream
    /// The latency of a stored push sent when its device comes back online.
    var redelivery: RandomStream
    /// Re-requests: their latency, their errors, the re-sends' latency.
    var requests: RandomStream
    /// Re-sent copies: loss and latency at APNs, the extension's processing.
    var resends: RandomStream
    /// The mechanisms' streams; nil while none is seeded. Held for ownership; every draw goes
    /// through `mechanismValues`, a plain pointer into it (through the reference each draw
    /// retained and released it: +6 % instructions on `provider-answers.yaml`).
    private(set) var mechanismStorage: MechanismStreams?
    private var mechanismValues: UnsafeMutablePointer<MechanismStreamValues>?

    init() {
        user = RandomStream(seed: 0); redelivery = user; requests = user; resends = user
        mechanismStorage = nil
        mechanismValues = nil
    }

    /// `reusing`: the out-of-line streams of this world's previous arm, seeded again in place
    /// (a world runs arm after arm, device after device: no allocation per arm).
    init(seed: UInt64, device: Int, keepOlder: Bool, duplicate: Bool, appOpens catchUp: Bool = false, kills: Bool = false,
         idChanges: Bool = false, saveDelays: Bool = false, answers: Bool = false, retries: Bool = false,
         callKit: Bool = false, fcmStore: Bool = false, mediaDownloads: Bool = false,
         reinstalls: Bool = false, binaryErrors: Bool = false, reusing previous: MechanismStreams? = nil) {
        user = RandomStream(seed: seed, device: device, purpose: .user)
        redelivery = RandomStream(seed: seed, device: device, purpose: .redelivery)
        requests = RandomStream(seed: seed, device: device, purpose: .requests)
        resends = RandomStream(seed: seed, device: device, purpose: .resends)
        func stream(_ on: Bool, _ purpose: StreamPurpose) -> RandomStream {
            on ? RandomStream(seed: seed, device: device, purpose: purpose) : RandomStream(seed: 0)
        }
        guard keepOlder || duplicate || catchUp || kills || idChanges || saveDelays || answers || retries || callKit
                || fcmStore || mediaDownloads || reinstalls || binaryErrors else {
            mechanismStorage = nil
            mechanismValues = nil
            return
        }
        let streams = previous ?? MechanismStreams()
        let values = streams.values
        values.pointee.store = stream(keepOlder, .apnsStore)
        values.pointee.duplicates = stream(duplicate, .duplicates)
        values.pointee.appOpens = stream(catchUp, .appOpens)
        values.pointee.kills = stream(kills, .extensionKills)
        values.pointee.idChanges = stream(idChanges, .deviceIdChanges)
        values.pointee.saveDelays = stream(saveDelays, .saveDelays)
        values.pointee.answers = stream(answers, .apnsAnswers)
        values.pointee.retries = stream(retries, .retries)
        values.pointee.callKit = stream(callKit, .callKitReports)
        values.pointee.fcmStore = stream(fcmStore, .fcmStore)
        values.pointee.mediaDownloads = stream(mediaDownloads, .mediaDownloads)
        values.pointee.reinstalls = stream(reinstalls, .reinstalls)
        values.pointee.binaryErrors = stream(binaryErrors, .binaryErrors)
        mechanismStorage = streams
        mechanismValues = values
    }

    /// The streams of one arm of a device: each seeded only when the mechanism that draws
    /// from it is on (a stream nobody draws from costs nothing and moves nothing).
    init(seed: UInt64, device: Int, parameters: ChainParameters, checksGaps: Bool, appOpens: Bool,
         reusing previous: MechanismStreams? = nil) {
        self.init(seed: seed, device: device, keepOlder: parameters.keepOlder > 0,
                  duplicate: parameters.duplicate > 0, appOpens: appOpens,
                  kills: parameters.earlyKill > 0, idChanges: parameters.idChangeRate > 0 && checksGaps,
                  saveDelays: parameters.saveDelay != nil && checksGaps,
                  answers: parameters.serverError > 0 || parameters.answerLoss > 0, retries: parameters.attempts > 1,
                  callKit: parameters.callKitFailure > 0,
                  fcmStore: parameters.fcmCollapseKeys > FCMStore.maxCollapseKeys,
                  mediaDownloads: parameters.hasMedia,
                  reinstalls: parameters.reinstallRate > 0, binaryErrors: parameters.binary, reusing: previous)
    }

    /// The mechanisms' streams (`armState.streams.mechanismStreams.kills`), drawn from in place.
    var mechanismStreams: MechanismStreamValues {
        get { mechanismValues?.pointee ?? MechanismStreamValues() }
        mutating _modify { let values = outOfLine(); yield &values.pointee }
    }

    /// The out-of-line streams, made (all unseeded) if none were: a stream nobody seeded is
    /// never drawn from, but if it were, it would draw what an unseeded stream drew before.
    private mutating func outOfLine() -> UnsafeMutablePointer<MechanismStreamValues> {
        if let values = mechanismValues { return values }
        let streams = MechanismStreams()
        mechanismStorage = streams
        mechanismValues = streams.values
        return streams.values
    }
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

/// The memory of an arm's ``MechanismStreamValues``, freed with the last ``ArmStreams`` that holds it.
final class MechanismStreams {
    let values: UnsafeMutablePointer<MechanismStreamValues>
    init() {
        values = .allocate(capacity: 1)
        values.initialize(to: MechanismStreamValues())
    }
    deinit {
        values.deinitialize(count: 1)
        values.deallocate()
    }
}
