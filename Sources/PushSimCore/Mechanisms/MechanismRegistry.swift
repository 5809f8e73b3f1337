// The one file every mechanism edits: its counters' storage and place in the reports, its
// per-arm state, its statement about the shortcuts, and its line at each phase of a device's
// arm (prepare, reset, begin, close).
//
// Everything else a mechanism is lives in its folder (Mechanisms/<Name>/): its handlers, its
// counter set and group, its state type, its draws. The world's own files (World.swift, the
// nodes) call the phases below and name no mechanism, so a new mechanism adds a line to each
// list here instead of editing the world (docs/architecture.md, "Adding a mechanism").
// Lines keep their order within a phase: each phase runs its lines in the order written, and
// that order is part of the result (an event scheduled earlier wins a tie).

/// Each mechanism's counters, one field per mechanism; the ledger reaches them as its own
/// (`ledger.sleep`) through `Ledger`'s dynamic member lookup.
package struct MechanismCounts: Equatable, Sendable {
    /// A client catch-up's server load (`recovery: catch_up`).
    package var catchUp = CatchUpCounters()
    /// Background-push sync's pushes, wake-ups, fetches and synced letters (`recovery: background_sync`).
    package var backgroundSync = BackgroundSyncCounters()
    /// Extension runs the system killed early (`extension.early_kill`).
    package var earlyKill = EarlyKillCounters()
    /// Device id changes (`device.id_change`).
    package var deviceIdChange = DeviceIdChangeCounters()
    /// App reinstalls (`device.reinstall`).
    package var appReinstalls = ReinstallCounters()
    /// Parallel runs (`extension.concurrency: parallel`, docs/model.md §8).
    package var parallelRuns = ParallelRunsCounters()
    /// Letters never deliverable, outside `letters` (`device.uninstall`, docs/model.md §9).
    package var uninstall = UninstallCounters()
    /// The provider's side of APNs (docs/model.md §9): pushes XIVA sent again, and the answers behind them.
    package var provider = ProviderCounters()
    /// Requests APNs refused or left unanswered in its outages (`apns.outages`).
    package var apnsOutages = APNsOutageCounters()
    /// Requests refused because of XIVA's provider token (`apns.token_refresh`).
    package var tokenRefresh = TokenRefreshCounters()
    /// Priority-5 pushes held while their device slept (`device.sleep`).
    package var sleep = SleepCounters()
    /// Pushes held in Low Power Mode (`device.low_power`).
    package var lowPower = LowPowerCounters()
    /// Letters the user saw later under Focus or the scheduled summary, and the latency seen
    /// (`device.focus`, `device.notification_summary`).
    package var focusSummary = FocusSummaryCounters()
    /// Media attachments (`extension.media`).
    package var media = MediaCounters()
    /// The binary interface (docs/model.md §11, rule 6).
    package var binary = BinaryCounters()
    /// FCM (docs/model.md §12): every message FCM accepted ends in one outcome, as in Firebase's
    /// delivery data; the delivered ones also say whether FCM held them first.
    package var fcm = FCMOutcomes()
    /// Every push sent over APNs in the categories of Apple's console.
    package var apns = APNsConsoleCounters()
    /// Re-requests answered in time or not (finite capacity only, SharedServers/XivaCapacityCounters.swift).
    package var xivaCapacity = XivaCapacityCounters()
    /// Letters a summary covered before their own push was shown (Accounting/SummaryThenPushCounters.swift).
    package var summaryThenPush = SummaryThenPushCounters()
    /// Answered re-requests whose letters were all shown already (false gaps), and the others.
    package var falseGaps = FalseGapCounters()
    /// A version-2 client's main app at the user's openings (Nodes/StatefulClientApp.swift).
    package var appHook = AppHookCounters()

    package init() {}

    /// The counts kept in a field table rather than a counter group (FCM's outcomes, keyed
    /// `fcm_…` in partial results), listed with the core counts.
    static var fieldTableCounts: [(key: String, path: WritableKeyPath<Ledger, Int>, merge: CounterMerge)] {
        FCMOutcomes.counts.map { key, path in
            let fcm: WritableKeyPath<Ledger, FCMOutcomes> = \.mechanismCounts.fcm
            return ("fcm_" + key, fcm.appending(path: path), .sum)
        }
    }

    /// Adds another ledger's mechanism counts: the counters kept in a group's own `CounterSet`
    /// by their declarations, FCM's outcomes by its field table, and the one histogram a
    /// mechanism keeps (the latency seen by the user; nil stays nil).
    static func merge(into ledger: inout Ledger, from other: Ledger) {
        ledger.fcm.merge(other.fcm)
        if other.focusSummary.seenLatency != nil { ledger.focusSummary.mergeSeenLatency(other.focusSummary) }
        guard let plan = mergePlan else {
            for group in Ledger.ownStorageGroups where !(group.isEmpty?(other) ?? true) {
                for counter in group.counters { counter.merge(into: &ledger, from: other) }
            }
            return
        }
        for group in plan where !group.isEmpty(other) {
            group.fields.merge(into: &ledger.mechanismCounts, from: other.mechanismCounts)
        }
    }

    /// A group of ``Ledger/ownStorageGroups`` as the merge reads it: its emptiness test, and its
    /// counters' fields in `MechanismCounts` with their rules.
    struct GroupMerge: Sendable {
        let isEmpty: @Sendable (Ledger) -> Bool
        let fields: IntFieldMerge<MechanismCounts>
    }

    /// Every own-storage group's merge by its fields; nil if some counter is not a stored field
    /// (then the merge goes through the key paths).
    static let mergePlan: [GroupMerge]? = {
        var plan: [GroupMerge] = []
        for group in Ledger.ownStorageGroups {
            guard let isEmpty = group.isEmpty,
                  let fields = IntFieldMerge(group.counters.map { ($0.pathInCounts, $0.merge == .largest) }) else { return nil }
            plan.append(GroupMerge(isEmpty: isEmpty, fields: fields))
        }
        return plan
    }()

    /// The mechanisms' own accounting identities (a seen latency for every delivered letter).
    func identitiesHold(delivered: Int) -> Bool {
        focusSummary.seenLatency.map { Int($0.total) == delivered } ?? true
    }
}

