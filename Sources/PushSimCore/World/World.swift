// The world of one device in one arm: the chain's state, the event loop, and the final account.
//
// The timing rules (docs/scenarios.md §3, in words in docs/model.md §1) and where each lives:
//   1  a letter at XIVA: dropped or numbered, sent ........ Xiva.swift          xivaReceives
//   2  a copy at APNs: lost, or due after a latency ....... APNs.swift          apnsReceives, apnsAccepts
//      (a first copy settled when sent) ................... APNs.swift          firstCopyTravels
//   3  the one-slot offline store, flushed when online .... APNs.swift          store, apnsFlushStore
//      (a store of `apns.store` in OfflineStore.swift) ...                      storeInSlots, flushStoreSlots
//   4  connectivity in equilibrium at time 0; flips ....... Connectivity.swift, Device.swift connectivityFlips
//   5  arrival: display off, or the extension starts ...... Device.swift        deviceReceives
//      the gap check at arrival (queue on) ................ ServiceExtension.swift checkForGap
//   6  processing and the deadline ........................ ServiceExtension.swift extensionProcessed,
//                                                            extensionDeadline, deadline(ofRunStartedAt:)
//   7  the re-request's answer; retention; re-sends ....... Xiva.swift          xivaAnswers, xivaRetains
//   8  summaries .......................................... NotificationCenter.swift showSummary
//   9  presentation, collapse, duplicates, clearing ....... NotificationCenter.swift present, clearTime
//  10  the end of the run: what is under way is unfinished  World.swift         closeAccounts
// Recovery designs (docs/model.md §7): the client catch-up in CatchUp.swift   userOpensApp;
// background-push sync in BackgroundSync.swift                                 backgroundSyncs, at the end of an arm.
// A version-2 client's main app: opened in StatefulClientApp.swift               clientAppOpens;
// woken by the queue design's background pushes in StatefulClientBackground.swift  xivaSendsBackgroundPush,
//                                                                               backgroundPushArrives, backgroundPushReleased.
// The extension killed early (docs/model.md §8) in EarlyKill.swift            extensionKilledEarly.
// Device id changes (docs/model.md §8) in DeviceIdChange.swift                 deviceIdChanged.
// Push channels (docs/model.md §12): PushChannels.swift leaves the APNs path for
// PushKitChannel.swift (no store, CallKit) and FCMStore.swift (store, TTL, Doze, re-sync).
// App reinstalls (docs/model.md §8) in AppReinstall.swift   reinstallsPassed, isForeignPush.
// Version 2's mechanisms (docs/model.md §5): second copies and keep_older in APNs.swift,
// warm-up in `counted`, windows per device in Connectivity.swift, letters in MailTraffic.swift,
// XIVA's outages (docs/model.md §6) in Xiva.swift (xivaReceives, outageEnd) and extensionProcessed.
// The provider's side of APNs (docs/model.md §9): answers and retries in ProviderAnswers.swift
// (apnsAnswers), APNs' outages in APNsOutages.swift (apnsOutageRefuses), the uninstall as the device's `end`; priority 5 and sleep (§10) in DeviceSleep.swift.
// Low Power Mode (docs/model.md §10, Low Power Mode) in LowPowerMode.swift (handOverMayHold, lowPowerEnds);
// the extension's memory limit (docs/model.md §8) in MemoryLimit.swift (extensionKilledForMemory).
// Focus and the scheduled summary (docs/model.md §10) in FocusSummary.swift (recordSeenLatency, at the end of an arm).
// The legacy binary interface (docs/model.md §11): the world's side in BinaryInterface.swift (joins,
// outcomes, buffer checks, the feedback delay), the shared connection in BinaryConnectionServer.swift.
// The shortcuts that settle steps without events are listed in ShortcutPolicy.swift.

