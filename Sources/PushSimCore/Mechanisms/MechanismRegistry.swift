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
        // The same groups and rules, by offset: through each `CounterGroup` and key path this
        // cost about 9 000 instructions a merge (a copy of every group, retains, the key-path
        // runtime), and the coupled path merges once per device and arm.
        var theirs = other.mechanismCounts
        withUnsafeBytes(of: &theirs) { from in
            withUnsafeMutableBytes(of: &ledger.mechanismCounts) { into in
                for group in plan where !group.isEmpty(other) {
                    for step in group.steps {
                        let mine = into.load(fromByteOffset: step.offset, as: Int.self)
                        let added = from.load(fromByteOffset: step.offset, as: Int.self)
                        into.storeBytes(of: step.largest ? max(mine, added) : mine + added, toByteOffset: step.offset, as: Int.self)
                    }
                }
            }
        }
    }

    /// A group of ``Ledger/ownStorageGroups`` as the merge reads it: its emptiness test, and each
    /// counter's offset in `MechanismCounts` with its rule.
    struct GroupMerge: Sendable {
        let isEmpty: @Sendable (Ledger) -> Bool
        let steps: [(offset: Int, largest: Bool)]
    }

    /// Every own-storage group's merge by offset; nil if some counter has no offset (then the
    /// merge goes through the key paths).
    static let mergePlan: [GroupMerge]? = {
        var plan: [GroupMerge] = []
        for group in Ledger.ownStorageGroups {
            guard let isEmpty = group.isEmpty else { return nil }
            var steps: [(offset: Int, largest: Bool)] = []
            for counter in group.counters {
                guard let offset = counter.offsetInCounts else { return nil }
                steps.append((offset, counter.merge == .largest))
            }
            plan.append(GroupMerge(isEmpty: isEmpty, steps: steps))
        }
        return plan
    }()

    /// The mechanisms' own accounting identities (a seen latency for every delivered letter).
    func identitiesHold(delivered: Int) -> Bool {
        focusSummary.seenLatency.map { Int($0.total) == delivered } ?? true
    }
}

/// The ledger reaches each mechanism's counters as its own (`ledger.sleep.held`): plain
/// accessors, one per field above, which the optimizer sees through (a dynamic member lookup
/// went through key paths and cost 2.5 % of a run). Sets of plain counts are read and written
/// whole (nothing to copy on write); the one with a histogram is modified in place.
extension Ledger {
    /// Where the mechanisms' counters are stored: the root of every declared counter's path.
    nonisolated(unsafe) static let mechanismCountsPath: WritableKeyPath<Ledger, MechanismCounts> = \.mechanismCounts

    package var catchUp: CatchUpCounters { @inline(__always) get { mechanismCounts.catchUp } @inline(__always) set { mechanismCounts.catchUp = newValue } }
    package var backgroundSync: BackgroundSyncCounters { @inline(__always) get { mechanismCounts.backgroundSync } @inline(__always) set { mechanismCounts.backgroundSync = newValue } }
    package var earlyKill: EarlyKillCounters { @inline(__always) get { mechanismCounts.earlyKill } @inline(__always) set { mechanismCounts.earlyKill = newValue } }
    package var deviceIdChange: DeviceIdChangeCounters { @inline(__always) get { mechanismCounts.deviceIdChange } @inline(__always) set { mechanismCounts.deviceIdChange = newValue } }
    package var appReinstalls: ReinstallCounters { @inline(__always) get { mechanismCounts.appReinstalls } @inline(__always) set { mechanismCounts.appReinstalls = newValue } }
    package var parallelRuns: ParallelRunsCounters { @inline(__always) get { mechanismCounts.parallelRuns } @inline(__always) set { mechanismCounts.parallelRuns = newValue } }
    package var uninstall: UninstallCounters { @inline(__always) get { mechanismCounts.uninstall } @inline(__always) set { mechanismCounts.uninstall = newValue } }
    package var provider: ProviderCounters { @inline(__always) get { mechanismCounts.provider } @inline(__always) set { mechanismCounts.provider = newValue } }
    package var sleep: SleepCounters { @inline(__always) get { mechanismCounts.sleep } @inline(__always) set { mechanismCounts.sleep = newValue } }
    package var lowPower: LowPowerCounters { @inline(__always) get { mechanismCounts.lowPower } @inline(__always) set { mechanismCounts.lowPower = newValue } }
    package var focusSummary: FocusSummaryCounters { @inline(__always) get { mechanismCounts.focusSummary } @inline(__always) _modify { yield &mechanismCounts.focusSummary } }
    package var media: MediaCounters { @inline(__always) get { mechanismCounts.media } @inline(__always) set { mechanismCounts.media = newValue } }
    package var binary: BinaryCounters { @inline(__always) get { mechanismCounts.binary } @inline(__always) set { mechanismCounts.binary = newValue } }
    package var fcm: FCMOutcomes { @inline(__always) get { mechanismCounts.fcm } @inline(__always) set { mechanismCounts.fcm = newValue } }
    package var apns: APNsConsoleCounters { @inline(__always) get { mechanismCounts.apns } @inline(__always) set { mechanismCounts.apns = newValue } }
    package var xivaCapacity: XivaCapacityCounters { @inline(__always) get { mechanismCounts.xivaCapacity } @inline(__always) set { mechanismCounts.xivaCapacity = newValue } }
}