/// The ledger reaches each mechanism's counters as its own (`ledger.sleep.held`): plain
/// accessors, one per field above, which the optimizer sees through (no key path at run
/// time). Sets of plain counts are read and written
/// whole (nothing to copy on write); the one with a histogram is modified in place.
extension Ledger {
    /// Where the mechanisms' counters are stored: the root of every declared counter's path.
    static var mechanismCountsPath: WritableKeyPath<Ledger, MechanismCounts> { \.mechanismCounts }

    package var catchUp: CatchUpCounters { @inline(__always) get { mechanismCounts.catchUp } @inline(__always) set { mechanismCounts.catchUp = newValue } }
    package var backgroundSync: BackgroundSyncCounters { @inline(__always) get { mechanismCounts.backgroundSync } @inline(__always) set { mechanismCounts.backgroundSync = newValue } }
    package var earlyKill: EarlyKillCounters { @inline(__always) get { mechanismCounts.earlyKill } @inline(__always) set { mechanismCounts.earlyKill = newValue } }
    package var deviceIdChange: DeviceIdChangeCounters { @inline(__always) get { mechanismCounts.deviceIdChange } @inline(__always) set { mechanismCounts.deviceIdChange = newValue } }
    package var appReinstalls: ReinstallCounters { @inline(__always) get { mechanismCounts.appReinstalls } @inline(__always) set { mechanismCounts.appReinstalls = newValue } }
    package var parallelRuns: ParallelRunsCounters { @inline(__always) get { mechanismCounts.parallelRuns } @inline(__always) set { mechanismCounts.parallelRuns = newValue } }
    package var uninstall: UninstallCounters { @inline(__always) get { mechanismCounts.uninstall } @inline(__always) set { mechanismCounts.uninstall = newValue } }
    package var provider: ProviderCounters { @inline(__always) get { mechanismCounts.provider } @inline(__always) set { mechanismCounts.provider = newValue } }
    package var apnsOutages: APNsOutageCounters { @inline(__always) get { mechanismCounts.apnsOutages } @inline(__always) set { mechanismCounts.apnsOutages = newValue } }
    package var tokenRefresh: TokenRefreshCounters { @inline(__always) get { mechanismCounts.tokenRefresh } @inline(__always) set { mechanismCounts.tokenRefresh = newValue } }
    package var sleep: SleepCounters { @inline(__always) get { mechanismCounts.sleep } @inline(__always) set { mechanismCounts.sleep = newValue } }
    package var lowPower: LowPowerCounters { @inline(__always) get { mechanismCounts.lowPower } @inline(__always) set { mechanismCounts.lowPower = newValue } }
    package var focusSummary: FocusSummaryCounters { @inline(__always) get { mechanismCounts.focusSummary } @inline(__always) _modify { yield &mechanismCounts.focusSummary } }
    package var media: MediaCounters { @inline(__always) get { mechanismCounts.media } @inline(__always) set { mechanismCounts.media = newValue } }
    package var binary: BinaryCounters { @inline(__always) get { mechanismCounts.binary } @inline(__always) set { mechanismCounts.binary = newValue } }
    package var fcm: FCMOutcomes { @inline(__always) get { mechanismCounts.fcm } @inline(__always) set { mechanismCounts.fcm = newValue } }
    package var apns: APNsConsoleCounters { @inline(__always) get { mechanismCounts.apns } @inline(__always) set { mechanismCounts.apns = newValue } }
    package var xivaCapacity: XivaCapacityCounters { @inline(__always) get { mechanismCounts.xivaCapacity } @inline(__always) set { mechanismCounts.xivaCapacity = newValue } }
    package var summaryThenPush: SummaryThenPushCounters { @inline(__always) get { mechanismCounts.summaryThenPush } @inline(__always) set { mechanismCounts.summaryThenPush = newValue } }
    package var falseGaps: FalseGapCounters { @inline(__always) get { mechanismCounts.falseGaps } @inline(__always) set { mechanismCounts.falseGaps = newValue } }
    package var appHook: AppHookCounters { @inline(__always) get { mechanismCounts.appHook } @inline(__always) set { mechanismCounts.appHook = newValue } }
}

