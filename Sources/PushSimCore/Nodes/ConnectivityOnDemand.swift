// A device's connectivity timeline drawn a few flips at a time, for a world that settles its letters in flight.

/// Where the drawing of one device's timeline stands: the alternating process (its stream and
/// the period under way) and the merge with the windows every device shares, exactly as
/// ``ConnectivityTimeline/generate(_:device:windows:scratch:deviceScratch:)`` leaves them after
/// the intervals drawn so far. Drawn on demand, the flips come out the same, from the same draws
/// in the same order: the process is drawn period after period from its own stream, and an
/// interval of the union is handed out once the next one starts after it ends.
///
/// A world of a shared partition draws its timeline this way rather than keeping it whole from
/// `prepare` to its last arm, which would grow with the simulated days. An object, made only
/// for such a world: inline, every world would carry it, the herd's too.
/// The laws of a phone's own connectivity process (`connectivity.online`, `offline`): the one
/// test of whether a scenario draws one (`generate`, `isSameForEveryDevice`, the drawing on demand).
struct ConnectivityProcess {
    let online: Distribution
    let offline: Distribution

    /// nil when the scenario draws no process.
    init?(_ scenario: Scenario) {
        guard let online = scenario.connectivity.online, let offline = scenario.connectivity.offline, offline.mean > 0 else {
            return nil
        }
        self.online = online
        self.offline = offline
    }
}

final class TimelineDrawing {
    private var rng: RandomStream
    /// The process: where the period under way starts and ends, and whether it is online.
    private var periodStart: Int64 = 0
    private var periodEnd: Int64
    /// The process's next offline interval, drawn but not merged yet, and the union's interval
    /// being extended, not handed out yet; ``none`` for neither. Stored without an optional's
    /// tag byte, which would pad each range: every world of a shared partition holds one.
    private var storedPendingOffline = TimelineDrawing.none
    private var storedCurrent = TimelineDrawing.none
    /// No interval: every real one starts at or after time 0.
    private static let none = Int64.min..<Int64.min

    private var pendingOffline: Range<Int64>? {
        get { storedPendingOffline.lowerBound == Int64.min ? nil : storedPendingOffline }
        set { storedPendingOffline = newValue ?? Self.none }
    }
    private var current: Range<Int64>? {
        get { storedCurrent.lowerBound == Int64.min ? nil : storedCurrent }
        set { storedCurrent = newValue ?? Self.none }
    }
    /// The next of the windows every device shares (``ChainParameters/sharedWindows``).
    private var nextWindow: Int32 = 0
    private var inOnline: Bool
    private var processDone = false
    // The laws, the windows and the run's end are the parameters', passed in at each draw: no
    // copy of them here.

    /// The drawing of `device`'s timeline from time 0; nil when the device draws no process
    /// (its timeline is then the windows', which ``ChainParameters/sharedTimeline`` lays out).
    init(_ process: ConnectivityProcess, seed: UInt64, device: Int) {
        // AlternatingProcess.intervalsOfSecondState's start: in equilibrium at time 0.
        let (online, offline) = (process.online, process.offline)
        rng = RandomStream(seed: seed, device: device, purpose: .connectivity)
        inOnline = rng.nextUnit() < online.mean / (online.mean + offline.mean)
        periodEnd = (inOnline ? online : offline).sampleResidual(&rng).microseconds
    }

    /// The process's next offline interval within [0, end), as the loop of
    /// ``AlternatingProcess/intervalsOfSecondState(first:second:rng:end:into:)`` appends them.
    private func nextOffline(_ online: Distribution, _ offline: Distribution, end: Int64) -> Range<Int64>? {
        while !processDone {
            var found: Range<Int64>? = nil
            if !inOnline && periodEnd > periodStart { found = periodStart..<min(periodEnd, end) }
            if periodEnd >= end {
                processDone = true
            } else {
                inOnline.toggle()
                periodStart = periodEnd
                let length = (inOnline ? online : offline).sample(&rng).microseconds
                let (next, overflow) = periodStart.addingReportingOverflow(length)
                periodEnd = overflow ? Int64.max : next
            }
            if let found { return found }
        }
        return nil
    }

    /// The union's next interval, in order; nil when there are no more. Of two intervals that
    /// start together, the process's comes first, as in `generate`'s merge.
    func nextInterval(_ process: ConnectivityProcess, end: Int64, windows: [Range<Int64>]) -> Range<Int64>? {
        while true {
            if pendingOffline == nil { pendingOffline = nextOffline(process.online, process.offline, end: end) }
            let window = Int(nextWindow)
            let next: Range<Int64>
            if let interval = pendingOffline, window >= windows.count || interval.lowerBound <= windows[window].lowerBound {
                next = interval
                pendingOffline = nil
            } else if window < windows.count {
                next = windows[window]
                nextWindow += 1
            } else {
                defer { current = nil }
                return current
            }
            guard let last = current else { current = next; continue }
            if next.lowerBound <= last.upperBound {
                if next.upperBound > last.upperBound { current = last.lowerBound..<next.upperBound }
            } else {
                current = next
                return last
            }
        }
    }
}

