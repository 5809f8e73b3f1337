// The partial result of one device shard: everything needed to merge shards into one run's document.
import PushSimCore
import PushSimExperiment

/// What `pushsim run --shard K/N --json` prints and `pushsim merge` reads: the shard's ledgers
/// in full (counts, and the latency histogram as sparse buckets with its maximum), the devices
/// it covers, the run's size, and the scenario's name, seed and fingerprint, so that shards of
/// different scenarios, seeds or settings refuse to merge.
///
/// Parts travel between machines and are untrusted on reading: every number is range-checked,
/// the accounting identities are checked without overflow, the part must come from this
/// version of PushSim, and a checksum over its canonical content (FNV-1a, see
/// ``PartialResult/checksum(of:)``) refuses a part edited or damaged after it was written.
/// The checksum guards against accidents; it is not a signature.
///
/// To extend the format, add keys to ``content``: the checksum covers every key but its own.
package struct PartialResult: Equatable, Sendable {
    /// The format's name and version, first thing checked on reading.
    package static let format = "pushsim-partial/2"
    /// The most bytes read from one source (a file, or standard input with many parts): a
    /// part is a few kilobytes (at most ~200 KB per arm with every histogram bucket filled).
    package static let maxSourceBytes = 64 << 20
    /// The most minutes a part's XIVA queue series may list: a run of about 19 years, minute by minute.
    static let maxQueueMinutes = 10_000_000

    package var result: RunResult
    package var fingerprint: String
    package var shard: ShardSpec
    package var size: RunSize
    /// The PushSim version that wrote the part.
    package var version: String
    /// How the run was made (the resolved scenario), so `merge --out` records what `run --out` does.
    package var provenance: Provenance
    /// The coupling unit the shards were cut by (one device, or the XIVA partitions when
    /// capacity is finite): a part's share of the devices is computed with it.
    package var coupling: CouplingUnit

    package init(result: RunResult, fingerprint: String, shard: ShardSpec, size: RunSize,
                version: String = PushSimVersion.current, provenance: Provenance, coupling: CouplingUnit = .oneDevice) {
        self.coupling = coupling
        self.result = result
        self.fingerprint = fingerprint
        self.shard = shard
        self.size = size
        self.version = version
        self.provenance = provenance
    }

    /// Simulates shard `shard` of `scenario` into a partial result.
    package static func run(_ scenario: Scenario, shard: ShardSpec, jobs: Int = 1,
                           progress: (@Sendable (_ devices: Int, _ events: Int) -> Void)? = nil) -> PartialResult {
        PartialResult(result: Simulator.run(scenario, devices: shard.devices(of: scenario.devices, unit: .of(scenario)), jobs: jobs, progress: progress),
                      fingerprint: scenario.fingerprint, shard: shard, size: RunSize(scenario),
                      provenance: Provenance(scenario), coupling: .of(scenario))
    }

    // MARK: Writing

    /// The document: ``content`` plus its checksum.
    package var json: JSONValue {
        var top = content
        top["checksum"] = .string(PartialResult.checksum(of: top))
        return .object(top)
    }

    /// Every key of the document but `checksum`.
    package var content: [String: JSONValue] {
        var content: [String: JSONValue] = [
            "format": .string(PartialResult.format),
            "version": .string(version),
            "commit": .string(provenance.commit),
            "client": provenance.client,
            "scenario": .string(result.scenario),
            "seed": .uint(result.seed),
            "fingerprint": .string(fingerprint),
            "shard": .object(["index": .int(shard.index), "count": .int(shard.count)]),
            "devices": .object(["lower": .int(result.devices.lowerBound), "upper": .int(result.devices.upperBound),
                                "total": .int(result.totalDevices)]),
            "size": .object(["duration_us": .int(Int(size.duration.microseconds)),
                             "drain_us": .int(Int(size.drain.microseconds))]),
            "arms": .array(result.arms.map(PartialResult.armJSON)),
            "load_frame": .object(["bin_us": .int(Int(result.loadFrame.bin)), "warmup_us": .int(Int(result.loadFrame.warmup))]),
            "resolved_scenario": provenance.scenario,
            "resolved_scenario_text": .string(provenance.yaml),
        ]
        // Only a partitioned run says so: parts of runs without a shared server stay as they were.
        if let (partitions, _) = coupling.partitions {
            content["coupling"] = .object(["xiva_partitions": .int(partitions)])
        }
        // Per-segment ledgers (docs/model.md §5, Segments), only when the scenario has segments: merge adds them up.
        if !result.segments.isEmpty {
            content["segments"] = .array(result.segments.map { segment in
                .object(["name": .string(segment.name), "devices": .int(segment.devices),
                         "arms": .array(segment.arms.map(PartialResult.armJSON))])
            })
        }
        return content
    }

    /// `fnv1a64:` and 16 hex digits of FNV-1a over the compact JSON text of `content` (sorted
    /// keys, numbers in their one written form). Reading recomputes it from the parsed values,
    /// so white space or escapes that do not change a value do not matter; any changed value does.
    package static func checksum(of content: [String: JSONValue]) -> String {
        "fnv1a64:" + FNV1a.hex(JSONValue.object(content).text.utf8)
    }

    static func armJSON(_ arm: ArmResult) -> JSONValue {
        let l = arm.ledger
        var counts: [String: JSONValue] = [:]
        for (key, path) in PartialResult.ledgerCounts { counts[key] = .int(l[keyPath: path]) }
        var object: [String: JSONValue] = [
            "queue": .string(arm.name),
            "counts": .object(counts),
            "causes": .object(Dictionary(uniqueKeysWithValues: LossCause.listed(l.count(of:)).map { ($0.key, .int(l.count(of: $0))) })),
            "latency": histogramJSON(l.latency),
        ]
        // The load series, bins with any count: [bin, letters in, pushes sent, …] (LoadQuantity's order).
        let load = l.load
        object["load"] = .array((0..<load.bins).compactMap { b in
            let row = LoadQuantity.allCases.map { load.count(bin: b, $0) }
            return row.allSatisfy { $0 == 0 } ? nil : .array([.int(b)] + row.map { .int($0) })
        })
        // Only when the run measures it (Focus and the scheduled summary): the latency seen by the user.
        if let seen = l.focusSummary.seenLatency { object["latency_seen"] = histogramJSON(seen) }
        // Only with a finite XIVA capacity: [minute, most waiting] pairs, merged by the larger.
        if !l.xivaQueue.isEmpty {
            object["xiva_queue"] = .array(zip(l.xivaQueue.minutes, l.xivaQueue.waiting).map { .array([.int($0), .int($1)]) })
        }
        return .object(object)
    }

    /// A latency histogram as its largest value and its non-empty buckets.
    static func histogramJSON(_ h: LatencyHistogram) -> JSONValue {
        .object(["max_us": .int(Int(h.maximum)), "buckets": .array(h.sparseBuckets.map { .array([.int($0.index), .uint($0.count)]) })])
    }

    /// Every integer count of a ``Ledger`` besides causes and latency, by its key in the
    /// partial document: the core counts and every mechanism's declared counters
    /// (`Ledger.everyCount`). A test checks that this covers every field of `Ledger`.
    package static var ledgerCounts: [(String, WritableKeyPath<Ledger, Int>)] { Ledger.everyCount.map { ($0.key, $0.path) } }

    // MARK: Reading

    /// Reads every partial result in `text` (one or several documents); `source` names it in errors.
    package static func read(_ text: String, source: String) throws -> [PartialResult] {
        var parts: [PartialResult] = []
        try forEach(in: Array(text.utf8), source: source) { parts.append($0) }
        return parts
    }

    /// Reads the partial results in `bytes` one after another, handing each to `body` before
    /// reading the next, so that memory holds one decoded part at a time.
    package static func forEach(in bytes: [UInt8], source: String, _ body: (PartialResult) throws -> Void) throws {
        var reader = JSONTextReader(bytes)
        reader.skipSpace()
        guard !reader.atEnd else { throw PartialResultError("\(source): empty, expected a partial result") }
        var n = 0
        while !reader.atEnd {
            n += 1
            let value: JSONValue
            do { value = try reader.value(depth: 0) } catch {
                throw PartialResultError("\(source)\(n > 1 ? " (document \(n))" : ""): not valid JSON (\(error))")
            }
            reader.skipSpace()
            let name = n == 1 && reader.atEnd ? source : "\(source) (document \(n))"
            try body(try PartialResult(json: value, source: name))
        }
    }

    /// Decodes one partial document, checking every value (see the type's documentation).
    package init(json: JSONValue, source: String) throws {
        let fields = PartialFields(source: source)
        guard case .object(let top) = json else {
            throw fields.error("expected a JSON object (a partial result from `pushsim run --shard K/N --json`)")
        }
        guard case .string(let format)? = top["format"] else {
            throw fields.error(top["runs"] != nil
                ? "this is a full run's document, not a partial result: produce parts with `pushsim run FILE --shard K/N --json`"
                : "not a partial result: no \"format\" field")
        }
        guard format == PartialResult.format else {
            throw fields.error("format '\(format)' is not '\(PartialResult.format)': made by another version of pushsim; "
                               + "run every shard and the merge with one version")
        }
        let version = try fields.string(top, "version")
        guard version == PushSimVersion.current else {
            throw fields.error("made by pushsim \(version), but this is pushsim \(PushSimVersion.current): "
                               + "run every shard and the merge with one version")
        }
        let written = try fields.string(top, "checksum")
        var content = top
        content["checksum"] = nil
        guard written == PartialResult.checksum(of: content) else {
            throw fields.error("the checksum does not match the content: the part was edited or damaged after "
                               + "`pushsim run --shard` wrote it; run that shard again")
        }
        let name = try fields.string(top, "scenario")
        let seed: UInt64
        switch top["seed"] {
        case .int(let n)? where n >= 0: seed = UInt64(n)
        case .uint(let n)?: seed = n
        default: throw fields.error("`seed`: expected an unsigned 64-bit integer")
        }
        let fingerprint = try fields.string(top, "fingerprint")
        guard fingerprint.utf8.count == 16, fingerprint.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
            throw fields.error("`fingerprint`: expected 16 hex digits")
        }
        let shardObject = try fields.object(top["shard"], "shard")
        let index = try fields.count(shardObject, "shard.index"), count = try fields.count(shardObject, "shard.count")
        guard let shard = ShardSpec(index: index, count: count) else {
            throw fields.error("`shard`: expected 0 ≤ index < count, found \(index)/\(count)")
        }
        let devicesObject = try fields.object(top["devices"], "devices")
        let lower = try fields.count(devicesObject, "devices.lower"), upper = try fields.count(devicesObject, "devices.upper")
        let total = try fields.count(devicesObject, "devices.total")
        guard lower <= upper, upper <= total else {
            throw fields.error("`devices`: expected lower ≤ upper ≤ total, found \(lower), \(upper), \(total)")
        }
        let sizeObject = try fields.object(top["size"], "size")
        let duration = try fields.count(sizeObject, "size.duration_us"), drain = try fields.count(sizeObject, "size.drain_us")
        guard duration > 0, Int64(duration).addingReportingOverflow(Int64(drain)).overflow == false else {
            throw fields.error("`size`: expected 0 < duration_us and duration_us + drain_us ≤ 9223372036854775807")
        }
        guard case .array(let armValues)? = top["arms"], (1...2).contains(armValues.count) else {
            throw fields.error("`arms`: expected an array of one or two arms")
        }
        var arms: [ArmResult] = []
        for (n, value) in armValues.enumerated() {
            arms.append(try fields.arm(value, "arms[\(n)]"))
        }
        guard [["off"], ["on"], ["off", "on"]].contains(arms.map(\.name)) else {
            throw fields.error("`arms`: expected the arms off, on in that order (or one of them), found \(arms.map(\.name).joined(separator: ", "))")
        }
        var segments: [SegmentResult] = []
        if let segmentsValue = top["segments"] {
            guard case .array(let segmentValues) = segmentsValue else { throw fields.error("`segments`: expected an array") }
            for (n, value) in segmentValues.enumerated() {
                let segment = try fields.object(value, "segments[\(n)]")
                guard case .array(let values)? = segment["arms"], values.count == arms.count else {
                    throw fields.error("`segments[\(n)].arms`: expected as many arms as the totals (\(arms.count))")
                }
                var segmentArms: [ArmResult] = []
                for (a, armValue) in values.enumerated() {
                    let arm = try fields.arm(armValue, "segments[\(n)].arms[\(a)]")
                    guard arm.arm == arms[a].arm else {
                        throw fields.error("`segments[\(n)].arms[\(a)].queue`: expected \(arms[a].name), as in the totals")
                    }
                    segmentArms.append(arm)
                }
                let devices = try fields.count(segment, "segments[\(n)].devices")
                guard devices <= total else {
                    throw fields.error("`segments[\(n)].devices`: expected at most the run's \(total) devices, found \(devices)")
                }
                segments.append(SegmentResult(name: try fields.string(segment, "name"), devices: devices, arms: segmentArms))
            }
        }
        guard case .object? = top["resolved_scenario"] else {
            throw fields.error("`resolved_scenario`: missing, or not an object")
        }
        // Parts written before the commit was recorded name none.
        var commit = "unknown"
        if case .string(let named)? = top["commit"] { commit = named }
        // Parts written before the client was recorded name the built-in one of their scenario.
        var client: JSONValue?
        if case .object? = top["client"] { client = top["client"] }
        let provenance = Provenance(version: version, commit: commit, seed: seed, yaml: try fields.string(top, "resolved_scenario_text"),
                                    scenario: top["resolved_scenario"] ?? .object([:]), client: client)
        let loadObject = try fields.object(top["load_frame"], "load_frame")
        let loadBin = try fields.count(loadObject, "load_frame.bin_us"), loadWarmup = try fields.count(loadObject, "load_frame.warmup_us")
        guard loadBin > 0, loadWarmup <= duration else {
            throw fields.error("`load_frame`: expected 0 < bin_us and warmup_us ≤ size.duration_us")
        }
        // 2^63 - 1 µs is `forever`, which no --load-bin gives.
        guard Int64(loadBin) < SimTime.forever.microseconds else {
            throw fields.error("`load_frame.bin_us`: expected a bin width below \(SimTime.forever.microseconds) µs (forever, which no --load-bin gives), found \(loadBin); the part is damaged")
        }
        // A load row counts something that happened during the run: its bin holds an instant
        // before the run's end (duration + drain).
        let runBins = SimTime.binCount(span: Int64(duration) + Int64(drain), bin: Int64(loadBin))
        // The merged load.csv writes every bin of the run: no more than a part's series may hold.
        guard runBins <= PartialResult.maxQueueMinutes else {
            throw fields.error("`load_frame.bin_us`: bins of \(loadBin) µs cut the run (size.duration_us + size.drain_us) into \(runBins) bins, more than the \(PartialResult.maxQueueMinutes) a part's load series may hold; the part is damaged, or its run's --load-bin far too narrow")
        }
        for (path, armList) in [("arms", arms)] + segments.enumerated().map({ ("segments[\($0.offset)].arms", $0.element.arms) }) {
            for (a, arm) in armList.enumerated() where arm.ledger.load.bins > runBins {
                throw fields.error("`\(path)[\(a)].load`: a row at bin \(arm.ledger.load.bins - 1), past the run's \(runBins) bins of \(SimTime(microseconds: Int64(loadBin))) (`load_frame.bin_us` over size.duration_us + size.drain_us); the part is damaged")
            }
        }
        var coupling = CouplingUnit.oneDevice
        if let couplingValue = top["coupling"] {
            let partitions = try fields.count(try fields.object(couplingValue, "coupling"), "coupling.xiva_partitions")
            guard partitions >= 1, partitions <= max(1, total) else {
                throw fields.error("`coupling.xiva_partitions`: expected 1 to the run's \(total) devices, found \(partitions)")
            }
            coupling = .xivaPartitions(partitions, ofDevices: total)
        }
        self.init(result: RunResult(scenario: name, seed: seed, arms: arms, devices: lower..<upper, totalDevices: total,
                                    segments: segments,
                                    loadFrame: LoadFrame(bin: Int64(loadBin), warmup: Int64(loadWarmup), duration: Int64(duration),
                                                         end: Int64(duration) + Int64(drain))),
                  fingerprint: fingerprint, shard: shard,
                  size: RunSize(devices: total, duration: SimTime(microseconds: Int64(duration)),
                                drain: SimTime(microseconds: Int64(drain))),
                  version: version, provenance: provenance, coupling: coupling)
    }

    // MARK: Merging

    /// Combines the partial results of every shard of one run into that run's result, exactly
    /// as a single run computes it. Refuses parts of different scenarios, seeds or settings,
    /// missing or repeated shards, a part that does not cover its own share of the devices,
    /// and totals that would pass what an `Int` holds.
    package static func merge(_ parts: [PartialResult]) throws -> RunResult {
        var merge = PartialMerge()
        for part in parts { try merge.add(part, source: "shard \(part.shard)") }
        return try merge.finish().result
    }
}