extension Ledger {
    /// Each mechanism's counters, in the order of the report table's blocks. A mechanism with
    /// counters adds its group here, once.
    package static let groups: [CounterGroup] = [
        APNsConsoleCounters.group, .undeliverable, .providerAnswers, APNsOutageCounters.group, TokenRefreshCounters.group, .binaryInterface, SleepCounters.group, LowPowerCounters.group, FocusSummaryCounters.group,
        XivaCapacityCounters.group,
        .earlyKill, MediaCounters.group, .deviceIdChange, ReinstallCounters.group, .parallelRuns, .catchUp,
        BackgroundSyncCounters.group, SummaryThenPushCounters.group, FalseGapCounters.group, AppHookCounters.group,
    ]
}

/// The state the optional mechanisms keep in one arm. A mechanism writes only its own field;
/// `resetMechanisms` starts each afresh.
///
/// Inline: what every world reads on its hot path (the shared queue's `joining`, whether first
/// copies settle when sent at every push, the reinstalls' watch instant at every letter, the
/// id change's next instant at every extension run, the binary outbox at every send). The rest
/// lives out of line (``RareMechanismStates``), made the first time one of them is written, so
/// a world of a shared partition with none of them on holds none. Read before it exists, each
/// reads as its fresh state, which is what `resetMechanisms` would have written.
struct MechanismStates: ~Copyable {
    /// Re-requests sent at the current instant, waiting to join the shared XIVA queue once
    /// the instant's other steps are done (docs/model.md §6): the first inline, any more in
    /// `moreJoining`. A world holds one while it waits for the partition's clock, and at a busy
    /// moment most worlds of a partition do, so the first one needs no allocation.
    private var firstJoin = XivaJoin(request: RequestIndex(0), sentAt: 0, latency: 0)
    private(set) var joiningCount: Int32 = 0
    private var moreJoining: [XivaJoin] = []
    /// The first instant at which a letter or a run must look at the app's reinstalls
    /// (``ReinstallState``): the next reinstall, or at once while XIVA does not know the
    /// current token. Int64.max: never (without `device.reinstall`).
    var reinstallsWatchFrom = Int64.max
    /// Device id changes (`device.id_change`, queue arm): read at every extension run.
    var idChange = IdChangeState()
    /// The binary interface (docs/model.md §11): writes waiting for the connection, discarded
    /// ones waiting for the buffer check. Its outbox is read at every send of every world.
    var binaryLink = BinaryLinkState()
    /// Whether a first copy's arrival at APNs is settled when it is sent (see `firstCopyTravels`):
    /// not with the provider's answers, which need every arrival in time order (docs/model.md §9).
    /// In the binary link's tail.
    var firstCopiesSettle = true
    /// The mechanisms' states read only while their mechanism is on; none until one is written
    /// (each field below reads the shared fresh states until then).
    private var rare = OutOfLine<RareMechanismStates>()

