// The scenario's values that the chain reads on every event, worked out once per part and shared by its worlds.

/// What the event handlers need from the scenario, flattened into plain fields with the
/// samplers' derived parameters precomputed: a step reads a plain field, never a nested
/// scenario struct (which the compiler may copy whole), and no draw recomputes a lognormal's
/// sigma (a logarithm).
/// Every draw here is bit-for-bit what `Distribution.sample` gives.
///
/// A final class with `let` fields, holding the scenario too: the same for every device of a
/// part (a segment, or the whole scenario) and never written, so the worlds of a part share
/// one: on the coupled path every world of a partition is alive at once (docs/performance.md,
/// Memory of the coupled path). A read is one more load, through a reference the steps keep
/// in a register; no copy and no exclusivity check.
@dynamicMemberLookup
package final class ChainParameters {
    // The fields the steps read on every push come first, in the order below, so that a world
    // resumed cold on the coupled path finds them on a few cache lines instead of one line each
    // (Swift lays a struct out in declaration order; docs/performance.md, Where the binary
    // rung's time goes: 42 → 37 last-level misses a push): the chain's, then the mechanisms'
    // (their flags first), then the rest.
    let deadline: SimTime
    /// APNs as documented (docs/model.md §5): how often a hand-over is followed by a second copy.
    let duplicate: Double
    /// Which client decides in the queue arm: a built-in one (called specialised) or the user's.
    let client: ChainClient
    /// The push channel (docs/model.md §12); its keys are below, with its group.
    let channel: PushChannel
    let apnsLoss: Double
    /// APNs as documented (docs/model.md §5): how often the older push stays in the store
    /// (within `keepWindow` of its entry, below).
    let keepOlder: Double
    let collapseId: Bool
    /// Whether XIVA sends background pushes to a version-2 client's app in the queue arm
    /// (`queue.background_pushes`, StatefulClientBackground.swift).
    let backgroundPushes: Bool
    /// Whether re-requests wait in a partition's queue (a finite capacity, docs/model.md §6);
    /// one service's length and the longest wait still served are below.
    let sharedServer: Bool
    /// `!outages.isEmpty`, kept as a plain flag: the per-letter test then reads no array.
    let hasOutages: Bool
    /// `hasOutages || backgroundPushes`: XIVA's send of a letter has a rare step (Xiva.swift).
    let xivaSendsWithMore: Bool
    /// The connectivity process's laws (online, offline), for a timeline drawn on demand
    /// (ConnectivityOnDemand.swift); nil without the process. Read here at every draw, never
    /// through `scenario` (no copy of the scenario per draw).
    let connectivityProcess: ConnectivityProcess?
    /// Uninstalls per microsecond (docs/model.md §9).
    let uninstallRate: Double
    /// Whether XIVA drops letters during its outages (docs/model.md §6).
    let outageDrops: Bool
    /// Each mechanism's values (Mechanisms/MechanismRegistry.swift), read as this object's own
    /// (`parameters.sleeps`).
    let mechanisms: MechanismParameters
    let clearAfter: DistributionSampler?
    let apnsLatency: DistributionSampler
    let processing: DistributionSampler

    let apnsExpiration: SimTime
    let retention: SimTime
    let requestLatency: DistributionSampler
    let requestError: Double
    let resendLatency: DistributionSampler
    let repeatMaxCount: Int
    /// The window of a store entry within which `keepOlder` applies (docs/model.md §5).
    let keepWindow: Int64
    /// XIVA's outages over the run (docs/model.md §6), disjoint and in time order; empty: none.
    let outages: [Range<Int64>]
    /// A finite capacity's one service's length and the longest wait still served (Int64.max: forever).
    let xivaService: Int64
    let queueTimeout: Int64
    /// The windows mechanisms add to those every device shares (``MechanismWindows``). Lazily,
    /// as `sharedWindows` below: worked out in `init`, a window repeating every microsecond
    /// filled the memory before the resource guard could refuse the run (the estimate makes
    /// parameters to ask `settlesInFlight`).
    private(set) lazy var mechanismWindows = MechanismWindows(scenario)
    /// The offline windows every device shares, the mechanisms' merged in (docs/model.md
    /// §12): computed once, and one buffer for every world made with these parameters, not one
    /// per world. Lazily, when the first world is made: the resource estimate makes parameters
    /// before the guard refuses a run whose windows would number in the billions.
    private(set) lazy var sharedWindows: [Range<Int64>] = {
        let windows = ConnectivityTimeline.windowIntervals(scenario)
        let added = mechanismWindows.shared
        return added.isEmpty ? windows : ConnectivityTimeline.sortedAndMerged(windows + added)
    }()
    /// The connectivity timeline of every device when all share it (only windows every device
    /// shares: ``ConnectivityTimeline/isSameForEveryDevice(_:)``), one array of flips for every
    /// world made with these parameters, not a copy in each; nil when each device draws its
    /// own. Lazily, as `sharedWindows`.
    private(set) lazy var sharedTimeline: ConnectivityTimeline? = {
        guard ConnectivityTimeline.isSameForEveryDevice(scenario) else { return nil }
        var timeline = ConnectivityTimeline(), scratch: [Range<Int64>] = [], deviceScratch: [Range<Int64>] = []
        timeline.generate(scenario, device: 0, windows: sharedWindows, scratch: &scratch, deviceScratch: &deviceScratch)
        return timeline
    }()
    /// The load series' bin width in µs (docs/model.md §14): read at every fold, where reading
    /// it through the scenario copied the whole `Scenario`.
    let loadBinWidth: Int64

    /// The scenario they are worked out from: a world reads its other keys there, per arm or
    /// per device, not per step.
    let scenario: Scenario
    /// The run's end (`duration` + `drain`) in µs: each world's clock reads it here rather than
    /// keeping a copy of its own.
    let runEnd: Int64
    /// The laws of the letter script, for a world that draws its letters on demand (MailBackend.swift).
    let letterLaws: LetterLaws

    package init(_ scenario: Scenario) {
        self.scenario = scenario
        runEnd = scenario.end.microseconds
        letterLaws = LetterLaws(scenario)
        apnsLoss = scenario.apns.loss
        apnsLatency = scenario.apns.latency.sampler
        // A push channel may give the store an expiry of its own.
        apnsExpiration = MechanismParameters.storeExpiration(scenario)
        processing = scenario.extension.processing.sampler
        deadline = scenario.extension.deadline
        retention = scenario.xiva.retention
        requestLatency = scenario.xiva.requestLatency.sampler
        requestError = scenario.xiva.requestError
        resendLatency = scenario.xiva.resendLatency.sampler
        clearAfter = scenario.device.clearAfter?.sampler
        collapseId = scenario.queue.collapseId
        client = scenario.queue.userClient.map { $0.stateful == nil ? .user : .stateful }
            ?? (scenario.queue.client == .intended ? .intended : .literal)
        repeatMaxCount = scenario.queue.repeatMaxCount
        keepOlder = scenario.apns.keepOlder
        keepWindow = scenario.apns.keepWindow.microseconds
        duplicate = scenario.apns.duplicate
        // The decoder refused a list that would lay out too many; nil cannot happen here.
        outages = XivaOutage.layout(scenario.xiva.outages, runEnd: scenario.end)?.map(\.interval) ?? []
        outageDrops = scenario.xiva.outageMode == .drop
        hasOutages = !outages.isEmpty
        backgroundPushes = scenario.queue.backgroundPushes && client == .stateful && scenario.recovery == .queue
        xivaSendsWithMore = hasOutages || backgroundPushes
        sharedServer = scenario.xiva.capacityPerMicrosecond != nil
        xivaService = scenario.xiva.capacityPerMicrosecond.map { XivaServer.service(capacityPerMicrosecond: $0) } ?? 0
        queueTimeout = scenario.xiva.queueTimeout.microseconds
        uninstallRate = scenario.device.uninstallRatePerMicrosecond
        mechanisms = MechanismParameters(scenario)
        connectivityProcess = ConnectivityProcess(scenario)
        channel = scenario.channel
        loadBinWidth = scenario.loadBin.microseconds
        // Each mechanism declares what it needs (Mechanisms/MechanismRegistry.swift); one that is
        // on says whether the shortcuts stay valid (ShortcutPolicy.swift).
        let on = ChainMechanism.allCases.filter { $0.isOn(self) }
        let declarations = ChainMechanism.allCases.map { $0.declaration(self) }
        mechanismsPermitSettlingDueCopies = on.allSatisfy { $0.declaration(self).permitsSettlingDueCopies }
        mechanismsPermitSettlingFirstCopies = on.allSatisfy { $0.declaration(self).permitsSettlingFirstCopies }
        firstSendsFollowTheScript = !xivaSendsWithMore && on.allSatisfy { $0.declaration(self).permitsDecidingTheConnectionAhead }
        mechanismsPermitLettersOnDemand = declarations.allSatisfy(\.permitsLettersOnDemand)
        mechanismStreams = declarations.reduce(into: []) { $0.formUnion($1.streams) }
        gapCheckingArmMechanismStreams = declarations.reduce(into: mechanismStreams) { $0.formUnion($1.gapCheckingArmStreams) }
        // The designs' own states (catch-up and background sync, in their queue arm only, but
        // reset in both) beside the mechanisms'.
        keepsRareMechanismStates = declarations.contains(where: \.keepsState) || mechanisms.designsKeepState
            || (client == .stateful && (scenario.device.appOpen != nil || backgroundPushes))
        // Settling letters in flight (WorldSettlement.swift) relies on the gap check alone
        // reaching old letters: a built-in client, whose saved position never goes down; no
        // mechanism but those that reach a letter only through what is under way or stored
        // (each declares it, `permitsSettlingInFlight`; so no letter's payload size is drawn);
        // and letters that can be drawn on demand (`DeviceWorld.allowsLettersOnDemand`: nothing
        // drawn for every letter at once).
        settlesInFlight = sharedServer && (client == .intended || client == .literal) && on.allSatisfy { $0.declaration(self).permitsSettlingInFlight }
            && scenario.recovery == .queue && scenario.apns.lowPriorityShare == 0
    }

    /// Whether an arm starts the mechanisms' out-of-line states (``MechanismStates``): some
    /// mechanism declares one, or a design that keeps one (catch-up, background sync) is chosen.
    private(set) var keepsRareMechanismStates = false

    /// Whether every mechanism lets a world draw its letters a few at a time (each declares it).
    private(set) var mechanismsPermitLettersOnDemand = false

    /// The mechanisms' streams an arm seeds: those some mechanism declares, in both arms, and
    /// with those it declares for the arm that checks gaps.
    private(set) var mechanismStreams: MechanismStreamSet = []
    private(set) var gapCheckingArmMechanismStreams: MechanismStreamSet = []

    /// Whether the queue arm's worlds of this part settle their letters in flight when their
    /// driver lets them (WorldSettlement.swift; the resource estimate counts their memory so).
    package private(set) var settlesInFlight = false

    /// Whether every mechanism switched on permits each shortcut (worked out once, last).
    private(set) var mechanismsPermitSettlingDueCopies = false
    private(set) var mechanismsPermitSettlingFirstCopies = false
    /// Whether, in an arm that re-requests nothing, XIVA sends exactly the letters its scripts
    /// do not drop, each at its time plus its drawn latency (no outage, no background push, and
    /// every mechanism on permits it): what deciding the binary connection ahead needs.
    private(set) var firstSendsFollowTheScript = false

    /// A mechanism's value (``MechanismParameters``), read as this object's own.
    package subscript<T>(dynamicMember path: KeyPath<MechanismParameters, T>) -> T {
        @inline(__always) get { mechanisms[keyPath: path] }
    }
}