/// A copy of a push on its way: the letter it carries, whether XIVA re-sent it, whether it is
/// APNs' second copy of a hand-over (docs/model.md §5, Second copies), and when the APNs offline store would let it expire.
struct PushCopy {
    var letter: LetterIndex
    var isResend: Bool
    var isSecondCopy = false
    /// How many times XIVA sent this push before (docs/model.md §9, Retries); 0: the first send.
    var attempt: UInt8 = 0
    /// Why FCM held it before the hand-over (``FCMDelay``; docs/model.md §12); fits the padding.
    var fcmDelay: UInt8 = 0
    /// What Apple's console would last have shown for it (``ConsoleMark``; docs/model.md §2).
    var console = ConsoleMark()
    var expiry: Int64
}

/// What one arm has done with one letter so far. One array of these rather than an array per
/// field: an event touches one cache line and the array is checked for uniqueness once.
package struct LetterState: Sendable {
    /// When the letter was first presented with its own content (valid when `delivered`).
    package var firstDelivery: Int64 = 0
    /// When the user clears its notification (collapse window for re-sent copies).
    package var shownUntil: Int64 = 0
    /// Its XIVA position; 0 when dropped.
    package var position: Int32 = 0
    /// The five flags below, one bit each, packed into one byte: a world of a shared partition
    /// holds a state per letter in flight, multiplied by the partition's phones.
    private var flags = Flags()
    /// How the first copy, a re-sent copy, and its gap's recovery were lost; nil for none.
    /// (One byte each.)
    var firstCopyFate: LossCause? = nil
    var resentCopyFate: LossCause? = nil
    var gapFate: LossCause? = nil

    package init() {}

    private struct Flags: OptionSet {
        let rawValue: UInt8
        static let delivered = Flags(rawValue: 1), summarized = Flags(rawValue: 2), unfinished = Flags(rawValue: 4)
        static let droppedInOutage = Flags(rawValue: 8), droppedForOldToken = Flags(rawValue: 16)
    }

    @inline(__always) private subscript(flag: Flags) -> Bool {
        get { flags.contains(flag) }
        set { if newValue { flags.insert(flag) } else { flags.remove(flag) } }
    }

    package var delivered: Bool { get { self[.delivered] } set { self[.delivered] = newValue } }
    package var summarized: Bool { get { self[.summarized] } set { self[.summarized] = newValue } }
    package var unfinished: Bool { get { self[.unfinished] } set { self[.unfinished] = newValue } }
    /// Dropped by XIVA during an outage in `drop` mode (docs/model.md §6).
    package var droppedInOutage: Bool { get { self[.droppedInOutage] } set { self[.droppedInOutage] = newValue } }
    /// Dropped by XIVA after an app reinstall, before it knew the new token (docs/model.md §8, App reinstall).
    package var droppedForOldToken: Bool { get { self[.droppedForOldToken] } set { self[.droppedForOldToken] = newValue } }
}

