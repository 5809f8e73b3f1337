// Runs the devices of whole XIVA partitions when capacity is finite: each partition's worlds stepped together around its server.
import PushSimCore

/// Where a coupled run puts each device's counts: a run adds them up, a check also keeps
/// each device's spread.
protocol DeviceLedgerSink {
    /// Calls `body` with the ledger that device `device` (of segment `segment`) adds to in arm `arm`.
    mutating func account(device: Int, segment: Int?, arm: Int, _ body: (inout Ledger) -> Void)
    /// One partition's queue figures for arm `arm`: the most of its counted re-requests waiting
    /// at once, in total and per segment, and minute by minute.
    mutating func partitionQueue(arm: Int, maxQueue: Int, maxQueueBySegment: [Int], series: XivaQueueSeries)
    /// World `device` has finished arm `arm` and its counts are in: its letters' fates can be read.
    mutating func finished(device: Int, arm: Int, world: borrowing DeviceWorld)
    /// Whether the sink takes letters settled in flight (WorldSettlement.swift) as one more
    /// ledger per part and arm, given to `account` under the part's first device: a sink that
    /// adds counts up does; one that keeps each device's own counts, or reads a finished
    /// world's letters, does not.
    var takesSettledLetters: Bool { get }
}

extension DeviceLedgerSink {
    /// Runs and checks read only the counts.
    mutating func finished(device: Int, arm: Int, world: borrowing DeviceWorld) {}
    var takesSettledLetters: Bool { false }
}

enum CoupledRun {
    /// How much of a partition's letter scripts, drawn whole by an arm, stays for a next arm
    /// that settles its letters in flight (WorldSettlement.swift). Below it, drawing them again
    /// would cost time for no memory that matters (the bench's `100k-xiva` partitions of 10 000
    /// phones hold 112 MB); above it, every world draws its letters again as it reaches them,
    /// so that a partition of a million phones does not hold a week of letters each.
    static let keptScriptBytes = 256 << 20