extension ConnectivityTimeline {
    /// Starts the timeline of `device` drawn on demand: the first interval's flips, and whether
    /// the device is online at time 0; false (nothing changed) when the device draws no process.
    mutating func drawOnDemand(_ scenario: Scenario, device: Int, windows: [Range<Int64>]) -> Bool {
        guard let process = ConnectivityProcess(scenario) else { return false }
        return drawOnDemand(process, seed: scenario.seed, device: device, end: scenario.end.microseconds, windows: windows)
    }

    /// ``drawOnDemand(_:device:windows:)`` with the process's laws and the run's end at hand.
    mutating func drawOnDemand(_ process: ConnectivityProcess, seed: UInt64, device: Int, end: Int64, windows: [Range<Int64>]) -> Bool {
        let drawing = TimelineDrawing(process, seed: seed, device: device)
        // A timeline drawn whole for an arm is given back, not kept as room.
        if flips.capacity > 16 { flips = [] } else { flips.removeAll(keepingCapacity: true) }
        onDemand = drawing
        let first = drawing.nextInterval(process, end: end, windows: windows)
        onlineAtStart = !(first.map { $0.lowerBound <= 0 } ?? false)
        if let first { appendFlips(of: first, end: end) }
        if flips.isEmpty { drawMore(process, end: end, windows: windows) }
        return true
    }

    /// Draws the union's next intervals until a flip is added or none remain.
    mutating func drawMore(_ process: ConnectivityProcess, end: Int64, windows: [Range<Int64>]) {
        guard let drawing = onDemand else { return }
        let before = flips.count
        while flips.count == before {
            guard let interval = drawing.nextInterval(process, end: end, windows: windows) else { onDemand = nil; return }
            appendFlips(of: interval, end: end)
        }
    }

    /// Draws every flip left: for an arm that looks ahead of its clock.
    mutating func drawRest(_ process: ConnectivityProcess, end: Int64, windows: [Range<Int64>]) {
        while onDemand != nil { drawMore(process, end: end, windows: windows) }
    }

    private mutating func appendFlips(of interval: Range<Int64>, end: Int64) {
        if interval.lowerBound > 0 { flips.append(interval.lowerBound) }
        if interval.upperBound < end { flips.append(interval.upperBound) }
    }
}

extension DeviceWorld {
    /// Whether a world prepared with its letters on demand draws its timeline on demand too: it
    /// may settle in flight (so no mechanism reads its timeline whole or behind its clock), and
    /// its windows are the ones every device shares (a window drawn per device would be kept
    /// per world anyway).
    var mayDrawTimelineOnDemand: Bool {
        parameters.settlesInFlight && allowsLettersOnDemand && scenario.connectivity.windows.allSatisfy(\.isSameForEveryDevice)
    }

    /// At an arm's start: the timeline from its first flip, drawn whole for an arm that looks
    /// ahead of its clock (its shortcuts: `clock.settleAtOnce`, APNs.swift). A timeline an
    /// earlier arm left from its start is read again as it is (an off arm's, drawn whole, is not
    /// drawn a second time: CoupledRun keeps it within the kept scripts' budget).
    mutating func restartTimeline() {
        guard let process = parameters.connectivityProcess else { return }
        let windows = parameters.sharedWindows
        if !draws.timelineFromStart {
            _ = draws.timeline.drawOnDemand(process, seed: parameters.scenario.seed, device: armState.device,
                                            end: parameters.runEnd, windows: windows)
            draws.timelineFromStart = true
        }
        if clock.settleAtOnce { draws.timeline.drawRest(process, end: parameters.runEnd, windows: windows) }
    }

    /// The bytes of a timeline drawn on demand that the world holds (for the kept scripts'
    /// budget, CoupledRun); 0 for one drawn at `prepare`.
    package var timelineBytes: Int { draws.timelineOnDemand ? draws.timeline.flips.count * MemoryLayout<Int64>.stride : 0 }

    /// The timeline's next flips, when the world has handed out every flip drawn so far.
    @inline(never) mutating func drawMoreFlips() {
        guard let process = parameters.connectivityProcess else { return }
        draws.timeline.drawMore(process, end: parameters.runEnd, windows: parameters.sharedWindows)
    }

    /// Between arms, when the partition's kept scripts are over their budget: a timeline drawn
    /// whole for an arm given back, its first flips drawn again (every world of the partition
    /// waits with its timeline until the next arm begins).
    package mutating func releaseTimeline() {
        guard draws.timelineOnDemand, draws.timeline.onDemand == nil, let process = parameters.connectivityProcess else { return }
        _ = draws.timeline.drawOnDemand(process, seed: parameters.scenario.seed, device: armState.device, end: parameters.runEnd,
                                        windows: parameters.sharedWindows)
        draws.timelineFromStart = true
    }

    /// At a settlement (WorldSettlement.swift): the flips the world has passed, taken off the
    /// front in pairs, so the count of flips passed keeps its parity (which says whether the
    /// device is online); none that the agenda's second stream still has to hand out.
    mutating func dropPassedFlips() {
        let pending = clock.agenda.secondStreamIndex ?? clock.flipsPassed
        let passed = min(clock.flipsPassed, pending) & ~1
        guard passed > 0 else { return }
        draws.timeline.flips.removeFirst(passed)
        draws.timelineFromStart = false
        clock.flipsPassed -= passed
        clock.lookaheadFlipCursor = max(0, clock.lookaheadFlipCursor - passed)
        clock.agenda.renumberSecondStream(down: passed)
    }
}