    init() {}

    /// Whether re-requests wait to join the shared queue.
    var isJoining: Bool { @inline(__always) get { joiningCount > 0 } }

    /// Re-request `join` waits to join the shared queue, after those already waiting.
    mutating func join(_ join: XivaJoin) {
        if joiningCount == 0 { firstJoin = join } else { moreJoining.append(join) }
        joiningCount += 1
    }

    /// The k-th re-request waiting to join (from 0, in sending order).
    func join(at k: Int32) -> XivaJoin { k == 0 ? firstJoin : moreJoining[Int(k) - 1] }

    /// Every re-request waiting, in sending order (for tests and references).
    var joining: [XivaJoin] { (0..<joiningCount).map { join(at: $0) } }

    /// None waits any more; `givingBackRoom` frees the room for more than one.
    mutating func removeJoining(givingBackRoom: Bool = false) {
        joiningCount = 0
        if givingBackRoom { moreJoining = [] } else { moreJoining.removeAll(keepingCapacity: true) }
    }

    /// Whether a mechanism's out-of-line state exists (then `resetMechanisms` starts it afresh).
    var hasRareStates: Bool { rare.exists }

    /// The provider's side of APNs (docs/model.md §9, §10): token limit, held pushes.
    var provider: ProviderState {
        @inline(__always) _read { yield rare[orFresh: freshRareMechanismStates].provider }
        @inline(__always) _modify { yield &rare[orFresh: freshRareMechanismStates].provider }
    }
    /// App reinstalls (`device.reinstall`), but for their watch instant (above).
    var reinstalls: ReinstallState {
        @inline(__always) _read { yield rare[orFresh: freshRareMechanismStates].reinstalls }
        @inline(__always) _modify { yield &rare[orFresh: freshRareMechanismStates].reinstalls }
    }
    /// FCM's store (docs/model.md §12): read at every push on the channel.
    var fcm: FCMStore {
        @inline(__always) _read { yield rare[orFresh: freshRareMechanismStates].fcm }
        @inline(__always) _modify { yield &rare[orFresh: freshRareMechanismStates].fcm }
    }
    /// The client catch-up (docs/model.md §7, Client catch-up).
    var catchUp: CatchUpState {
        @inline(__always) _read { yield rare[orFresh: freshRareMechanismStates].catchUp }
        @inline(__always) _modify { yield &rare[orFresh: freshRareMechanismStates].catchUp }
    }
    /// Background-push sync (docs/model.md §7, Background-push sync).
    var backgroundSync: BackgroundSyncState {
        @inline(__always) _read { yield rare[orFresh: freshRareMechanismStates].backgroundSync }
        @inline(__always) _modify { yield &rare[orFresh: freshRareMechanismStates].backgroundSync }
    }
    /// Low Power Mode (docs/model.md §10): whether a window's end is scheduled, the release order's stream.
    var lowPower: LowPowerState {
        @inline(__always) _read { yield rare[orFresh: freshRareMechanismStates].lowPower }
        @inline(__always) _modify { yield &rare[orFresh: freshRareMechanismStates].lowPower }
    }
    /// APNs' offline store of `apns.store` (docs/model.md §5): the copies stored, in the order they entered.
    var offlineStore: OfflineStoreSlots {
        @inline(__always) _read { yield rare[orFresh: freshRareMechanismStates].offlineStore }
        @inline(__always) _modify { yield &rare[orFresh: freshRareMechanismStates].offlineStore }
    }
    /// PushKit (docs/model.md §12): the app's CallKit failures so far.
    var pushKit: PushKitState {
        @inline(__always) _read { yield rare[orFresh: freshRareMechanismStates].pushKit }
        @inline(__always) _modify { yield &rare[orFresh: freshRareMechanismStates].pushKit }
    }
    /// A version-2 client's state for this install (StatefulClientRuns.swift); nil until asked.
    var client: StatefulClientState {
        @inline(__always) _read { yield rare[orFresh: freshRareMechanismStates].client }
        @inline(__always) _modify { yield &rare[orFresh: freshRareMechanismStates].client }
    }
}