    /// Simulates `devices` (whole partitions: chunks and shards cut between them) through the
    /// arms. The queue arm steps each partition's worlds together around one ``XivaPartitionServer``
    /// (docs/model.md §6); the other arm sends no re-request, so it runs device by device
    /// exactly as the uncoupled path does — unless XIVA writes over the binary interface, whose
    /// connection every arm shares (§11): both arms are then stepped around ``PartitionServers``. Draws stay per device, so every world sees the
    /// streams it would see alone.
    /// With `tracing`, that device's world reports every step to its tracer (`pushsim trace`
    /// inside the device's partition). `binarySpeculation: false` stops every world at every
    /// push over the binary interface, as before worlds ran ahead of the connection: the same
    /// counts, which a test compares.
    static func simulate<Sink: DeviceLedgerSink>(_ scenario: Scenario, devices: Range<Int>, arms: [Arm],
                                                 shortcuts: ShortcutPolicy = .taken,
                                                 tracing: (device: Int, tracer: (TraceEntry) -> Void)? = nil,
                                                 logging: Bool = false, keptScriptBytes: Int = CoupledRun.keptScriptBytes,
                                                 binarySpeculation: Bool = true,
                                                 into sink: inout Sink) {
        let unit = CouplingUnit.of(scenario)
        let end = scenario.end.microseconds
        let segmentCount = scenario.segments.count
        let binary = scenario.apns.interface == .binary
        for u in unit.units(in: devices) {
            let range = unit.firstDevice(ofUnit: u, in: devices)..<unit.firstDevice(ofUnit: u + 1, in: devices)
            // Each device's segment and its part's chain parameters with its scenario (a part's
            // worlds share one object: no copy of the scenario or the parameters per world).
            // Without segments, no segment per device: no array of nils beside every phone of a
            // partition. Both arrays are made at their size.
            var segmentOf: [Int?] = []
            var partOf: [Int32] = []
            partOf.reserveCapacity(range.count)
            if segmentCount > 0 { segmentOf.reserveCapacity(range.count) }
            var parameters: [ChainParameters] = []
            for part in Simulator.parts(of: scenario, devices: range) {
                for _ in part.devices {
                    if segmentCount > 0 { segmentOf.append(part.segment) }
                    partOf.append(Int32(parameters.count))
                }
                parameters.append(ChainParameters(part.scenario))
            }
            /// The segment of the unit's device i (nil without segments).
            func segment(ofDevice i: Int) -> Int? { segmentOf.isEmpty ? nil : segmentOf[i] }
            // Between arms, the worlds of a run that adds counts up share one cell: an arm run
            // world by world swaps each device's account in and out of it, and an arm that settles
            // counts into its part's ledger (WorldLedgerCell.swift).
            let restingCell = sink.takesSettledLetters ? LedgerCell() : nil
            let scratch = DrawScratch()
            let worlds = CoupledWorlds(count: range.count) { i in
                for _ in arms { SpeedGateSpin.spin(device: range.lowerBound + i) }
                var world = DeviceWorld(parameters: parameters[Int(partOf[i])], shortcuts: shortcuts,
                                        ledgerCell: restingCell ?? LedgerCell())
                world.prepareBesidePartition(device: range.lowerBound + i, scratch: scratch, keepingEveryLetter: binary)
                if let tracing, tracing.device == range.lowerBound + i { world.tracer = tracing.tracer }
                if logging { world.extensionLog = ExtensionLogRecorder() }
                return world
            }
            // The queue arm shares XIVA's re-request server (finite capacity); every arm shares
            // the binary connection (docs/model.md §11).
            func sharesQueue(_ arm: Arm) -> Bool {
                arm == .on && scenario.recovery == .queue && scenario.xiva.capacityPerMicrosecond != nil
            }
            for (a, arm) in arms.enumerated() {
                // Once a world's accounts of this arm are closed and read, what it grew is given
                // back: the arm's arrays, and after the last arm everything (WorldMemory.swift).
                let lastArm = a == arms.count - 1
                // When the next arm settles its letters in flight (WorldSettlement.swift), up to
                // `keptScriptBytes` of the partition's scripts (and timelines drawn whole for this
                // arm, ConnectivityOnDemand.swift) stay for it; past that, every world's script
                // and timeline is given back and drawn again.
                let nextSettles = !lastArm && sink.takesSettledLetters && sharesQueue(arms[a + 1])
                // Over the binary interface, a next arm that keeps every letter too holds the same
                // letters: each world keeps its arm's room for it rather than give it back and make
                // it again (WorldMemory.swift, makeRoomForTheWholeArm).
                let nextKeepsTheRoom = binary && !nextSettles
                var scriptBytes = 0
                var scriptsGivenBack = false
                func release(_ i: Int) {
                    worlds.with(i) {
                        if lastArm { $0.releaseMemory(); return }
                        if nextKeepsTheRoom { return }
                        $0.releaseArmMemory()
                        scriptBytes += $0.draws.letters.count * MemoryLayout<LetterDraws>.stride + $0.timelineBytes
                    }
                    guard nextSettles && (scriptsGivenBack || scriptBytes > keptScriptBytes) else { return }
                    for earlier in (scriptsGivenBack ? i : 0)...i { worlds.with(earlier) { $0.releaseScriptBeforeSettling() } }
                    scriptsGivenBack = true
                }
                let queueShared = sharesQueue(arm)
                guard queueShared || binary else {
                    // World after world, each to its end, in one room they borrow in turn (WorldRoom.swift).
                    let room = ArmRoom()
                    for i in 0..<worlds.count {
                        worlds.with(i) { $0.borrowRoom(room) }
                        sink.account(device: range.lowerBound + i, segment: segment(ofDevice: i), arm: a) { ledger in
                            worlds.with(i) { $0.run(arm, into: &ledger) }
                        }
                        worlds.with(i) { sink.finished(device: range.lowerBound + i, arm: a, world: $0) }
                        worlds.with(i) { $0.giveRoomBack(room, keepingScript: !lastArm) }
                        release(i)
                    }
                    continue
                }
                var server = PartitionServers(
                    xiva: queueShared ? XivaPartitionServer(scenario: scenario, segments: segmentOf, seriesWanted: true) : nil,
                    binary: binary ? BinaryConnectionServer(scenario: scenario) : nil)
                // A part's worlds settle their letters in flight into one ledger (WorldSettlement.swift),
                // when the sink adds counts up and the world's arm allows it.
                let settled = sink.takesSettledLetters && queueShared ? parameters.map { _ in SettledLetters() } : []
                for i in 0..<worlds.count {
                    let part = settled.isEmpty ? nil : settled[Int(partOf[i])]
                    worlds.with(i) {
                        if part == nil { $0.countOnItsOwn() }
                        $0.begin(arm, settlingInto: part)
                        $0.makeRoomForTheWholeArm()
                    }
                }
                func finishWorld(_ i: Int) {
                    sink.account(device: range.lowerBound + i, segment: segment(ofDevice: i), arm: a) { ledger in
                        worlds.with(i) { $0.finish(into: &ledger) }
                    }
                    worlds.with(i) { sink.finished(device: range.lowerBound + i, arm: a, world: $0) }
                    release(i)
                }
                // Sharing only the connection, worlds write first sends on a forecast and run on
                // (BinarySpeculation.swift), unless a replay would repeat what someone watches or
                // run the user's client again; in an arm whose writes the scripts fix, the
                // connection is decided first and each world runs whole (ConnectionDecidedAhead.swift).
                if server.xiva == nil, var connection = server.binary, binarySpeculation,
                   tracing == nil, !logging, scenario.queue.userClient == nil {
                    if worlds.armWritesFollowTheScripts() {
                        worlds.stepDecidedAhead(connection: &connection, finished: finishWorld)
                    } else {
                        worlds.stepAhead(arm: arm, connection: &connection, finished: finishWorld)
                    }
                } else {
                    worlds.step(servers: &server, finished: finishWorld)
                }
                for (part, ledger) in settled.enumerated() {
                    guard let i = partOf.firstIndex(of: Int32(part)) else { continue }
                    sink.account(device: range.lowerBound + i, segment: segment(ofDevice: i), arm: a) { $0.merge(ledger.ledger) }
                }
                guard var watch = server.xiva?.watch else { continue }
                watch.finish(end: end)
                sink.partitionQueue(arm: a, maxQueue: watch.maxQueue,
                                    maxQueueBySegment: segmentCount == 0 ? [] : Array(watch.maxQueueBySegment.prefix(segmentCount)),
                                    series: watch.series)
            }
        }
    }
}