/// Merging partial results one at a time (`pushsim merge` reads them as a stream): memory holds
/// the running total and the shard numbers seen, whatever the number of shards a part claims.
package struct PartialMerge {
    private var first: PartialResult?
    /// Where the first part came from, for messages that compare a part with it.
    private var firstSource = "the first part"
    private var total: RunResult?
    private var seen: Set<Int> = []

    package init() {}

    /// Adds one part, after checking it belongs with the parts added before.
    package mutating func add(_ part: PartialResult, source: String) throws {
        let p = part.result
        guard let first else {
            try PartialMerge.checkShare(part, source: source)
            self.first = part
            firstSource = source
            var empty = p
            empty.arms = p.arms.map { ArmResult($0.arm, ledger: Ledger()) }
            for s in empty.segments.indices {
                empty.segments[s].arms = empty.segments[s].arms.map { ArmResult($0.arm, ledger: Ledger()) }
            }
            empty.devices = 0..<0
            total = try PartialMerge.adding(part, to: empty, source: source)
            seen.insert(part.shard.index)
            return
        }
        let f = first.result
        guard p.scenario == f.scenario else {
            throw PartialResultError("cannot merge shards of different scenarios: '\(f.scenario)' and '\(p.scenario)' (\(source))")
        }
        guard p.seed == f.seed else {
            throw PartialResultError("cannot merge shards of '\(f.scenario)' run with different seeds: \(f.seed) and \(p.seed) (\(source))")
        }
        // The bin is no key of the resolved scenario: named here, not as two fingerprints.
        guard p.loadFrame.bin == f.loadFrame.bin else {
            throw PartialResultError("cannot merge shards of '\(f.scenario)' run with different --load-bin: "
                + "\(SimTime(microseconds: f.loadFrame.bin)) (\(firstSource)) and \(SimTime(microseconds: p.loadFrame.bin)) (\(source)); "
                + "run every shard with the same --load-bin")
        }
        guard part.fingerprint == first.fingerprint, p.totalDevices == f.totalDevices, part.size == first.size else {
            // Name the keys the two resolved scenarios differ in; the fingerprints only when
            // they hash a difference the resolved scenario does not show.
            let what = ScenarioDifference.describe(first.provenance.scenario, part.provenance.scenario,
                                                   sourceA: firstSource, sourceB: source)
                .map { "the scenario differs in \($0)" } ?? "fingerprints \(first.fingerprint) and \(part.fingerprint), \(source)"
            throw PartialResultError("cannot merge shards of '\(f.scenario)' with different settings "
                + "(\(what)): every shard must run the same file with the same --set and --seed")
        }
        guard p.arms.map(\.arm) == f.arms.map(\.arm) else {
            throw PartialResultError("cannot merge shards of '\(f.scenario)' with different queue arms (\(source))")
        }
        // Every shard of one run records the latency seen on the lock screen, or none does.
        // (A segment's arms may be empty in a shard without its devices: only the totals are compared.)
        for (a, (arm, other)) in zip(p.arms, f.arms).enumerated()
        where !p.devices.isEmpty && !f.devices.isEmpty
            && (arm.ledger.focusSummary.seenLatency == nil) != (other.ledger.focusSummary.seenLatency == nil) {
            let has = arm.ledger.focusSummary.seenLatency != nil
            throw PartialResultError("\(source): `arms[\(a)].latency_seen`: \(has ? "present" : "missing"), while \(firstSource) \(has ? "has none" : "has it"): the shards of one run all record it or none does; the part is damaged")
        }
        guard p.segments.map(\.name) == f.segments.map(\.name), p.segments.map(\.devices) == f.segments.map(\.devices) else {
            throw PartialResultError("cannot merge shards of '\(f.scenario)' with different segments (\(source))")
        }
        guard part.coupling == first.coupling else {
            throw PartialResultError("cannot merge shards of '\(f.scenario)' cut by different coupling units (\(source))")
        }
        guard part.shard.count == first.shard.count else {
            throw PartialResultError("cannot merge shards cut in different numbers: \(first.shard) and \(part.shard) (\(source))")
        }
        try PartialMerge.checkShare(part, source: source)
        guard seen.insert(part.shard.index).inserted else {
            throw PartialResultError("shard \(part.shard) given more than once (again in \(source))")
        }
        if let running = total { total = try PartialMerge.adding(part, to: running, source: source) }
    }

    /// The merged run, once every shard is in, and its size for the report's title.
    package func finish() throws -> (result: RunResult, size: RunSize, provenance: Provenance) {
        guard let first, var total else { throw PartialResultError("nothing to merge: give the partial results of every shard") }
        let count = first.shard.count
        if seen.count < count {
            // The first few missing, ascending: at most seen.count + 10 steps, whatever `count` is.
            var missing: [Int] = []
            var k = 0
            while k < count && missing.count < 10 {
                if !seen.contains(k) { missing.append(k) }
                k += 1
            }
            let list = missing.map { "\($0)/\(count)" }.joined(separator: ", ") + (count - seen.count > missing.count ? ", …" : "")
            throw PartialResultError("missing \(count - seen.count) of \(count) shards: \(list)")
        }
        total.devices = 0..<first.result.totalDevices
        return (total, first.size, first.provenance)
    }

    /// Every part covers exactly its own share, so all shards once each cover every device once.
    /// Shares are cut by the part's coupling unit, as the run cut them.
    static func checkShare(_ part: PartialResult, source: String) throws {
        let range = part.result.devices
        guard range == part.shard.devices(of: part.result.totalDevices, unit: part.coupling) else {
            throw PartialResultError("shard \(part.shard) covers devices \(range.lowerBound)..<\(range.upperBound), "
                + "not its own share of \(part.result.totalDevices) (\(source))")
        }
    }

    /// `total` plus `part`, refusing a sum past `Int.max`. Checking the counts is enough: causes
    /// add up to `lost` and histogram buckets to `delivered` in every part (checked on reading),
    /// so their sums are bounded by sums checked here.
    static func adding(_ part: PartialResult, to total: RunResult, source: String) throws -> RunResult {
        func checkSums(_ totals: [ArmResult], _ arms: [ArmResult], _ path: String) throws {
            for (a, arm) in arms.enumerated() {
                for (key, field) in PartialResult.ledgerCounts
                where totals[a].ledger[keyPath: field].addingReportingOverflow(arm.ledger[keyPath: field]).overflow {
                    throw PartialResultError("\(source): `\(path)[\(a)].counts.\(key)`: adding this part takes the total past "
                        + "\(Int.max): no run counts that much; the part is damaged")
                }
                let mine = totals[a].ledger.load, theirs = arm.ledger.load
                for b in 0..<theirs.bins {
                    for q in LoadQuantity.allCases where mine.count(bin: b, q).addingReportingOverflow(theirs.count(bin: b, q)).overflow {
                        throw PartialResultError("\(source): `\(path)[\(a)].load`: adding bin \(b) of this part takes its count past "
                            + "\(Int.max): the part is damaged")
                    }
                }
            }
        }
        try checkSums(total.arms, part.result.arms, "arms")
        for (s, segment) in part.result.segments.enumerated() where s < total.segments.count {
            try checkSums(total.segments[s].arms, segment.arms, "segments[\(s)].arms")
        }
        var sum = total
        sum.merge(part.result)
        return sum
    }
}