/// Fresh out-of-line states, read by every world that has not written its own.
private let freshRareMechanismStates = Immortal<RareMechanismStates>(RareMechanismStates())

/// The optional mechanisms' states that only their own mechanism reads, out of line
/// (``MechanismStates``), in memory the one world that owns them allocates and frees.
struct RareMechanismStates {
    var provider = ProviderState()
    var reinstalls = ReinstallState()
    var fcm = FCMStore()
    var catchUp = CatchUpState()
    var backgroundSync = BackgroundSyncState()
    var lowPower = LowPowerState()
    var pushKit = PushKitState()
    var client = StatefulClientState()
    var offlineStore = OfflineStoreSlots()
}

/// Every mechanism the chain can switch on, each with one declaration of what it needs from
/// the world (``MechanismDeclaration``): the streams it draws from, whether it keeps an
/// out-of-line state, whether letters may be drawn on demand while it is on, and whether the
/// two shortcuts stay valid. The declaration is a `switch` without a default: a mechanism added
/// here must answer each question before the code compiles, instead of inheriting an answer it
/// never argued for (a list of exceptions, which a mechanism that forgot to add itself passed
/// silently, decided these before).
enum ChainMechanism: CaseIterable {
    case secondCopies, providerAnswers, sleep, lowPower, pushKit, fcm, media, binary, focusSummary
    case keepOlder, outages, sharedServer, earlyKill, idChange, reinstall, parallelRuns, uninstall
    case apnsOutages, storeSlots, tokenRefresh
    // The arm's designs (the queue's gap check, which forbids settling due copies, and the
    // catch-up, which permits both) are stated per arm in `DeviceWorld.resetArm`; the designs'
    // own states and streams (catch-up, background sync) in `ChainParameters` and `resetArm`.

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
        case .apnsOutages: return p.hasAPNsOutages
        case .storeSlots: return p.storeHasSlots
        case .tokenRefresh: return p.hasTokenFailures
        }
    }

    /// What the mechanism needs from the world under the scenario behind `p` (off, it needs
    /// nothing: no stream, no state, and it forbids nothing).
    func declaration(_ p: ChainParameters) -> MechanismDeclaration {
        switch self {
        case .secondCopies:
            // A second copy can reach the device between a copy and its run.
            return MechanismDeclaration(streams: p.duplicate > 0 ? [.duplicates] : [], keepsState: false,
                                        permitsLettersOnDemand: true, permitsSettlingDueCopies: false, permitsSettlingFirstCopies: true)
        case .providerAnswers:
            // APNs' answers (a refusal, a retry, the token limit) act between XIVA's send and APNs, in time order.
            return MechanismDeclaration(streams: MechanismStreamSet(p.serverError > 0 || p.answerLoss > 0 ? [.answers] : []).union(p.attempts > 1 ? [.retries] : []),
                                        keepsState: p.providerAnswers,
                                        permitsLettersOnDemand: true, permitsSettlingDueCopies: false, permitsSettlingFirstCopies: false)
        case .sleep:
            // A held push waits for the wake, in the provider's state; sleep acts only where a copy is due.
            return MechanismDeclaration(streams: [], keepsState: p.sleeps,
                                        permitsLettersOnDemand: true, permitsSettlingDueCopies: false, permitsSettlingFirstCopies: true)
        case .lowPower:
            // A push held in Low Power Mode waits for its window's end, as a sleeping device's does.
            return MechanismDeclaration(streams: [], keepsState: p.lowPower,
                                        permitsLettersOnDemand: true, permitsSettlingDueCopies: false, permitsSettlingFirstCopies: true)
        case .pushKit:
            // The channel's own rules change what a run does and when.
            return MechanismDeclaration(streams: p.callKitFailure > 0 ? [.callKit] : [], keepsState: p.channel == .pushkit,
                                        permitsLettersOnDemand: true, permitsSettlingDueCopies: false, permitsSettlingFirstCopies: true)
        case .fcm:
            // FCM's store changes what reaches the device; its collapse keys are drawn per letter, all at once.
            return MechanismDeclaration(streams: p.fcmCollapseKeys > FCMStore.maxCollapseKeys ? [.fcmStore] : [],
                                        keepsState: p.channel == .fcm,
                                        permitsLettersOnDemand: p.fcmCollapseKeys == 0, permitsSettlingDueCopies: false, permitsSettlingFirstCopies: true)
        case .media:
            // A download changes what a run does and when; attachment sizes are drawn per letter, all at once.
            return MechanismDeclaration(streams: p.hasMedia ? [.mediaDownloads] : [], keepsState: false,
                                        permitsLettersOnDemand: p.media == nil, permitsSettlingDueCopies: false, permitsSettlingFirstCopies: true)
        case .binary:
            // The connection's order decides every arrival at APNs.
            return MechanismDeclaration(streams: p.binary ? [.binaryErrors] : [], keepsState: false,
                                        permitsLettersOnDemand: true, permitsSettlingDueCopies: false, permitsSettlingFirstCopies: false)
        case .focusSummary:
            // Focus and the summary move only when the user sees a letter, worked out at the end of
            // the arm from its first presentation, which a settled step leaves where it was; each
            // letter's level is drawn for every letter at once.
            return MechanismDeclaration(streams: [], keepsState: false,
                                        permitsLettersOnDemand: !p.measuresSeenLatency, permitsSettlingDueCopies: true, permitsSettlingFirstCopies: true)
        case .keepOlder:
            // The store acts before a copy is due.
            return MechanismDeclaration(streams: p.keepOlder > 0 ? [.store] : [], keepsState: false,
                                        permitsLettersOnDemand: true, permitsSettlingDueCopies: true, permitsSettlingFirstCopies: true)
        case .earlyKill:
            return MechanismDeclaration(streams: p.earlyKill > 0 ? [.kills] : [], keepsState: false,
                                        permitsLettersOnDemand: true, permitsSettlingDueCopies: true, permitsSettlingFirstCopies: true)
        case .idChange:
            // Only in the arm that checks gaps.
            return MechanismDeclaration(streams: [], gapCheckingArmStreams: p.idChangeRate > 0 ? [.idChanges] : [], keepsState: false,
                                        permitsLettersOnDemand: true, permitsSettlingDueCopies: true, permitsSettlingFirstCopies: true)
        case .parallelRuns:
            // Only in the arm that checks gaps.
            return MechanismDeclaration(streams: [], gapCheckingArmStreams: p.saveDelay != nil ? [.saveDelays] : [], keepsState: false,
                                        permitsLettersOnDemand: true, permitsSettlingDueCopies: true, permitsSettlingFirstCopies: true)
        case .reinstall:
            return MechanismDeclaration(streams: p.reinstallRate > 0 ? [.reinstalls] : [], keepsState: p.reinstallRate > 0,
                                        permitsLettersOnDemand: true, permitsSettlingDueCopies: true, permitsSettlingFirstCopies: true)
        case .outages, .sharedServer:
            // Each acts at XIVA, before a copy is sent.
            return MechanismDeclaration(streams: [], keepsState: false,
                                        permitsLettersOnDemand: true, permitsSettlingDueCopies: true, permitsSettlingFirstCopies: true)
        case .apnsOutages:
            // Acts on XIVA's requests as APNs' other answers do (it switches them on, so every
            // arrival at APNs is an event, in time order); its draws are made again when asked.
            return MechanismDeclaration(streams: [], keepsState: false,
                                        permitsLettersOnDemand: true, permitsSettlingDueCopies: true, permitsSettlingFirstCopies: false)
        case .tokenRefresh:
            // Acts on XIVA's requests as APNs' other answers do (it switches them on); its
            // stretches are laid out once per run, from the run's stream, not the device's.
            return MechanismDeclaration(streams: [], keepsState: false,
                                        permitsLettersOnDemand: true, permitsSettlingDueCopies: true, permitsSettlingFirstCopies: false)
        case .storeSlots:
            // The store acts before a copy is due, as the one-slot store does; a random keep draws.
            return MechanismDeclaration(streams: p.storeHasSlots && p.storeKeep == .random ? [.store] : [], keepsState: p.storeHasSlots,
                                        permitsLettersOnDemand: true, permitsSettlingDueCopies: true, permitsSettlingFirstCopies: true)
        case .uninstall:
            // Ends the device's run as a whole, handled at the end.
            return MechanismDeclaration(streams: [], keepsState: false,
                                        permitsLettersOnDemand: true, permitsSettlingDueCopies: true, permitsSettlingFirstCopies: true)
        }
    }
}

