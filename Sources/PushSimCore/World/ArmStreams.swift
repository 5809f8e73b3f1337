// The random streams an arm draws from while it runs, owned together so an arm starts with one assignment.

/// The per-device streams of one arm (docs/determinism.md): each purpose its own, so a draw
/// for one never moves another. The streams of a key that is not set are not even seeded (a
/// mechanism that is off costs nothing), and are never drawn from.
struct ArmStreams {
    /// When the user clears a notification.
    var user: RandomStream
    /// The latency of a stored push sent when its device comes back online.
    var redelivery: RandomStream
    /// Re-requests: their latency, their errors, the re-sends' latency.
    var requests: RandomStream
    /// Re-sent copies: loss and latency at APNs, the extension's processing.
    var resends: RandomStream
    /// `keep_older`: whether the store keeps the older push.
    var store: RandomStream
    /// `duplicate`: second copies, their latency and processing.
    var duplicates: RandomStream
    /// `recovery: catch_up`: when the user opens the app.
    var appOpens: RandomStream
    /// `extension.early_kill`: whether a run is killed.
    var kills: RandomStream
    /// `device.id_change`: when the device id changes.
    var idChanges: RandomStream
    /// `extension.concurrency: parallel`: when a run writes the saved position.
    var saveDelays: RandomStream
    /// `apns.server_error`, `apns.answer_loss`: what APNs answers.
    var answers: RandomStream
    /// `xiva.retry`: backoffs, and the loss and APNs latency of retried pushes.
    var retries: RandomStream
    /// `pushkit.report_failure`: whether the app fails to report a VoIP push to CallKit.
    var callKit: RandomStream
    /// `fcm.collapse_keys` above four: which key FCM's store drops.
    var fcmStore: RandomStream
    /// `extension.media`: whether a run finds the attachment cached, and its bandwidth.
    var mediaDownloads: RandomStream

    /// `device.reinstall`: when the app is reinstalled and when XIVA learns the new token.
    var reinstalls: RandomStream
    /// `apns.interface: binary`: whether a written notification is malformed, its error's round trip.
    var binaryErrors: RandomStream

    init() {
        user = RandomStream(seed: 0); redelivery = user; requests = user; resends = user; store = user; duplicates = user
        appOpens = user; kills = user; idChanges = user; saveDelays = user; answers = user; retries = user
        callKit = user; fcmStore = user; mediaDownloads = user; reinstalls = user; binaryErrors = user
    }

    init(seed: UInt64, device: Int, keepOlder: Bool, duplicate: Bool, appOpens catchUp: Bool = false, kills: Bool = false,
         idChanges: Bool = false, saveDelays: Bool = false, answers: Bool = false, retries: Bool = false,
         callKit: Bool = false, fcmStore: Bool = false, mediaDownloads: Bool = false,
         reinstalls: Bool = false, binaryErrors: Bool = false) {
        user = RandomStream(seed: seed, device: device, purpose: .user)
        redelivery = RandomStream(seed: seed, device: device, purpose: .redelivery)
        requests = RandomStream(seed: seed, device: device, purpose: .requests)
        resends = RandomStream(seed: seed, device: device, purpose: .resends)
        store = keepOlder ? RandomStream(seed: seed, device: device, purpose: .apnsStore) : RandomStream(seed: 0)
        duplicates = duplicate ? RandomStream(seed: seed, device: device, purpose: .duplicates) : RandomStream(seed: 0)
        appOpens = catchUp ? RandomStream(seed: seed, device: device, purpose: .appOpens) : RandomStream(seed: 0)
        self.kills = kills ? RandomStream(seed: seed, device: device, purpose: .extensionKills) : RandomStream(seed: 0)
        self.idChanges = idChanges ? RandomStream(seed: seed, device: device, purpose: .deviceIdChanges) : RandomStream(seed: 0)
        self.saveDelays = saveDelays ? RandomStream(seed: seed, device: device, purpose: .saveDelays) : RandomStream(seed: 0)
        self.answers = answers ? RandomStream(seed: seed, device: device, purpose: .apnsAnswers) : RandomStream(seed: 0)
        self.retries = retries ? RandomStream(seed: seed, device: device, purpose: .retries) : RandomStream(seed: 0)
        self.callKit = callKit ? RandomStream(seed: seed, device: device, purpose: .callKitReports) : RandomStream(seed: 0)
        self.fcmStore = fcmStore ? RandomStream(seed: seed, device: device, purpose: .fcmStore) : RandomStream(seed: 0)
        self.mediaDownloads = mediaDownloads ? RandomStream(seed: seed, device: device, purpose: .mediaDownloads) : RandomStream(seed: 0)
        self.reinstalls = reinstalls ? RandomStream(seed: seed, device: device, purpose: .reinstalls) : RandomStream(seed: 0)
        self.binaryErrors = binaryErrors ? RandomStream(seed: seed, device: device, purpose: .binaryErrors) : RandomStream(seed: 0)
    }

    /// The streams of one arm of a device: each seeded only when the mechanism that draws
    /// from it is on (a stream nobody draws from costs nothing and moves nothing).
    init(seed: UInt64, device: Int, parameters: ChainParameters, checksGaps: Bool, appOpens: Bool) {
        self.init(seed: seed, device: device, keepOlder: parameters.keepOlder > 0,
                  duplicate: parameters.duplicate > 0, appOpens: appOpens,
                  kills: parameters.earlyKill > 0, idChanges: parameters.idChangeRate > 0 && checksGaps,
                  saveDelays: parameters.saveDelay != nil && checksGaps,
                  answers: parameters.serverError > 0 || parameters.answerLoss > 0, retries: parameters.attempts > 1,
                  callKit: parameters.callKitFailure > 0,
                  fcmStore: parameters.fcmCollapseKeys > FCMStore.maxCollapseKeys,
                  mediaDownloads: parameters.hasMedia,
                  reinstalls: parameters.reinstallRate > 0, binaryErrors: parameters.binary)
    }
}