/// Reading the fields of an untrusted partial document, each error naming the source and the key path.
struct PartialFields {
    var source: String

    func error(_ message: String) -> PartialResultError { PartialResultError("\(source): \(message)") }

    func string(_ object: [String: JSONValue], _ key: String) throws -> String {
        guard case .string(let s)? = object[key] else { throw error("`\(key)`: missing, or not a string") }
        return s
    }

    func object(_ value: JSONValue?, _ path: String) throws -> [String: JSONValue] {
        guard case .object(let o)? = value else { throw error("`\(path)`: missing, or not an object") }
        return o
    }

    /// A count: a whole number from 0 to `Int.max`. `path` is dotted; its last part is the key.
    func count(_ object: [String: JSONValue], _ path: String) throws -> Int {
        let key = path.split(separator: ".").last.map(String.init) ?? path
        switch object[key] {
        case .int(let n)? where n >= 0: return n
        case nil: throw error("`\(path)`: missing")
        case let other?: throw error("`\(path)`: expected a whole number from 0 to \(Int.max), found \(other.text)")
        }
    }

    /// One arm: its counts, causes and latency histogram, with the identities checked.
    func arm(_ value: JSONValue, _ path: String) throws -> ArmResult {
        let arm = try object(value, path)
        let queue = try string(arm, "queue")
        guard let side = Arm(rawValue: queue) else { throw error("`\(path).queue`: expected \"off\" or \"on\"") }
        var ledger = Ledger()
        let counts = try object(arm["counts"], "\(path).counts")
        for (key, keyPath) in PartialResult.ledgerCounts {
            ledger[keyPath: keyPath] = try count(counts, "\(path).counts.\(key)")
        }
        let causes = try object(arm["causes"], "\(path).causes")
        var causeSum = 0
        for cause in LossCause.allCases {
            // A cause listed only when it counted is absent for zero.
            let n = !cause.listedWhenZero && causes[cause.key] == nil ? 0 : try count(causes, "\(path).causes.\(cause.key)")
            ledger.causes[cause.rawValue] = n
            causeSum = causeSum.addingReportingOverflow(n).overflow ? Int.max : causeSum + n
        }
        let (latency, bucketSum) = try histogram(arm["latency"], "\(path).latency")
        ledger.latency = latency
        if let seen = arm["latency_seen"] {
            let (seenHistogram, seenSum) = try histogram(seen, "\(path).latency_seen")
            guard seenSum == bucketSum else { throw error("`\(path).latency_seen`: its buckets do not add up to the delivered letters") }
            ledger.focusSummary.seenLatency = seenHistogram
        }
        if let queueValue = arm["xiva_queue"] {
            guard case .array(let pairs) = queueValue, pairs.count <= PartialResult.maxQueueMinutes else {
                throw error("`\(path).xiva_queue`: expected an array of at most \(PartialResult.maxQueueMinutes) [minute, waiting] pairs")
            }
            var minutes: [Int] = [], waiting: [Int] = []
            for pair in pairs {
                guard case .array(let two) = pair, two.count == 2, case .int(let m) = two[0], case .int(let w) = two[1] else {
                    throw error("`\(path).xiva_queue`: expected [minute, waiting] pairs of whole numbers")
                }
                minutes.append(m); waiting.append(w)
            }
            guard let series = XivaQueueSeries(minutes: minutes, waiting: waiting) else {
                throw error("`\(path).xiva_queue`: expected minutes ascending from 0 and waiting counts above 0")
            }
            ledger.xivaQueue = series
        }
        if let loadValue = arm["load"] {
            guard case .array(let rows) = loadValue, rows.count <= PartialResult.maxQueueMinutes else {
                throw error("`\(path).load`: expected an array of at most \(PartialResult.maxQueueMinutes) bins")
            }
            var previous = -1
            for row in rows {
                guard case .array(let cells) = row, cells.count == LoadQuantity.allCases.count + 1,
                      case .int(let bin) = cells[0], bin > previous, bin < PartialResult.maxQueueMinutes else {
                    throw error("`\(path).load`: expected [bin, \(LoadQuantity.allCases.map(\.key).joined(separator: ", "))] rows, bins ascending")
                }
                previous = bin
                for (q, cell) in zip(LoadQuantity.allCases, cells.dropFirst()) {
                    guard case .int(let n) = cell, n >= 0 else {
                        throw error("`\(path).load`: expected counts from 0 to \(Int.max) in bin \(bin)")
                    }
                    ledger.load.add(n, bin: bin, q)
                }
            }
        }
        let (states, o1) = ledger.delivered.addingReportingOverflow(ledger.summarized)
        let (all, o2) = states.addingReportingOverflow(ledger.lost)
        guard !o1, !o2, all == ledger.letters, causeSum == ledger.lost, bucketSum == ledger.delivered else {
            throw error("`\(path)`: the counts do not add up (delivered + summarized + lost ≠ letters, causes ≠ lost, "
                        + "or latency buckets ≠ delivered)")
        }
        return ArmResult(side, ledger: ledger)
    }

