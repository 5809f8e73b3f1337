// Whether the world may settle steps ahead of the clock instead of scheduling them as events.

/// Some handlers settle what an event would do without scheduling it, each on an argued
/// invariant (docs/model.md): a first copy's arrival at APNs (its loss and latency are drawn
/// with the letter, and nothing in between can change what happens at APNs), and, in the off
/// arm without second copies, a copy due at an online device and its extension run (nothing
/// else can touch the letter meanwhile). `.taken` is what every run uses; `.scheduled` runs
/// every step as an event, in time order, so a test can check that the invariants hold: the
/// ledgers agree but for `events`, and the traces agree.
package enum ShortcutPolicy: Sendable {
    /// Settle those steps at once (the fast path, and every committed result).
    case taken
    /// Schedule every step as an event.
    case scheduled
}

/// Every mechanism the chain can switch on, each stating for itself whether the two shortcuts
/// stay valid while it is on. The statement is a `switch` without a default: a mechanism added
/// here must say yes or no to each shortcut before the code compiles, instead of inheriting a
/// permission it never argued for (the permission used to be a list of exclusions, which a
/// mechanism that forgot to add itself passed silently).
enum ChainMechanism: CaseIterable {
    case secondCopies, providerAnswers, sleep, lowPower, pushKit, fcm, media, binary, focusSummary
    case keepOlder, outages, sharedServer, earlyKill, idChange, reinstall, parallelRuns, uninstall
    // The arm's designs (the queue's gap check, which forbids settling due copies, and the
    // catch-up, which permits both) are stated per arm in `DeviceWorld.resetArm`.

    /// Whether the scenario behind `p` switches the mechanism on.
    func isOn(_ p: ChainParameters) -> Bool {
        switch self {
        case .secondCopies: return p.duplicate > 0
        case .providerAnswers: return p.providerAnswers
        case .sleep: return p.sleeps
        case .lowPower: return p.lowPower
        case .focusSummary: return p.measuresSeenLatency
        case .pushKit: return p.channel == .pushkit
        case .fcm: return p.channel == .fcm
        case .media: return p.hasMedia
        case .binary: return p.binary
        case .keepOlder: return p.keepOlder > 0
        case .outages: return p.hasOutages
        case .sharedServer: return p.sharedServer
        case .earlyKill: return p.earlyKill > 0
        case .idChange: return p.idChangeRate > 0
        case .reinstall: return p.reinstallRate > 0
        case .parallelRuns: return p.saveDelay != nil
        case .uninstall: return p.uninstallRate > 0
        }
    }

    /// Whether, in the off arm, a copy due at an online device and its extension run may still
    /// settle at once: nothing but the letter's own copy may touch it meanwhile.
    var permitsSettlingDueCopies: Bool {
        switch self {
        // A second copy, a retry or a held push can reach the device in between; a channel's
        // own store and a download change what the run does and when.
        // A push held in Low Power Mode waits for its window's end, as a sleeping device's does.
        case .secondCopies, .providerAnswers, .sleep, .lowPower, .pushKit, .fcm, .media, .binary: return false
        // Each acts before the copy is due (the store, XIVA) or only in the queue arm, or ends
        // the device's run as a whole (the uninstall: handled at the end).
        case .keepOlder, .outages, .sharedServer, .earlyKill, .idChange, .reinstall, .parallelRuns, .uninstall: return true
        // Focus and the summary move only when the user sees a letter, worked out at the end of
        // the arm from its first presentation, which a settled step leaves where it was.
        case .focusSummary: return true
        }
    }

    /// Whether a first copy's arrival at APNs may settle with its letter (its loss and latency
    /// drawn then): nothing between XIVA's send and APNs may change what happens there.
    var permitsSettlingFirstCopies: Bool {
        switch self {
        // APNs answers (a refusal, a retry, the token limit) and the connection's order do.
        case .providerAnswers, .binary: return false
        // Low Power Mode acts only where a copy is due at the device.
        case .secondCopies, .sleep, .lowPower, .pushKit, .fcm, .media, .keepOlder, .outages, .sharedServer, .earlyKill,
             .idChange, .reinstall, .parallelRuns, .uninstall, .focusSummary: return true
        }
    }
}
