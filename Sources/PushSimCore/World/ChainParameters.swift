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
package final class ChainParameters {
    // The fields the steps read on every push come first, in the order below, so that a world
    // resumed cold on the coupled path finds them on a few cache lines instead of one line each
    // (Swift lays a struct out in declaration order; docs/performance.md, Where the binary
    // rung's time goes: 42 → 37 last-level misses a push). The rest follow by mechanism.
    let deadline: SimTime
    /// APNs as documented (docs/model.md §5): how often a hand-over is followed by a second copy.
    let duplicate: Double
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
    /// Which client decides in the queue arm: a built-in one (called specialised) or the user's.
    let client: ChainClient
    /// The push channel (docs/model.md §12); its keys are below, with its group.
    let channel: PushChannel
    /// App reinstalls per microsecond (docs/model.md §8, App reinstall); the delay until XIVA learns the new token is below.
    let reinstallRate: Double
    let apnsLoss: Double
    /// APNs as documented (docs/model.md §5): how often the older push stays in the store
    /// (within `keepWindow` of its entry, below).
    let keepOlder: Double
    let collapseId: Bool
    /// Whether re-requests wait in a partition's queue (a finite capacity, docs/model.md §6);
    /// one service's length and the longest wait still served are below.
    let sharedServer: Bool
    /// `!outages.isEmpty`, kept as a plain flag: the per-letter test then reads no array.
    let hasOutages: Bool
    /// Whether APNs may hold a push for an online device at all (sleep or Low Power Mode,
    /// docs/model.md §10): the hot path tests one flag.
    let mayHold: Bool
    /// Priority-5 pushes may meet a sleeping device (docs/model.md §10): both keys are set.
    let sleeps: Bool
    /// The connectivity process's laws (online, offline), for a timeline drawn on demand
    /// (ConnectivityOnDemand.swift); nil without the process. Read here at every draw, never
    /// through `scenario` (no copy of the scenario per draw).
    let connectivityProcess: ConnectivityProcess?
    /// Some phones go into Low Power Mode (docs/model.md §10, Low Power Mode).
    let lowPower: Bool
    /// Device id changes per microsecond (docs/model.md §8, Device id change).
    let idChangeRate: Double
    /// Uninstalls per microsecond (docs/model.md §9).
    let uninstallRate: Double
    /// The run reports the latency seen by the user (docs/model.md §10, Focus and the scheduled
    /// summary): worked out at the end of each arm, no step of the chain changes.
    let measuresSeenLatency: Bool
    /// Whether XIVA drops letters during its outages (docs/model.md §6).
    let outageDrops: Bool
    let clearAfter: DistributionSampler?
    /// Parallel extension runs with a delayed save (docs/model.md §8, Parallel runs); nil: serial.
    let saveDelay: DistributionSampler?
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
    /// APNs' offline store when `apns.store` is not the one-slot store (docs/model.md §5, APNs'
    /// offline store as a parameter), on `channel: apns`: its slots per app (Int.max:
    /// unlimited), which copy a full store drops, and whether a collapse id has a slot of its own.
    let storeHasSlots: Bool
    let storeSlots: Int
    let storeKeep: APNsStorePolicy.Keep
    let storePerCollapseId: Bool
    /// XIVA's outages over the run (docs/model.md §6), disjoint and in time order; empty: none.
    let outages: [Range<Int64>]
    /// A finite capacity's one service's length and the longest wait still served (Int64.max: forever).
    let xivaService: Int64
    let queueTimeout: Int64
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
    /// Lazily, as `sharedWindows` below: worked out in `init`, a doze window repeating every
    /// microsecond filled the memory before the resource guard could refuse the run (the
    /// estimate makes parameters to ask `settlesInFlight`).
    private(set) lazy var doze: [Range<Int64>] = scenario.channel == .fcm && scenario.fcm.priority == .normal
        ? ConnectivityTimeline.windowIntervals(scenario.device.doze, end: scenario.end.microseconds) : []
    /// The offline windows every device shares, doze windows merged in on FCM (docs/model.md
    /// §12): computed once, and one buffer for every world made with these parameters, not one
    /// per world. Lazily, when the first world is made: the resource estimate makes parameters
    /// before the guard refuses a run whose windows would number in the billions.
    private(set) lazy var sharedWindows: [Range<Int64>] = {
        let windows = ConnectivityTimeline.windowIntervals(scenario)
        return doze.isEmpty ? windows : ConnectivityTimeline.sortedAndMerged(windows + doze)
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
        // On FCM the store's expiry is the message's time to live.
        apnsExpiration = scenario.channel == .fcm ? scenario.fcm.ttl : scenario.apns.expiration
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
        storeHasSlots = scenario.channel == .apns && !scenario.apns.store.isOneSlot
        storeSlots = scenario.apns.store.slots ?? Int.max
        storeKeep = scenario.apns.store.keep
        storePerCollapseId = scenario.apns.store.per == .collapseId
        duplicate = scenario.apns.duplicate
        // The decoder refused a list that would lay out too many; nil cannot happen here.
        outages = XivaOutage.layout(scenario.xiva.outages, runEnd: scenario.end)?.map(\.interval) ?? []
        outageDrops = scenario.xiva.outageMode == .drop
        hasOutages = !outages.isEmpty
        sharedServer = scenario.xiva.capacityPerMicrosecond != nil
        xivaService = scenario.xiva.capacityPerMicrosecond.map { XivaServer.service(capacityPerMicrosecond: $0) } ?? 0
        queueTimeout = scenario.xiva.queueTimeout.microseconds
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
        uninstallRate = scenario.device.uninstallRatePerMicrosecond
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
        connectivityProcess = ConnectivityProcess(scenario)
        lowPower = scenario.channel == .apns && (scenario.device.lowPower?.share ?? 0) > 0
        mayHold = sleeps || lowPower
        measuresSeenLatency = scenario.measuresSeenLatency
        providerAnswers = scenario.mail.payloadSize != nil || tokenLimit > 0 || serverError > 0 || answerLoss > 0
            || attempts > 1 || hasAPNsOutages || hasTokenFailures
        channel = scenario.channel
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
        loadBinWidth = scenario.loadBin.microseconds
        // Each mechanism declares what it needs (Mechanisms/MechanismRegistry.swift); one that is
        // on says whether the shortcuts stay valid (ShortcutPolicy.swift).
        let on = ChainMechanism.allCases.filter { $0.isOn(self) }
        let declarations = ChainMechanism.allCases.map { $0.declaration(self) }
        mechanismsPermitSettlingDueCopies = on.allSatisfy { $0.declaration(self).permitsSettlingDueCopies }
        mechanismsPermitSettlingFirstCopies = on.allSatisfy { $0.declaration(self).permitsSettlingFirstCopies }
        mechanismsPermitLettersOnDemand = declarations.allSatisfy(\.permitsLettersOnDemand)
        mechanismStreams = declarations.reduce(into: []) { $0.formUnion($1.streams) }
        gapCheckingArmMechanismStreams = declarations.reduce(into: mechanismStreams) { $0.formUnion($1.gapCheckingArmStreams) }
        // The designs' own states (catch-up and background sync, in their queue arm only, but
        // reset in both) beside the mechanisms'.
        keepsRareMechanismStates = declarations.contains(where: \.keepsState) || scenario.recovery == .backgroundSync
            || ((scenario.recovery == .catchUp || client == .stateful) && scenario.device.appOpen != nil)
        // Settling letters in flight (WorldSettlement.swift) relies on the gap check alone
        // reaching old letters: a built-in client, whose saved position never goes down, and
        // no mechanism but the shared server's queue; and letters that can be drawn on demand
        // (`DeviceWorld.allowsLettersOnDemand`: nothing drawn for every letter at once).
        settlesInFlight = sharedServer && (client == .intended || client == .literal) && on.allSatisfy { $0 == .sharedServer }
            && scenario.recovery == .queue && scenario.mail.payloadSize == nil && scenario.apns.lowPriorityShare == 0
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
}
