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
            // A second copy can reach the device between a copy and its run. It is made at a
            // copy's hand-over and is under way until its own: a world at rest holds none.
            return MechanismDeclaration(streams: p.duplicate > 0 ? [.duplicates] : [], keepsState: false,
                                        permitsLettersOnDemand: true, permitsSettlingDueCopies: false, permitsSettlingFirstCopies: true,
                                        permitsSettlingInFlight: true, permitsDecidingTheConnectionAhead: true)
        case .providerAnswers:
            // APNs' answers (a refusal, a retry, the token limit) act between XIVA's send and APNs, in time order.
            // Over the binary interface only a payload size turns them on (the other answers are
            // refused with it), and the connection itself rejects what is over its limit.
            return MechanismDeclaration(streams: MechanismStreamSet(p.serverError > 0 || p.answerLoss > 0 ? [.answers] : []).union(p.attempts > 1 ? [.retries] : []),
                                        keepsState: p.providerAnswers,
                                        permitsLettersOnDemand: true, permitsSettlingDueCopies: false, permitsSettlingFirstCopies: false,
                                        permitsSettlingInFlight: false, permitsDecidingTheConnectionAhead: p.binary)
        case .sleep:
            // A held push waits for the wake, in the provider's state; sleep acts only where a copy is due.
            return MechanismDeclaration(streams: [], keepsState: p.sleeps,
                                        permitsLettersOnDemand: true, permitsSettlingDueCopies: false, permitsSettlingFirstCopies: true,
                                        permitsSettlingInFlight: false, permitsDecidingTheConnectionAhead: true)
        case .lowPower:
            // A push held in Low Power Mode waits for its window's end, as a sleeping device's does.
            return MechanismDeclaration(streams: [], keepsState: p.lowPower,
                                        permitsLettersOnDemand: true, permitsSettlingDueCopies: false, permitsSettlingFirstCopies: true,
                                        permitsSettlingInFlight: false, permitsDecidingTheConnectionAhead: true)
        case .pushKit:
            // The channel's own rules change what a run does and when.
            return MechanismDeclaration(streams: p.callKitFailure > 0 ? [.callKit] : [], keepsState: p.channel == .pushkit,
                                        permitsLettersOnDemand: true, permitsSettlingDueCopies: false, permitsSettlingFirstCopies: true,
                                        permitsSettlingInFlight: false, permitsDecidingTheConnectionAhead: true)
        case .fcm:
            // FCM's store changes what reaches the device; its collapse keys are drawn per letter, all at once.
            return MechanismDeclaration(streams: p.fcmCollapseKeys > FCMStore.maxCollapseKeys ? [.fcmStore] : [],
                                        keepsState: p.channel == .fcm,
                                        permitsLettersOnDemand: p.fcmCollapseKeys == 0, permitsSettlingDueCopies: false, permitsSettlingFirstCopies: true,
                                        permitsSettlingInFlight: false, permitsDecidingTheConnectionAhead: true)
        case .media:
            // A download changes what a run does and when; attachment sizes are drawn per letter, all at once.
            return MechanismDeclaration(streams: p.hasMedia ? [.mediaDownloads] : [], keepsState: false,
                                        permitsLettersOnDemand: p.media == nil, permitsSettlingDueCopies: false, permitsSettlingFirstCopies: true,
                                        permitsSettlingInFlight: false, permitsDecidingTheConnectionAhead: true)
        case .binary:
            // The connection's order decides every arrival at APNs.
            return MechanismDeclaration(streams: p.binary ? [.binaryErrors] : [], keepsState: false,
                                        permitsLettersOnDemand: true, permitsSettlingDueCopies: false, permitsSettlingFirstCopies: false,
                                        permitsSettlingInFlight: false, permitsDecidingTheConnectionAhead: true)
        case .focusSummary:
            // Focus and the summary move only when the user sees a letter, worked out at the end of
            // the arm from its first presentation, which a settled step leaves where it was; each
            // letter's level is drawn for every letter at once.
            return MechanismDeclaration(streams: [], keepsState: false,
                                        permitsLettersOnDemand: !p.measuresSeenLatency, permitsSettlingDueCopies: true, permitsSettlingFirstCopies: true,
                                        permitsSettlingInFlight: false, permitsDecidingTheConnectionAhead: true)
        case .keepOlder:
            // The store acts before a copy is due, on the copy stored: a world at rest stores none.
            return MechanismDeclaration(streams: p.keepOlder > 0 ? [.store] : [], keepsState: false,
                                        permitsLettersOnDemand: true, permitsSettlingDueCopies: true, permitsSettlingFirstCopies: true,
                                        permitsSettlingInFlight: true, permitsDecidingTheConnectionAhead: true)
        case .earlyKill:
            return MechanismDeclaration(streams: p.earlyKill > 0 ? [.kills] : [], keepsState: false,
                                        permitsLettersOnDemand: true, permitsSettlingDueCopies: true, permitsSettlingFirstCopies: true,
                                        permitsSettlingInFlight: false, permitsDecidingTheConnectionAhead: true)
        case .idChange:
            // Only in the arm that checks gaps.
            return MechanismDeclaration(streams: [], gapCheckingArmStreams: p.idChangeRate > 0 ? [.idChanges] : [], keepsState: false,
                                        permitsLettersOnDemand: true, permitsSettlingDueCopies: true, permitsSettlingFirstCopies: true,
                                        permitsSettlingInFlight: false, permitsDecidingTheConnectionAhead: true)
        case .parallelRuns:
            // Only in the arm that checks gaps.
            return MechanismDeclaration(streams: [], gapCheckingArmStreams: p.saveDelay != nil ? [.saveDelays] : [], keepsState: false,
                                        permitsLettersOnDemand: true, permitsSettlingDueCopies: true, permitsSettlingFirstCopies: true,
                                        permitsSettlingInFlight: false, permitsDecidingTheConnectionAhead: true)
        case .reinstall:
            // XIVA drops the letters of the old token until it knows the new one.
            return MechanismDeclaration(streams: p.reinstallRate > 0 ? [.reinstalls] : [], keepsState: p.reinstallRate > 0,
                                        permitsLettersOnDemand: true, permitsSettlingDueCopies: true, permitsSettlingFirstCopies: true,
                                        permitsSettlingInFlight: false, permitsDecidingTheConnectionAhead: false)
        case .outages, .sharedServer:
            // Each acts at XIVA, before a copy is sent; the shared server's queue only through
            // re-requests under way, which a world at rest has none of (an outage holds letters
            // of its own, outside the settlement's view).
            return MechanismDeclaration(streams: [], keepsState: false,
                                        permitsLettersOnDemand: true, permitsSettlingDueCopies: true, permitsSettlingFirstCopies: true,
                                        permitsSettlingInFlight: self == .sharedServer, permitsDecidingTheConnectionAhead: false)
        case .apnsOutages:
            // Acts on XIVA's requests as APNs' other answers do (it switches them on, so every
            // arrival at APNs is an event, in time order); its draws are made again when asked.
            return MechanismDeclaration(streams: [], keepsState: false,
                                        permitsLettersOnDemand: true, permitsSettlingDueCopies: true, permitsSettlingFirstCopies: false,
                                        permitsSettlingInFlight: false, permitsDecidingTheConnectionAhead: false)
        case .tokenRefresh:
            // Acts on XIVA's requests as APNs' other answers do (it switches them on); its
            // stretches are laid out once per run, from the run's stream, not the device's.
            return MechanismDeclaration(streams: [], keepsState: false,
                                        permitsLettersOnDemand: true, permitsSettlingDueCopies: true, permitsSettlingFirstCopies: false,
                                        permitsSettlingInFlight: false, permitsDecidingTheConnectionAhead: false)
        case .storeSlots:
            // The store acts before a copy is due, as the one-slot store does; a random keep draws.
            return MechanismDeclaration(streams: p.storeHasSlots && p.storeKeep == .random ? [.store] : [], keepsState: p.storeHasSlots,
                                        permitsLettersOnDemand: true, permitsSettlingDueCopies: true, permitsSettlingFirstCopies: true,
                                        permitsSettlingInFlight: false, permitsDecidingTheConnectionAhead: true)
        case .uninstall:
            // Ends the device's run as a whole, handled at the end. Over the binary interface
            // XIVA writes on until it reads the feedback list: the device's last instant.
            return MechanismDeclaration(streams: [], keepsState: false,
                                        permitsLettersOnDemand: true, permitsSettlingDueCopies: true, permitsSettlingFirstCopies: true,
                                        permitsSettlingInFlight: false, permitsDecidingTheConnectionAhead: true)
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
    /// Whether a world of a shared partition may still settle its letters in flight
    /// (WorldSettlement.swift): the mechanism reaches a letter only through a copy, run or
    /// re-request under way or through APNs' store, so a letter at or below the saved position
    /// of a world at rest is beyond its reach.
    var permitsSettlingInFlight: Bool
    /// Whether, in an arm that re-requests nothing, XIVA still writes every letter its script
    /// does not drop at the letter's time plus its drawn latency, and nothing else: the binary
    /// connection can then be decided before the worlds run (ConnectionDecidedAhead.swift).
    var permitsDecidingTheConnectionAhead: Bool

    init(streams: MechanismStreamSet, gapCheckingArmStreams: MechanismStreamSet = [], keepsState: Bool,
         permitsLettersOnDemand: Bool, permitsSettlingDueCopies: Bool, permitsSettlingFirstCopies: Bool,
         permitsSettlingInFlight: Bool, permitsDecidingTheConnectionAhead: Bool) {
        self.streams = streams; self.gapCheckingArmStreams = gapCheckingArmStreams; self.keepsState = keepsState
        self.permitsLettersOnDemand = permitsLettersOnDemand
        self.permitsSettlingDueCopies = permitsSettlingDueCopies; self.permitsSettlingFirstCopies = permitsSettlingFirstCopies
        self.permitsSettlingInFlight = permitsSettlingInFlight
        self.permitsDecidingTheConnectionAhead = permitsDecidingTheConnectionAhead
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
    /// A background push reaches a version-2 client's app in the queue arm (the first one due).
    case backgroundPushArrives
    /// The system releases the background push its throttle held (`over_throttle: hold`).
    case backgroundPushReleased
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
        case .backgroundPushArrives: backgroundPushArrives(at: now)
        case .backgroundPushReleased: backgroundPushReleased(at: now)
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
            if arm == .on && parameters.backgroundPushes { startBackgroundPushes() }
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

extension MechanismStreamValues {
    /// The streams of one arm of a device: those in `streams` seeded, the others unseeded.
    @inline(__always) init(seed: UInt64, device: Int, streams: MechanismStreamSet) {
        func stream(_ member: MechanismStreamSet, _ purpose: StreamPurpose) -> RandomStream {
            streams.contains(member) ? RandomStream(seed: seed, device: device, purpose: purpose) : RandomStream(seed: 0)
        }
        self.init()
        store = stream(.store, .apnsStore)
        duplicates = stream(.duplicates, .duplicates)
        appOpens = stream(.appOpens, .appOpens)
        kills = stream(.kills, .extensionKills)
        idChanges = stream(.idChanges, .deviceIdChanges)
        saveDelays = stream(.saveDelays, .saveDelays)
        answers = stream(.answers, .apnsAnswers)
        retries = stream(.retries, .retries)
        callKit = stream(.callKit, .callKitReports)
        fcmStore = stream(.fcmStore, .fcmStore)
        mediaDownloads = stream(.mediaDownloads, .mediaDownloads)
        reinstalls = stream(.reinstalls, .reinstalls)
        binaryErrors = stream(.binaryErrors, .binaryErrors)
    }
}

extension StreamPurpose {
    /// Each mechanism's own streams by name, one line per mechanism (declared in its folder).
    static let mechanismPurposes: [(name: String, purpose: StreamPurpose)] = [
        ("appOpens", appOpens),
        ("extensionKills", extensionKills),
        ("deviceIdChanges", deviceIdChanges),
        ("saveDelays", saveDelays),
        ("payloadSizes", payloadSizes), ("apnsAnswers", apnsAnswers), ("retries", retries),
        ("sleep", sleep),
        ("callKitReports", callKitReports),
        ("fcmCollapseKeys", fcmCollapseKeys), ("fcmStore", fcmStore),
        ("mediaLetters", mediaLetters), ("mediaDownloads", mediaDownloads),
        ("reinstalls", reinstalls),
        ("binaryErrors", binaryErrors),
        ("lowPower", lowPower), ("lowPowerRelease", lowPowerRelease),
        ("notificationHolding", notificationHolding), ("timeSensitive", timeSensitive),
        ("backgroundPushes", backgroundPushes), ("forceQuit", forceQuit), ("syncDelays", syncDelays),
        ("apnsOutages", apnsOutages),
        ("tokenRefresh", tokenRefresh),
    ]
}

/// A section of the scenario that holds its mechanisms' keys in a container of the registry
/// (`mechanisms`) and reads them as its own: `scenario.device.sleep` is
/// `scenario.device.mechanisms.sleep`, so a mechanism's key is one field here and its type in
/// its folder, and the scenario's file names no mechanism.
package protocol HoldsMechanismSettings {
    associatedtype Settings
    var mechanisms: Settings { get set }
}

extension HoldsMechanismSettings {
    @inlinable package subscript<T>(dynamicMember path: WritableKeyPath<Settings, T>) -> T {
        @inline(__always) get { mechanisms[keyPath: path] }
        @inline(__always) set { mechanisms[keyPath: path] = newValue }
    }
}

/// The mechanisms' keys of the top level: the channels' own sections.
package struct ScenarioMechanismSettings: Sendable {
    /// `pushkit` and `fcm` (docs/model.md §12), read with `channel: pushkit` or `fcm`.
    package var pushkit = Scenario.PushKit()
    package var fcm = Scenario.FCM()
    /// Set on a segment's resolved scenario when another segment holds notifications, so that
    /// every device of the run measures the latency seen by the user (`measuresSeenLatency`).
    package var seenLatencyInSomeSegment = false
}

/// The mechanisms' keys of `mail`.
package struct MailMechanismSettings: Sendable {
    /// Each letter's payload size in bytes, drawn per letter (docs/model.md §9, Payload too large); nil: always fits.
    package var payloadSize: Distribution? = nil
}

/// The mechanisms' keys of `xiva`.
package struct XivaMechanismSettings: Sendable {
    /// How XIVA retries a push APNs refused for the moment or did not answer (docs/model.md §9, Retries); nil: never.
    package var retry: XivaRetry? = nil
    /// Notifications XIVA keeps per binary connection to write again after an error (docs/model.md §11).
    package var resendBuffer: Int = 0
}

/// The mechanisms' keys of `apns`.
package struct ApnsMechanismSettings: Sendable {
    /// The offline store's slots, what a full one keeps, and whether a collapse id has a slot
    /// of its own (docs/model.md §5, APNs' offline store as a parameter); the default is the one-slot store.
    package var store = APNsStorePolicy()
    /// The provider API's answers (docs/model.md §9): the most pushes one token takes within
    /// `tokenWindow` (nil: no limit), the probability of a 5xx, of an answer lost after acceptance.
    package var tokenLimit: Int? = nil
    package var tokenWindow: SimTime = SimTime(microseconds: SimTime.hour)
    package var serverError: Double = 0
    package var answerLoss: Double = 0
    /// The share of letters sent with interruption level `time-sensitive` (docs/model.md §10,
    /// Focus and the scheduled summary); 0: none.
    package var timeSensitiveShare: Double = 0
    /// The legacy binary interface (docs/model.md §11): the interface; the probability a
    /// written notification is malformed; from the bad one's arrival to its error packet at
    /// XIVA; notifications one connection writes per microsecond (nil: `forever`); from an
    /// uninstall to XIVA reading the token from the feedback list.
    package var interface: ApnsInterface = .http2
    package var malformed: Double = 0
    package var errorDelay: Distribution = .constant(SimTime(microseconds: 100 * SimTime.millisecond))
    package var connectionRatePerMicrosecond: Double? = nil
    package var feedbackDelay: SimTime = SimTime(microseconds: SimTime.day)
    /// Windows in which APNs refuses or does not answer XIVA (docs/model.md §9, APNs outages); empty: none.
    package var outages: [APNsOutage] = []
    /// XIVA's provider token's refreshes (docs/model.md §9, Provider tokens); nil: never fails.
    package var tokenRefresh: APNsTokenRefresh? = nil
}

/// The mechanisms' keys of `device` (per segment).
package struct DeviceMechanismSettings: Sendable {
    /// The time between two openings of the app by the user (docs/model.md §7, Client catch-up); nil: never.
    package var appOpen: Distribution? = nil
    /// How iOS treats background pushes and how long a sync takes to show (docs/model.md §7,
    /// Background-push sync); read only with `recovery: background_sync`; nil: the defaults.
    package var backgroundSync: BackgroundSync? = nil
    /// Poisson rate of device id changes per microsecond (docs/model.md §8, Device id change); 0: never.
    package var idChangeRatePerMicrosecond: Double = 0
    /// Awake and asleep periods (docs/model.md §10, Priority and a sleeping device); nil: always awake.
    package var sleep: DeviceSleep? = nil
    /// Low Power Mode (docs/model.md §10, Low Power Mode): the share of phones and their daily windows; nil: never.
    package var lowPower: LowPowerMode? = nil
    /// Focus and the scheduled summary (docs/model.md §10): the share of users with a summary
    /// schedule and its times, with Focus windows, and that turned time-sensitive off; nil, 0: none.
    package var notificationSummary: NotificationSummary? = nil
    package var focus: FocusSchedule? = nil
    package var timeSensitiveOff: Double = 0
    /// Doze windows, the same for every device of the segment (docs/model.md §12, FCM): FCM
    /// holds normal-priority messages while one lasts. Empty: the device never dozes.
    package var doze: [OfflineWindow] = []
    /// Poisson rate of app reinstalls per microsecond (docs/model.md §8, App reinstall); 0: never.
    package var reinstallRatePerMicrosecond: Double = 0
    /// From a reinstall until XIVA knows the new token (the user opens the app, which registers it).
    package var reinstallDelay: Distribution = .exponential(mean: Double(30 * SimTime.minute))
}

/// The mechanisms' keys of `extension` (per segment).
package struct ExtensionMechanismSettings: Sendable {
    /// Probability the system kills a run at start-up or for memory, without the expiry
    /// callback (docs/model.md §8, Early kill).
    package var earlyKill: Double = 0
    /// Whether runs of one device check and save the position one at a time or side by side
    /// (docs/model.md §8, Parallel runs).
    package var concurrency: ExtensionConcurrency = .serial
    /// With `parallel`, the time from a run's start to its write of the saved position; nil: at once.
    package var saveDelay: Distribution? = nil
    /// Attachments downloaded before the push is shown (docs/model.md §8); nil: none.
    package var media: MediaAttachments? = nil
}

extension Scenario {
    /// What a segment's resolved scenario (`scenario(forSegment:)`) keeps of the mechanisms'
    /// shared keys: APNs' outages of another segment do not concern its phones, its own concern
    /// them all; and whether some segment measures the latency seen by the user.
    func resolveMechanisms(into resolved: inout Scenario, segment: Segment) {
        resolved.apns.outages = apns.outages.compactMap { outage in
            guard outage.segment == nil || outage.segment == segment.name else { return nil }
            var own = outage
            own.segment = nil
            return own
        }
        resolved.seenLatencyInSomeSegment = measuresSeenLatency
    }
}

/// Each mechanism's values that the chain reads on every event (``ChainParameters``, which
/// reaches them as its own: `parameters.sleeps`), worked out once per part from the scenario.
/// The flags the hot path tests come first.
package struct MechanismParameters {
    /// How often the system kills an extension run early (docs/model.md §8, Early kill).
    let earlyKill: Double
    /// The provider API's answers (docs/model.md §9): set when any of its keys is, so the hot
    /// path tests one flag (the keys' values are below, with the provider's group).
    let providerAnswers: Bool
    /// `media != nil`, kept as a plain flag: the per-run test then reads one byte.
    let hasMedia: Bool
    /// The legacy binary interface (docs/model.md §11): the malformed share, and whether XIVA
    /// writes to APNs over one connection per partition (the rest below, with its group).
    let malformed: Double
    let binary: Bool
    /// App reinstalls per microsecond (docs/model.md §8, App reinstall); the delay until XIVA learns the new token is below.
    let reinstallRate: Double
    /// Whether APNs may hold a push for an online device at all (sleep or Low Power Mode,
    /// docs/model.md §10): the hot path tests one flag.
    let mayHold: Bool
    /// Priority-5 pushes may meet a sleeping device (docs/model.md §10): both keys are set.
    let sleeps: Bool
    /// Some phones go into Low Power Mode (docs/model.md §10, Low Power Mode).
    let lowPower: Bool
    /// Device id changes per microsecond (docs/model.md §8, Device id change).
    let idChangeRate: Double
    /// The run reports the latency seen by the user (docs/model.md §10, Focus and the scheduled
    /// summary): worked out at the end of each arm, no step of the chain changes.
    let measuresSeenLatency: Bool
    /// Parallel extension runs with a delayed save (docs/model.md §8, Parallel runs); nil: serial.
    let saveDelay: DistributionSampler?
    /// APNs' offline store when `apns.store` is not the one-slot store (docs/model.md §5, APNs'
    /// offline store as a parameter), on `channel: apns`: its slots per app (Int.max:
    /// unlimited), which copy a full store drops, and whether a collapse id has a slot of its own.
    let storeHasSlots: Bool
    let storeSlots: Int
    let storeKeep: APNsStorePolicy.Keep
    let storePerCollapseId: Bool
    /// The delay until XIVA learns a reinstalled app's new token (docs/model.md §8, App reinstall).
    let reinstallDelay: DistributionSampler
    /// The provider API (docs/model.md §9): the token limit (0: none) and its window; 5xx and
    /// lost answers; XIVA's attempts per push (1: no retry) and its backoff.
    let tokenLimit: Int
    let tokenWindow: Int64
    let serverError: Double
    let answerLoss: Double
    let attempts: Int
    let backoff: DistributionSampler
    /// APNs' outages over the run (docs/model.md §9, APNs outages), disjoint and in time order,
    /// each with the index of the outage it is an occurrence of; per outage, the share of phones
    /// it concerns and whether APNs is unreachable (rather than answering 503). Empty: none (and
    /// none on FCM, which does not go through APNs).
    let apnsOutages: [(interval: Range<Int64>, outage: Int)]
    let apnsOutageShares: [Double]
    let apnsOutageUnreachable: [Bool]
    let hasAPNsOutages: Bool
    /// The stretches in which XIVA's provider token fails (docs/model.md §9, Provider tokens),
    /// disjoint and in time order, the same for every phone; empty: none (and none on FCM).
    let tokenFailures: [(interval: Range<Int64>, failure: TokenFailure)]
    let hasTokenFailures: Bool
    /// The push channel's keys (docs/model.md §12). PushKit: how often the app fails to report a
    /// VoIP push to CallKit, and after how many failures the system stops launching it. FCM: the
    /// number of collapse keys (0: non-collapsible messages) and the doze windows that hold
    /// normal-priority messages (empty with high priority or without doze).
    let callKitFailure: Double
    let callKitCutOffAfter: Int
    let fcmCollapseKeys: Int
    /// Media attachments (docs/model.md §8): the share, and samplers of bytes and bits per second; nil: none.
    let media: MediaAttachments?
    let mediaSize: DistributionSampler?
    let mediaBandwidth: DistributionSampler?
    /// The binary interface's other keys (docs/model.md §11): one write's length (0:
    /// `connection_rate: forever`); how many recent writes XIVA keeps to write again; the
    /// error's round trip; from an uninstall to XIVA reading the token from the feedback list.
    let binaryWriteTime: Int64
    let resendBuffer: Int
    let errorDelay: DistributionSampler
    let feedbackDelay: Int64
    /// Whether a recovery design of the queue arm keeps an out-of-line state (catch-up with app
    /// openings, background sync): an arm then starts the mechanisms' states.
    let designsKeepState: Bool

    init(_ scenario: Scenario) {
        storeHasSlots = scenario.channel == .apns && !scenario.apns.store.isOneSlot
        storeSlots = scenario.apns.store.slots ?? Int.max
        storeKeep = scenario.apns.store.keep
        storePerCollapseId = scenario.apns.store.per == .collapseId
        earlyKill = scenario.extension.earlyKill
        idChangeRate = scenario.device.idChangeRatePerMicrosecond
        reinstallRate = scenario.device.reinstallRatePerMicrosecond
        reinstallDelay = scenario.device.reinstallDelay.sampler
        saveDelay = scenario.extension.concurrency == .parallel
            ? (scenario.extension.saveDelay ?? .constant(SimTime(microseconds: 0))).sampler : nil
        tokenLimit = scenario.apns.tokenLimit ?? 0
        tokenWindow = scenario.apns.tokenWindow.microseconds
        serverError = scenario.apns.serverError
        answerLoss = scenario.apns.answerLoss
        attempts = scenario.xiva.retry?.attempts ?? 1
        backoff = (scenario.xiva.retry?.backoff ?? .constant(.zero)).sampler
        // Outages naming a segment were resolved to that segment's phones (`Scenario.scenario(forSegment:)`);
        // the decoder refused a list that would lay out too many.
        let ownOutages = scenario.channel == .fcm ? [] : scenario.apns.outages.filter { $0.segment == nil }
        apnsOutages = XivaOutage.layout(ownOutages.map(\.window), runEnd: scenario.end) ?? []
        apnsOutageShares = ownOutages.map(\.share)
        apnsOutageUnreachable = ownOutages.map { $0.answer == .unreachable }
        hasAPNsOutages = !apnsOutages.isEmpty
        tokenFailures = scenario.channel == .fcm ? [] : scenario.apns.tokenRefresh?.failures(seed: scenario.seed, runEnd: scenario.end) ?? []
        hasTokenFailures = !tokenFailures.isEmpty
        sleeps = scenario.device.sleep != nil && scenario.apns.lowPriorityShare > 0
        lowPower = scenario.channel == .apns && (scenario.device.lowPower?.share ?? 0) > 0
        mayHold = sleeps || lowPower
        measuresSeenLatency = scenario.measuresSeenLatency
        providerAnswers = scenario.mail.payloadSize != nil || tokenLimit > 0 || serverError > 0 || answerLoss > 0
            || attempts > 1 || hasAPNsOutages || hasTokenFailures
        callKitFailure = scenario.channel == .pushkit ? scenario.pushkit.reportFailure : 0
        callKitCutOffAfter = scenario.pushkit.cutOffAfter
        fcmCollapseKeys = scenario.channel == .fcm ? scenario.fcm.collapseKeys : 0
        media = scenario.extension.media
        hasMedia = media != nil
        mediaSize = media?.size.sampler
        mediaBandwidth = media?.bandwidth.sampler
        binary = scenario.apns.interface == .binary
        binaryWriteTime = BinaryConnection.writeTime(ratePerMicrosecond: scenario.apns.connectionRatePerMicrosecond)
        resendBuffer = scenario.xiva.resendBuffer
        malformed = binary ? scenario.apns.malformed : 0
        errorDelay = scenario.apns.errorDelay.sampler
        feedbackDelay = scenario.apns.feedbackDelay.microseconds
        designsKeepState = scenario.recovery == .backgroundSync || (scenario.recovery == .catchUp && scenario.device.appOpen != nil)
    }

    /// How long APNs' store keeps a push: on FCM the message's time to live.
    static func storeExpiration(_ scenario: Scenario) -> SimTime {
        scenario.channel == .fcm ? scenario.fcm.ttl : scenario.apns.expiration
    }
}

/// The windows a mechanism adds to the offline windows every device shares
/// (``ChainParameters/sharedWindows``): FCM's doze windows, which hold normal-priority
/// messages (docs/model.md §12).
struct MechanismWindows {
    let doze: [Range<Int64>]

    init(_ scenario: Scenario) {
        doze = scenario.channel == .fcm && scenario.fcm.priority == FCMPriority.normal
            ? ConnectivityTimeline.windowIntervals(scenario.device.doze, end: scenario.end.microseconds) : []
    }

    /// Every mechanism's shared windows, in no particular order.
    var shared: [Range<Int64>] { doze }
}

extension CostModel {
    /// Every mechanism's cost in the resource estimate (each declared in its folder, the chain's
    /// own parts in CostModel.swift), in the order the estimate lists them: nil for one that is off.
    package static func mechanismLoads(_ s: Scenario, _ c: LoadInput) -> [MechanismLoad] {
        [
            fcmDozeLoad(s, c), fcmStoreLoad(s, c),
            sleepLoad(s, c),
            catchUpLoad(s, c),
            backgroundSyncLoad(s, c),
            lowPowerLoad(s, c),
            focusLoad(s, c), notificationSummaryLoad(s, c),
            retryLoad(s, c),
            duplicateLoad(s, c),
            reinstallLoad(s, c),
            idChangeLoad(s, c),
            mediaLoad(s, c),
            binaryLoad(s, c),
            xivaOutagesLoad(s, c),
            apnsOutagesLoad(s, c),
            tokenRefreshLoad(s, c),
            storeSlotsLoad(s, c),
            capacityLoad(s, c),
        ].compactMap { $0 }
    }
}