extension Ledger {
    /// Each mechanism's counters, in the order of the report table's blocks. A mechanism with
    /// counters adds its group here, once.
    package static let groups: [CounterGroup] = [
        APNsConsoleCounters.group, .undeliverable, .providerAnswers, .binaryInterface, SleepCounters.group, LowPowerCounters.group, FocusSummaryCounters.group,
        XivaCapacityCounters.group,
        .earlyKill, MediaCounters.group, .deviceIdChange, ReinstallCounters.group, .parallelRuns, .catchUp,
        BackgroundSyncCounters.group,
    ]
}

/// The state the optional mechanisms keep in one arm. A mechanism writes only its own field;
/// `resetMechanisms` starts each afresh.
///
/// Inline: what every world reads on its hot path (the shared queue's `joining`, whether first
/// copies settle when sent at every push, the reinstalls' watch instant at every letter, the
/// id change's next instant at every extension run, the binary outbox at every send). The rest
/// lives out of line (``RareMechanismStates``), made the first time one of them is written:
/// inline, it was 104 bytes, then the provider's, the reinstalls' and FCM's 88 more, of every
/// world of a shared partition (issue 26, item 1). Read before it exists, each reads as its
/// fresh state, which is what `resetMechanisms` would have written.
struct MechanismStates: ~Copyable {
    /// Re-requests sent at the current instant, waiting to join the shared XIVA queue once
    /// the instant's other steps are done (docs/model.md §6): the first inline, any more in
    /// `moreJoining`. A world holds one while it waits for the partition's clock, and at a busy
    /// moment most worlds of a partition do: in an array of its own each was an allocation of
    /// 64 bytes (issue 26, item 1).
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
    /// The mechanisms' states read only while their mechanism is on; none until one is written.
    /// Reached through addressors: through `_read` coroutines each access was a call (+13.9 %
    /// instructions on `provider-answers.yaml`, whose token limit is read and written at every push).
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

    /// The out-of-line states to read: this world's, or fresh ones every world reads until it
    /// writes its own (never written through: writes go through ``rareStates()``).
    private var readableStates: UnsafeMutablePointer<RareMechanismStates> {
        @inline(__always) get { rare.readable(orFresh: freshRareMechanismStates) }
    }

    /// The out-of-line states, made on first write.
    @inline(__always) private mutating func rareStates() -> UnsafeMutablePointer<RareMechanismStates> {
        rare.writable(orMake: RareMechanismStates())
    }