/// A run's sink: every device's counts into its segment's ledgers and the totals.
struct SegmentedLedgerSink: DeviceLedgerSink {
    var ledgers: SegmentedLedgers
    /// Counts add up, whichever ledger brings them.
    var takesSettledLetters: Bool { true }

    mutating func account(device: Int, segment: Int?, arm: Int, _ body: (inout Ledger) -> Void) {
        guard let segment else { body(&ledgers.totals[arm]); return }
        // A segment's devices count into the segment; the totals gain them at the end.
        body(&ledgers.segments[segment][arm])
    }

    mutating func partitionQueue(arm: Int, maxQueue: Int, maxQueueBySegment: [Int], series: XivaQueueSeries) {
        for (s, most) in maxQueueBySegment.enumerated() where s < ledgers.segments.count {
            ledgers.segments[s][arm].xivaMaxQueue = max(ledgers.segments[s][arm].xivaMaxQueue, most)
        }
        ledgers.totals[arm].xivaMaxQueue = max(ledgers.totals[arm].xivaMaxQueue, maxQueue)
        ledgers.totals[arm].xivaQueue.merge(series)
    }

    /// The ledgers, with the segments' counts added to the totals.
    func finished() -> SegmentedLedgers {
        var result = ledgers
        for s in result.segments.indices {
            for a in result.totals.indices {
                // Maxima of one partition at one instant: the partition's own (already in the
                // totals) is at least any segment's, so merging keeps it.
                result.totals[a].merge(result.segments[s][a])
            }
        }
        return result
    }
}