/// What one mechanism needs from the world while it is on (``ChainMechanism/declaration(_:)``).
struct MechanismDeclaration {
    /// The per-device streams it draws from in both arms: each is seeded only when some
    /// mechanism declares it (a stream nobody draws from costs nothing and moves nothing).
    var streams: MechanismStreamSet
    /// The streams it draws from only in the arm that checks gaps.
    var gapCheckingArmStreams: MechanismStreamSet = []
    /// Whether it keeps a state out of line in ``MechanismStates`` (made only when one does).
    var keepsState: Bool
    /// Whether a world may draw its letters a few at a time with the same result: nothing it
    /// draws per letter is drawn for every letter at once.
    var permitsLettersOnDemand: Bool
    /// Whether, in the off arm, a copy due at an online device and its extension run may still
    /// settle at once: nothing but the letter's own copy may touch it meanwhile.
    var permitsSettlingDueCopies: Bool
    /// Whether a first copy's arrival at APNs may settle with its letter (its loss and latency
    /// drawn then): nothing between XIVA's send and APNs may change what happens there.
    var permitsSettlingFirstCopies: Bool

    init(streams: MechanismStreamSet, gapCheckingArmStreams: MechanismStreamSet = [], keepsState: Bool,
         permitsLettersOnDemand: Bool, permitsSettlingDueCopies: Bool, permitsSettlingFirstCopies: Bool) {
        self.streams = streams; self.gapCheckingArmStreams = gapCheckingArmStreams; self.keepsState = keepsState
        self.permitsLettersOnDemand = permitsLettersOnDemand
        self.permitsSettlingDueCopies = permitsSettlingDueCopies; self.permitsSettlingFirstCopies = permitsSettlingFirstCopies
    }
}