    /// A latency histogram written by `histogramJSON`, and the sum of its buckets.
    func histogram(_ value: JSONValue?, _ path: String) throws -> (LatencyHistogram, Int) {
        let latency = try object(value, path)
        let maximum = try count(latency, "\(path).max_us")
        guard case .array(let bucketValues)? = latency["buckets"], bucketValues.count <= LatencyHistogram.bucketCount else {
            throw error("`\(path).buckets`: expected an array of at most \(LatencyHistogram.bucketCount) [index, count] pairs")
        }
        var buckets: [(index: Int, count: UInt64)] = []
        var bucketSum = 0
        for (b, bucket) in bucketValues.enumerated() {
            guard case .array(let pair) = bucket, pair.count == 2, case .int(let index) = pair[0], case .int(let n) = pair[1],
                  index >= 0, index < LatencyHistogram.bucketCount, n >= 0, index > (buckets.last?.index ?? -1) else {
                throw error("`\(path).buckets[\(b)]`: expected [index, count] with indices ascending from 0 to "
                            + "\(LatencyHistogram.bucketCount - 1) and a count from 0 to \(Int.max)")
            }
            bucketSum = bucketSum.addingReportingOverflow(n).overflow ? Int.max : bucketSum + n
            buckets.append((index, UInt64(n)))
        }
        guard let histogram = LatencyHistogram(sparse: buckets, maximum: Int64(maximum)) else {
            throw error("`\(path).buckets`: a bucket index is out of range")
        }
        return (histogram, bucketSum)
    }
}

/// Why partial results could not be read or merged (exit status 2).
package struct PartialResultError: Error, CustomStringConvertible, Sendable {
    package var message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}
