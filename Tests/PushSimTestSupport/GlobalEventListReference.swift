// A reference for coupled runs (finite XIVA capacity, the binary interface): every device of a small scenario on one plain global event list.
@testable import PushSimCore
@testable import PushSimScenarioFile
@testable import PushSimExperiment
@testable import PushSimReport

/// Runs `scenario` the slow, obvious way, to check the product's coupled path against: one
/// global list of steps over all devices, ordered by (time, the order steps were put on the
/// list), so devices interleave in the order their steps came up rather than by device; each
/// pop takes a single step of one device. Re-requests sent at an instant are gathered from
/// every device and, once the list moves past that instant, join their partition's server
/// sorted by device, then sending order (docs/model.md §6); then the instant's writes and
/// buffer checks go to their partition's binary connection by device (§11). Not a product path: it keeps every
/// device's world alive and re-sorts each instant's re-requests.
package enum GlobalEventListReference {
    package static func run(_ scenario: Scenario) -> RunResult {
        let arms = scenario.arms
        let count = scenario.devices
        let unit = CouplingUnit.of(scenario)
        let partitions = unit.partitions?.count ?? 1
        func partition(of device: Int) -> Int {
            (0..<partitions).first { xivaPartitionDevices($0, of: partitions, devices: count).contains(device) } ?? 0
        }
        let segmentOf: [Int?] = (0..<count).map { scenario.segmentIndex(ofDevice: $0) }
        let worlds = CoupledWorlds(count: count) { d in
            var world = DeviceWorld(scenario: segmentOf[d].map(scenario.scenario(forSegment:)) ?? scenario)
            world.prepare(device: d)
            return world
        }
        var ledgers = SegmentedLedgers(arms: arms.count, segments: scenario.segments.count)
        func add(_ ledger: Ledger, device d: Int, arm a: Int) {
            if let s = segmentOf[d] { ledgers.segments[s][a].merge(ledger) }
            ledgers.totals[a].merge(ledger)
        }
        let parameters = ChainParameters(scenario)
        let end = scenario.end.microseconds
        for (a, arm) in arms.enumerated() {
            for d in 0..<count { worlds.with(d) { $0.ledger = Ledger(); $0.begin(arm) } }
            var servers = (0..<partitions).map { _ in
                XivaServer(service: parameters.xivaService, timeout: parameters.queueTimeout, end: end)
            }
            var watches = (0..<partitions).map { _ in XivaQueueWatch(segments: max(1, scenario.segments.count), series: true) }
            var connections = (0..<partitions).map { _ in BinaryConnectionServer(scenario: scenario) }
            var writersThisInstant = Set<Int>()
            // The list: (time, order, device, version); a device's entry is stale once it has a newer one.
            var list: [(time: Int64, order: Int, device: Int, version: Int)] = []
            var versions = Array(repeating: 0, count: count)
            var order = 0
            func put(_ d: Int) {
                guard let t = worlds.with(d, { $0.nextTime }) else { return }
                versions[d] += 1
                list.append((t, order, d, versions[d]))
                order += 1
            }
            for d in 0..<count { put(d) }
            var sentThisInstant: [(device: Int, order: Int, join: XivaJoin)] = []
            var instant = Int64.min
            func joinInstant() {
                let sorted = sentThisInstant.sorted { ($0.device, $0.order) < ($1.device, $1.order) }
                sentThisInstant.removeAll()
                for (d, _, join) in sorted {
                    let p = partition(of: d)
                    let outcome = servers[p].join(sentAt: join.sentAt)
                    let counts = worlds.with(d) { $0.xivaQueueAnswers(join, outcome) }
                    let tag: Int? = counts ? segmentOf[d] ?? 0 : nil
                    switch outcome {
                    case .served(let start, _): watches[p].joined(sentAt: join.sentAt, leavesAt: start, tag: tag, timedOut: false)
                    case .timedOut(let givenUp): watches[p].joined(sentAt: join.sentAt, leavesAt: givenUp, tag: tag, timedOut: true)
                    }
                    put(d)
                }
                // Every device's writes of the instant, by device (a Set only says who wrote).
                for d in writersThisInstant.sorted() {
                    worlds.with(d) { connections[partition(of: d)].collect(from: &$0, device: d, at: instant) }
                    put(d)
                }
                writersThisInstant.removeAll()
            }
            while true {
                // The earliest entry, by (time, order): a plain scan keeps the reference obvious.
                // (Field by field: this module is compiled unoptimised, where comparing tuples
                // looks up their type at every comparison.)
                var earliest: Int? = nil
                for i in list.indices {
                    guard let e = earliest else { earliest = i; continue }
                    if list[i].time < list[e].time || (list[i].time == list[e].time && list[i].order < list[e].order) { earliest = i }
                }
                guard let k = earliest else {
                    if !sentThisInstant.isEmpty || !writersThisInstant.isEmpty { joinInstant(); continue }
                    break
                }
                let entry = list[k]
                if entry.time > instant && (!sentThisInstant.isEmpty || !writersThisInstant.isEmpty) { joinInstant(); continue }
                list.remove(at: k)
                guard entry.version == versions[entry.device] else { continue }
                instant = entry.time
                worlds.with(entry.device) { world in
                    if let (now, item) = world.clock.agenda.next(before: world.clock.horizon) {
                        world.handleShared(item, at: now)
                        world.ledger.events += 1
                    }
                }
                let sent = worlds.with(entry.device) { world -> [XivaJoin] in
                    defer { world.mechanisms.removeJoining() }
                    return world.mechanisms.joining
                }
                for join in sent { sentThisInstant.append((entry.device, order, join)); order += 1 }
                if worlds.with(entry.device, { !$0.mechanisms.binaryLink.outbox.isEmpty }) { writersThisInstant.insert(entry.device) }
                put(entry.device)
            }
            for d in 0..<count {
                var ledger = Ledger()
                worlds.with(d) { $0.finish(into: &ledger) }
                add(ledger, device: d, arm: a)
            }
            for p in 0..<partitions where arm == .on && scenario.xiva.capacityPerMicrosecond != nil {
                watches[p].finish(end: end)
                ledgers.totals[a].xivaMaxQueue = max(ledgers.totals[a].xivaMaxQueue, watches[p].maxQueue)
                for s in scenario.segments.indices {
                    ledgers.segments[s][a].xivaMaxQueue = max(ledgers.segments[s][a].xivaMaxQueue, watches[p].maxQueueBySegment[s])
                }
                ledgers.totals[a].xivaQueue.merge(watches[p].series)
            }
        }
        return ledgers.result(scenario, arms: arms, devices: 0..<count)
    }
}