/// One device simulated through one arm. Devices never interact, so each runs with its own
/// small event list, which keeps the heap in cache; the result is the same as one global list
/// because ties are broken by scheduling order within the device, which is all that matters.
///
/// The event list and the per-letter and per-run arrays are plain memory owned by this world,
/// inline and written in place (no copy-on-write checks on the hot path, no object each): they
/// cannot be copied, so neither can a world (`~Copyable`); make a new world per thread.
package struct DeviceWorld: ~Copyable {
    /// The scenario's values for the chain, and the scenario: one object that every world of a
    /// part may share (ChainParameters.swift).
    let parameters: ChainParameters
    var scenario: Scenario { parameters.scenario }
    /// The trace and the extension's log, when a driver watches (WorldObservers.swift). Every
    /// step tests the trace, so it sits before the draws and the clock, not after the ledger.
    var observers = WorldObservers()

    // The owners of the world's state: each step reads and writes through them, so what a
    // mechanism may touch is its own field of `mechanisms` and its own counters.
    /// The device's pre-drawn world, shared by both arms.
    package internal(set) var draws: DeviceDraws
    /// The clock, the agenda and this device's end.
    var clock: WorldClock
    /// Whether handlers may settle steps without scheduling them (see ``ShortcutPolicy``). Kept
    /// right after the clock, so that it fills the clock's tail padding.
    let shortcuts: ShortcutPolicy
    /// Which arm runs: the device, the gap check, the streams, the first counted letter.
    var armState = ArmState()
    /// The chain's nodes in this arm: copies on their way, APNs' store, XIVA's numbering, the extension.
    var copies = OwnedArray<PushCopy>()
    var apnsStore = APNsStore()
    var xiva = XivaNumbering()
    var ext = ExtensionState()
    /// Each optional mechanism's state in this arm.
    var mechanisms = MechanismStates()
    /// The accounts: each letter's state so far, and the ledger it is recorded into at the end.
    package var letterStates = OwnedArray<LetterState>()
    /// Where its counts go: a cell of its own, or, while an arm counts into its part's ledger,
    /// that ledger's (WorldLedgerCell.swift). Starts as the shared placeholder: a world made per
    /// device (the coupled path) would otherwise allocate and zero a latency histogram it never uses.
    var ledgerCell: LedgerCell
    /// The ledger this world counts into, written in place in its cell.
    package var ledger: Ledger {
        get { ledgerCell.ledger }
        nonmutating set { ledgerCell.ledger = newValue }
        nonmutating _modify { yield &ledgerCell.ledger }
    }
    /// This arm's load so far (docs/model.md §14), folded into `ledger.load` when the arm ends.
    var loadLog = LoadLog()

    package init(scenario: Scenario, shortcuts: ShortcutPolicy = .taken) {
        self.init(parameters: ChainParameters(scenario), shortcuts: shortcuts)
    }

    /// A world reading `parameters`, which other worlds of its part may share.
    /// `ledgerCell`: where it counts between arms; worlds that run one at a time may share one
    /// (`run(_:into:)` swaps a driver's account in and out of it).
    package init(parameters: ChainParameters, shortcuts: ShortcutPolicy = .taken, ledgerCell: LedgerCell = LedgerCell()) {
        self.parameters = parameters
        self.shortcuts = shortcuts
        self.ledgerCell = ledgerCell
        self.draws = DeviceDraws()
        self.clock = WorldClock(runEnd: parameters.runEnd)
    }

    /// Draws everything about a device that both arms share.
    /// With `lettersOnDemand` (the coupled path) the letters are drawn a few at a time as the
    /// arm reaches them, when the scenario allows it (``allowsLettersOnDemand``): the same letters.
    package mutating func prepare(device: Int, lettersOnDemand: Bool = false) {
        self.armState.device = device
        if _slowPath(lettersOnDemand && allowsLettersOnDemand) {
            draws.letters.drawOnDemand(scenario, parameters.letterLaws, device: device)
        } else {
            draws.letters.generate(scenario, device: device)
        }
        draws.timelineOnDemand = false
        if let shared = parameters.sharedTimeline {
            draws.timeline = shared
        } else if lettersOnDemand && mayDrawTimelineOnDemand {
            draws.timelineOnDemand = draws.timeline.drawOnDemand(scenario, device: device, windows: parameters.sharedWindows)
            draws.timelineFromStart = true
        } else {
            // FCM holds normal-priority messages while the device dozes: for the channel, a doze
            // window is a window offline (docs/model.md §12, FCM). One array for every world made
            // with these parameters (ChainParameters.sharedWindows).
            let scratch = draws.drawScratch()
            draws.timeline.generate(scenario, device: device, windows: parameters.sharedWindows, scratch: &scratch.intervals,
                                    deviceScratch: &scratch.deviceWindows)
        }
        var rng = RandomStream(seed: scenario.seed, device: device, purpose: .device)
        draws.alertsOff = rng.chance(scenario.device.alertsOff)
        let runEnd = parameters.runEnd
        clock.end = parameters.uninstallRate > 0 ? min(runEnd, uninstallTime()) : runEnd
        clock.horizon = parameters.binary && clock.end < runEnd ? min(runEnd, later(clock.end, parameters.feedbackDelay)) : clock.end
        prepareMechanisms(device: device)
    }

    /// 1 when letter i counts (its time is at or after the warm-up), else 0.
    @inline(__always) func counted(_ i: Int) -> Int { i >= armState.firstCounted ? 1 : 0 }

    /// Quantity q of the load series happened at `time` for letter i, noted when the letter
    /// counts (the series counts what the ledger counts, docs/model.md §14).
    @inline(__always) mutating func noteLoad(_ q: LoadLog.Entry, letter i: Int, at time: Int64) {
        if i >= armState.firstCounted { loadLog.note(q, at: time) }
    }

    /// Simulates the prepared device through one arm and adds its letters to `account`: the
    /// one way every driver (runs, checks, traces, find) runs an arm. The account is swapped in
    /// rather than copied, so a driver's ledger keeps its buffers and nothing is allocated.
    package mutating func run(_ arm: Arm, into account: inout Ledger) {
        swap(&ledger, &account)
        run(arm)
        swap(&ledger, &account)
    }

    /// Simulates the prepared device through one arm and adds its letters to `ledger`.
    package mutating func run(_ arm: Arm) {
        begin(arm)
        if _slowPath(sharesServer || parameters.binary) {
            runAloneOnSharedServers()
            return
        }
        var processed = 0
        while let (now, item) = clock.agenda.next(before: clock.end) {
            handle(item, at: now)
            processed += 1
        }
        ledger.events += processed
        finish()
    }

    /// A device run on its own with a finite XIVA capacity or over the binary interface (a
    /// hand-built world): it is alone in its partition and on its connection. Runs, checks,
    /// traces and `find` run a whole partition (``CoupledWorlds``). Out of line, so that `run`
    /// stays small enough for the compiler to inline `handle` into the hot loop.
    @inline(never) mutating func runAloneOnSharedServers() {
        var server = PartitionServers(
            xiva: sharesServer ? XivaPartitionServer(parameters: parameters, end: clock.end, segments: [nil], seriesWanted: false) : nil,
            binary: parameters.binary ? BinaryConnectionServer(parameters: parameters) : nil)
        while let now = runUntilItSends() { server.collect(from: &self, device: 0, at: now) }
        finish()
    }

    /// Starts an arm: its state reset, its first letter, flip and app opening on the agenda.
    /// With `settled`, a world of a shared partition settles its letters in flight into it
    /// when its arm allows (WorldSettlement.swift).
    package mutating func begin(_ arm: Arm, settlingInto settled: SettledLetters? = nil) {
        resetArm(arm, settlingInto: settled)
        beginMechanisms()
        if draws.letters.count > 0 { clock.agenda.followInFirstStream(time: draws.letters[0].time, index: 0) }
        if !draws.timeline.flips.isEmpty { clock.agenda.followInSecondStream(time: draws.timeline.flips[0], index: 0) }
    }

    /// Whether this arm sends its re-requests to a server shared with other devices (a finite
    /// XIVA capacity, docs/model.md §6): its answers then wait for the partition's queue.
    var sharesServer: Bool { parameters.sharedServer && armState.checksGaps }

    /// When this arm's next step happens; nil when nothing more happens before the end (the
    /// global event list of the tests steps worlds by it).
    var nextTime: Int64? { clock.agenda.nextTime(before: clock.horizon) }

    /// Takes step after step until the device has sent something to a shared server: then it
    /// stops at the end of that instant (everything else of the instant done, docs/model.md §6)
    /// and returns the instant; nil once nothing more happens before the end. The server's
    /// answer may add steps at the same instant (a deadline): the next call takes them.
    ///
    /// One loop, as `run`'s: once a step has sent, the loop's end narrows to the end of that
    /// instant. The same steps as finding each instant and then taking it, because nothing but
    /// a server's `collect` (or a new arm) empties `joining` or the outbox: once a step has
    /// filled one, it is still full when the instant ends.
    package mutating func runUntilItSends() -> Int64? {
        var end = clock.horizon
        var sentAt: Int64? = nil
        var processed = 0
        while let (now, item) = clock.agenda.next(before: end) {
            handleShared(item, at: now)
            processed += 1
            if sentAt == nil && (mechanisms.isJoining || !mechanisms.binaryLink.outbox.isEmpty) {
                sentAt = now
                end = now + 1
            }
        }
        ledger.events += processed
        return sentAt
    }

    /// One step on the coupled path: as ``handle(_:at:)`` until the device's end; after it
    /// (the binary interface's feedback delay) only XIVA's side goes on.
    @inline(__always) mutating func handleShared(_ item: AgendaItem<ChainEvent>, at now: Int64) {
        if _slowPath(now >= clock.end) { handleAfterUninstall(item, at: now) } else { handle(item, at: now) }
    }

    /// Ends a stepped arm into `account`: the counts it made while running (kept in `ledger`,
    /// which shares the placeholder's buffers, so a world waiting its turn holds no histogram)
    /// and its letters. Leaves the placeholder in `ledger`.
    package mutating func finish(into account: inout Ledger) {
        // Counting into its part's ledger, the world records its letters there too: the run
        // adds that ledger to the part's account once the arm is over.
        if armState.countsIntoPart { finish(); return }
        swap(&ledger, &account)
        ledger.merge(account)
        account = DeviceWorld.placeholderLedger
        finish()
        swap(&ledger, &account)
    }

    /// Ends an arm: whatever is under way is unfinished, every letter is recorded.
    mutating func finish() {
        clock.currentTime = clock.end
        closeAccounts()
    }

    /// Starts an arm afresh: each owner's state is one assignment (the arrays keep their memory).
    mutating func resetArm(_ arm: Arm, settlingInto settled: SettledLetters? = nil) {
        // Only the queue design runs the gap check; the others' chain is the off arm's.
        armState.checksGaps = arm == .on && scenario.recovery == .queue
        resetMechanisms(arm)
        startSettlement(into: settled)
        // The clock starts again (the last arm left it at the end; only traces read it).
        clock.reset()
        copies.removeAll()
        loadLog.removeAll()
        apnsStore = APNsStore()
        // Retries and the token limit need arrivals at APNs in time order, a retried copy can
        // present a letter before the copy it repeats, and a held push waits for its device:
        // every step then runs as an event (docs/model.md §9, §10). Each mechanism states its own
        // permission (ChainMechanism); the gap check, an arm's design, forbids it here.
        clock.settleAtOnce = shortcuts == .taken && !armState.checksGaps && parameters.mechanismsPermitSettlingDueCopies
        if _slowPath(draws.timelineOnDemand) { restartTimeline() }
        let warmup = scenario.warmup.microseconds
        if _slowPath(draws.letters.isDrawing) { drawLetters(until: warmup) }
        armState.firstCounted = warmup <= 0 ? 0 : draws.letters.firstIndex { $0.time >= warmup } ?? draws.letters.count
        letterStates.reset(repeating: LetterState(), count: draws.letters.count)
        xiva.reset()
        ext.reset()
        extensionLog?.startArm()
        armState.streams.seed(scenario.seed, device: armState.device,
                              streams: (armState.checksGaps ? parameters.gapCheckingArmMechanismStreams : parameters.mechanismStreams)
                                .union(mechanisms.catchUp.enabled || (parameters.client == .stateful && mechanisms.client.opensApp) ? [.appOpens] : []))
        scheduleMechanismsFirstEvents()
    }

    /// `now + delay`, saturating (so a draw of `forever` never happens before the end of the
    /// run): every instant the chain computes goes through here.
    @inline(__always) func later(_ now: Int64, _ delay: Int64) -> Int64 {
        SimTime.saturatingSum(now, delay)
    }

    /// When an extension run that started at `arrival` hits its deadline (timing rule 6).
    @inline(__always) func deadline(ofRunStartedAt arrival: Int64) -> Int64 {
        later(arrival, parameters.deadline.microseconds)
    }

    /// Records what became of a copy's letter when the copy itself was lost.
    mutating func copyLost(_ c: CopyIndex, _ cause: LossCause, at time: Int64? = nil) {
        let copy = copies[c]
        consoleStatus(of: c, lostWith: cause)
        if copy.isSecondCopy {
            // A second copy's fate never changes its letter's cause (docs/model.md §5, Second copies).
            note(.apns, copy.letter.offset, .copyLost(.second, cause), at: time)
            return
        }
        if copy.isResend { letterStates[copy.letter].resentCopyFate = cause } else { letterStates[copy.letter].firstCopyFate = cause }
        note(.apns, copy.letter.offset, .copyLost(copy.isResend ? .resend : .first, cause), at: time)
    }

    @inline(__always) func note(_ lane: TraceLane, _ letter: Int?, _ event: @autoclosure () -> TraceEvent,
                                at time: Int64? = nil) {
        guard let tracer else { return }
        tracer(TraceEntry(time: time ?? clock.currentTime, lane: lane, letter: letter, event: event()))
    }

    /// A trace line in words, for a step that has no ``TraceEvent`` case yet.
    @inline(__always) func note(_ lane: TraceLane, _ letter: Int?, _ text: @autoclosure () -> String, at time: Int64? = nil) {
        guard let tracer else { return }
        tracer(TraceEntry(time: time ?? clock.currentTime, lane: lane, letter: letter, event: .unclassified(text())))
    }

    /// A copy still in APNs' offline store at the end of the arm: under way until its expiry,
    /// and on an uninstalled device (end < runEnd) whatever its expiry.
    mutating func closeStoredCopy(_ stored: CopyIndex) {
        let copy = copies[stored]
        if clock.end < copy.expiry || clock.end < parameters.runEnd {
            if !copy.isSecondCopy { letterStates[copy.letter].unfinished = true }
        } else {
            copyLost(stored, .apnsExpired)
        }
    }

    /// The end of the run: whatever is still under way is unfinished; then every letter is
    /// recorded once in the ledger with its fate.
    mutating func closeAccounts() {
        if _slowPath(draws.letters.isDrawing) { drawLetters(until: .max) }
        for event in clock.queue.pending { markUnderWay(event.payload) }
        closeMechanismsHolding()
        if let stored = apnsStore.copy { closeStoredCopy(stored) }
        closeMechanismsAfterPresentation()
        if armState.checksGaps && !noHandlerRuns && ext.highestPositionSeen > 0 {
            // Telemetry counts only counted letters (docs/model.md §5, Warm-up): the warm-up's positions come first,
            // so they are taken off the highest position seen.
            // Letters settled in flight (WorldSettlement.swift) are no longer held: they were counted then.
            let warmupPositions = (0..<armState.firstCounted).reduce(Int(armState.settledWarmupPositions)) {
                $0 + (letterStates[$1].position > 0 ? 1 : 0)
            }
            ledger.lettersOnVisibleDevices += draws.letters.count - armState.firstCounted
            ledger.positionsKnownToTelemetry += max(0, Int(ext.highestPositionSeen) - warmupPositions)
        }
        if tracer != nil { for i in 0..<draws.letters.count { note(.user, i, .endOfRun(fate(of: i))) } }
        // Recording into a local ledger, never through the stored property (through it, the
        // compiler copies the whole Ledger in and out for every letter).
        // The placeholder shares its buffers, so `account` stays their only owner and no
        // histogram is allocated or copied.
        countToldTwice(armState.firstCounted..<draws.letters.count)
        var account = ledger
        ledger = DeviceWorld.placeholderLedger
        if _slowPath(clock.end < parameters.runEnd) {
            account.record(letters: armState.firstCounted..<draws.letters.count) { fateAfterUninstall(of: $0) }
        } else {
            account.record(letters: armState.firstCounted..<draws.letters.count) { chainFate(of: $0) }
        }
        foldLoad(into: &account.load)
        recordMechanisms(into: &account)
        ledger = account
        if InternalChecks.enabled { checkLetterStates() }
    }

    /// The end-of-arm invariants (checking builds only): every letter in one state, causes
    /// adding up, and no letter delivered before it was written or after XIVA dropped it.
    func checkLetterStates() {
        InternalChecks.require(ledger.identitiesHold, "the ledger's identities fail: \(ledger.letters) letters, "
            + "\(ledger.delivered) + \(ledger.summarized) + \(ledger.lost) accounted, causes \(ledger.causes.reduce(0, +))")
        for i in 0..<draws.letters.count where letterStates[i].delivered {
            InternalChecks.require(letterStates[i].firstDelivery >= draws.letters[i].time, "letter \(i) delivered before it was written")
            InternalChecks.require(!draws.letters[i].dropped, "letter \(i) delivered although XIVA dropped it")
        }
    }

    package static let placeholderLedger = Ledger()

    mutating func markUnfinished(run r: RunIndex, includingGap: Bool, includingCurrent: Bool = true) {
        let run = ext.runs[r]
        if includingCurrent && !copies[run.copy].isSecondCopy { letterStates[copies[run.copy].letter].unfinished = true }
        guard includingGap else { return }
        for slot in gapSlots(of: run) { letterStates[xiva.letterAtPosition[slot]].unfinished = true }
        if _slowPath(parameters.client == .stateful) {
            for slots in moreGapSlots(ofRun: r) { for slot in slots { letterStates[xiva.letterAtPosition[slot]].unfinished = true } }
        }
    }

    /// The letters the ledger records (docs/model.md §5, Warm-up): the warm-up's are simulated, not counted.
    package var countedLetters: Range<Int> { armState.firstCounted..<draws.letters.count }

    /// The fate of letter i: its chain's, unless the app was uninstalled (docs/model.md §9).
    package func fate(of i: Int) -> LetterFate {
        _slowPath(clock.end < parameters.runEnd) ? fateAfterUninstall(of: i) : chainFate(of: i)
    }

    /// The fate of letter i on a device whose app was uninstalled at `end` (docs/model.md §9,
    /// Unregistered): written after it, or still under way then, it was never deliverable.
    func fateAfterUninstall(of i: Int) -> LetterFate {
        let fate = chainFate(of: i)
        switch fate {
        case .delivered, .summarized: return fate
        default: return draws.letters[i].time >= clock.end || letterStates[i].unfinished ? .undeliverable : fate
        }
    }

    /// The fate of letter i through the chain, by the contract's order of causes for this arm.
    /// Always inlined: a settlement calls it from a closure of a `mutating` method, and called
    /// there out of line the compiler copies the whole world to the stack for each settlement.
    @inline(__always) func chainFate(of i: Int) -> LetterFate {
        if letterStates[i].delivered { return .delivered(latency: letterStates[i].firstDelivery - draws.letters[i].time) }
        if letterStates[i].summarized { return .summarized }
        if draws.letters[i].dropped || letterStates[i].droppedForOldToken { return .lost(.xivaDrop) }
        if letterStates[i].droppedInOutage { return .lost(.xivaOutage) }
        if armState.checksGaps && noHandlerRuns { return .lost(.alertsOff) }
        if letterStates[i].unfinished { return .lost(.unfinished) }
        if armState.checksGaps {
            if let cause = letterStates[i].resentCopyFate { return .lost(cause) }
            if let cause = letterStates[i].gapFate { return .lost(cause) }
            return .lost(.undetectedGap)
        }
        // Off arm: the push's own fate. Nothing else can lose a letter there.
        return .lost(letterStates[i].firstCopyFate ?? .unfinished)
    }
}