/// The steps of optional mechanisms that wait in the event heap without an index (a
/// `ChainEvent.mechanism`): a mechanism with such a step adds its case here and its handler
/// below; the switch has no default, so a case without a handler does not compile.
/// Past a device's uninstall none of them happens (nothing reaches the app then) and none
/// leaves a letter under way.
enum MechanismStep: Equatable, Sendable {
    /// The user opens the app, which catches up with what it missed (`recovery: catch_up`), or
    /// whose version-2 client's hook decides (the queue design).
    case appOpen
    /// XIVA answers a request a version-2 client's app sent at an opening (the first one due).
    case appRequestAnswered
    /// A sleeping device wakes, and APNs hands over the priority-5 pushes it held (`device.sleep`).
    case deviceWakes
    /// A Low Power Mode window ends, and APNs hands over what it held (`device.low_power`).
    case lowPowerEnds
}

extension DeviceWorld {
    /// A mechanism's step, dispatched to its handler in its folder.
    @inline(__always) mutating func take(_ step: MechanismStep, at now: Int64) {
        switch step {
        case .appOpen: userOpensApp(at: now)
        case .appRequestAnswered: appRequestAnswered(at: now)
        case .deviceWakes: deviceWakes(at: now)
        case .lowPowerEnds: lowPowerEnds(at: now)
        }
    }
}