    /// The provider's side of APNs (docs/model.md §9, §10): token limit, held pushes.
    var provider: ProviderState {
        @inline(__always) unsafeAddress { UnsafePointer(withUnsafeMutablePointer(to: &readableStates.pointee.provider) { $0 }) }
        @inline(__always) unsafeMutableAddress { withUnsafeMutablePointer(to: &rareStates().pointee.provider) { $0 } }
    }
    /// App reinstalls (`device.reinstall`), but for their watch instant (above).
    var reinstalls: ReinstallState {
        @inline(__always) unsafeAddress { UnsafePointer(withUnsafeMutablePointer(to: &readableStates.pointee.reinstalls) { $0 }) }
        @inline(__always) unsafeMutableAddress { withUnsafeMutablePointer(to: &rareStates().pointee.reinstalls) { $0 } }
    }
    /// FCM's store (docs/model.md §12): read at every push on the channel.
    var fcm: FCMStore {
        @inline(__always) unsafeAddress { UnsafePointer(withUnsafeMutablePointer(to: &readableStates.pointee.fcm) { $0 }) }
        @inline(__always) unsafeMutableAddress { withUnsafeMutablePointer(to: &rareStates().pointee.fcm) { $0 } }
    }
    /// The client catch-up (docs/model.md §7, Client catch-up).
    var catchUp: CatchUpState {
        @inline(__always) unsafeAddress { UnsafePointer(withUnsafeMutablePointer(to: &readableStates.pointee.catchUp) { $0 }) }
        @inline(__always) unsafeMutableAddress { withUnsafeMutablePointer(to: &rareStates().pointee.catchUp) { $0 } }
    }
    /// Background-push sync (docs/model.md §7, Background-push sync).
    var backgroundSync: BackgroundSyncState {
        @inline(__always) unsafeAddress { UnsafePointer(withUnsafeMutablePointer(to: &readableStates.pointee.backgroundSync) { $0 }) }
        @inline(__always) unsafeMutableAddress { withUnsafeMutablePointer(to: &rareStates().pointee.backgroundSync) { $0 } }
    }
    /// Low Power Mode (docs/model.md §10): whether a window's end is scheduled, the release order's stream.
    var lowPower: LowPowerState {
        @inline(__always) unsafeAddress { UnsafePointer(withUnsafeMutablePointer(to: &readableStates.pointee.lowPower) { $0 }) }
        @inline(__always) unsafeMutableAddress { withUnsafeMutablePointer(to: &rareStates().pointee.lowPower) { $0 } }
    }
    /// PushKit (docs/model.md §12): the app's CallKit failures so far.
    var pushKit: PushKitState {
        @inline(__always) unsafeAddress { UnsafePointer(withUnsafeMutablePointer(to: &readableStates.pointee.pushKit) { $0 }) }
        @inline(__always) unsafeMutableAddress { withUnsafeMutablePointer(to: &rareStates().pointee.pushKit) { $0 } }
    }
}

/// Fresh out-of-line states, read by every world that has not written its own: made once,
/// never written, never freed.
nonisolated(unsafe) private let freshRareMechanismStates = OutOfLine.madeOnce(RareMechanismStates())

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

/// The steps of optional mechanisms that wait in the event heap without an index (a
/// `ChainEvent.mechanism`): a mechanism with such a step adds its case here and its handler
/// below; the switch has no default, so a case without a handler does not compile.
/// Past a device's uninstall none of them happens (nothing reaches the app then) and none
/// leaves a letter under way.
enum MechanismStep: Equatable, Sendable {
    /// The user opens the app, which catches up with what it missed (`recovery: catch_up`).
    case appOpen
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
    }

    /// Reset, second part: each mechanism's first event, once the arm's streams are seeded.
    @inline(__always) mutating func scheduleMechanismsFirstEvents() {
        if parameters.idChangeRate > 0 && armState.checksGaps { scheduleFirstIdChange() }
        if parameters.reinstallRate > 0 { scheduleFirstReinstall() }
    }

    /// Begin: each mechanism's step that comes before the first letter on the agenda.
    @inline(__always) mutating func beginMechanisms() {
        if mechanisms.catchUp.enabled { scheduleFirstAppOpen() }
    }

    /// Close, before APNs' stored copy is settled: what a mechanism still holds is under way.
    @inline(__always) mutating func closeMechanismsHolding() {
        // Priority-5 pushes APNs still holds for a sleeping device (docs/model.md §10).
        for c in mechanisms.provider.held where !copies[c].isSecondCopy { letterStates[copies[c].letter].unfinished = true }
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
