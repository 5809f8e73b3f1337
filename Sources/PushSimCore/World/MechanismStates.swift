// Each mechanism's per-arm state, one field per mechanism, each type in its mechanism's folder.

/// The state the optional mechanisms keep in one arm. A mechanism writes only its own field;
/// `DeviceWorld.resetArm` starts each afresh.
struct MechanismStates {
    /// The client catch-up (docs/model.md §7, Client catch-up).
    var catchUp = CatchUpState()
    /// Background-push sync (docs/model.md §7, Background-push sync).
    var backgroundSync = BackgroundSyncState()
    /// Device id changes (`device.id_change`, queue arm).
    var idChange = IdChangeState()
    /// Re-requests sent at the current instant, waiting to join the shared XIVA queue once
    /// the instant's other steps are done (docs/model.md §6); empty with capacity forever.
    var joining: [XivaJoin] = []
    /// The provider's side of APNs (docs/model.md §9, §10): token limit, held pushes.
    var provider = ProviderState()
    /// Low Power Mode (docs/model.md §10): whether a window's end is scheduled, the release order's stream.
    var lowPower = LowPowerState()
    /// PushKit (docs/model.md §12): the app's CallKit failures so far.
    var pushKit = PushKitState()
    /// FCM's store (docs/model.md §12).
    var fcm = FCMStore()
    /// App reinstalls (`device.reinstall`); `reinstalls.watchFrom` is Int64.max without them.
    var reinstalls = ReinstallState()
    /// The binary interface (docs/model.md §11): writes waiting for the connection, discarded
    /// ones waiting for the buffer check.
    var binaryLink = BinaryLinkState()
}