extension DeviceWorld {
    /// Prepare: each mechanism's draws about the device that both arms share, after the
    /// letters, the connectivity timeline and the device's end are drawn.
    @inline(__always) mutating func prepareMechanisms(device: Int) {
        if parameters.sleeps { draws.sleepTimeline.generate(scenario, device: device) }
        if parameters.lowPower { draws.lowPowerTimeline.generate(scenario, device: device) }
        if parameters.measuresSeenLatency { draws.holding.generate(scenario, device: device, letters: draws.letters.count) }
        if parameters.fcmCollapseKeys > 0 { drawCollapseKeys() }
        if parameters.media != nil { drawAttachments() }
    }

    /// Reset, first part: each mechanism's state afresh for `arm`, before the arm's streams
    /// are seeded (which read whether the catch-up runs).
    @inline(__always) mutating func resetMechanisms(_ arm: Arm) {
        mechanisms.firstCopiesSettle = shortcuts == .taken && parameters.mechanismsPermitSettlingFirstCopies
        mechanisms.removeJoining()
        if parameters.binary { mechanisms.binaryLink.reset() }
        mechanisms.idChange.next = Int64.max
        // Out-of-line states that do not exist yet read as fresh: made only when one is on.
        guard _slowPath(parameters.keepsRareMechanismStates || mechanisms.hasRareStates) else { return }
        mechanisms.provider.reset(parameters)
        if parameters.channel != .apns { mechanisms.fcm.removeAll() }
        mechanisms.catchUp.enabled = arm == .on && scenario.recovery == .catchUp && scenario.device.appOpen != nil
        mechanisms.catchUp.mark = 0
        mechanisms.backgroundSync.enabled = arm == .on && scenario.recovery == .backgroundSync
        if _slowPath(parameters.lowPower) { mechanisms.lowPower = LowPowerState(seed: scenario.seed, device: armState.device) }
        if parameters.channel == .pushkit { mechanisms.pushKit.callKitFailures = 0 }
        if parameters.client == .stateful {
            mechanisms.client = StatefulClientState()
            if clientOpensApp(arm) {
                mechanisms.client.opensApp = true
                mechanisms.client.appStream = RandomStream(seed: scenario.seed, device: armState.device, purpose: .appRequests)
            }
        }
        if parameters.storeHasSlots { mechanisms.offlineStore.reset() }
    }

    /// Reset, second part: each mechanism's first event, once the arm's streams are seeded.
    @inline(__always) mutating func scheduleMechanismsFirstEvents() {
        if parameters.idChangeRate > 0 && armState.checksGaps { scheduleFirstIdChange() }
        if parameters.reinstallRate > 0 { scheduleFirstReinstall() }
    }

    /// Begin: each mechanism's step that comes before the first letter on the agenda.
    @inline(__always) mutating func beginMechanisms() {
        if mechanisms.catchUp.enabled || (parameters.client == .stateful && mechanisms.client.opensApp) { scheduleFirstAppOpen() }
    }

    /// Close, before APNs' stored copy is settled: what a mechanism still holds is under way.
    @inline(__always) mutating func closeMechanismsHolding() {
        // Priority-5 pushes APNs still holds for a sleeping device (docs/model.md §10).
        for c in mechanisms.provider.held where !copies[c].isSecondCopy { letterStates[copies[c].letter].unfinished = true }
        // Copies in a store of `apns.store` (the one-slot store's is closed after this).
        if _slowPath(parameters.storeHasSlots) { closeStoreSlots() }
        if _slowPath(parameters.channel != .apns) { channelCloses() }
    }

    /// Close, once every letter's first presentation is known: the mechanisms worked out at
    /// the end of an arm.
    @inline(__always) mutating func closeMechanismsAfterPresentation() {
        if _slowPath(mechanisms.backgroundSync.enabled) { backgroundSyncs() }
        countConsoleCategories()
    }

    /// Close, once the letters are recorded into `account`: the mechanisms' own accounts.
    @inline(__always) mutating func recordMechanisms(into account: inout Ledger) {
        // Focus and the scheduled summary: when the user saw each delivered letter.
        if _slowPath(parameters.measuresSeenLatency) { recordSeenLatency(into: &account) }
    }
}
