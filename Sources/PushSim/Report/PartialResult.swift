// The partial result of one device shard: everything needed to merge shards into one run's document.

/// What `pushsim run --shard K/N --json` prints and `pushsim merge` reads: the shard's ledgers
/// in full (counts, and the latency histogram as sparse buckets with its maximum), the devices
/// it covers, and the scenario's name, seed and fingerprint, so that shards of different
/// scenarios, seeds or settings refuse to merge.
public struct PartialResult: Equatable, Sendable {
    /// The format's name and version, first thing checked on reading.
    public static let format = "pushsim-partial/1"

    public var result: RunResult
    public var fingerprint: String
    public var shard: ShardSpec

    public init(result: RunResult, fingerprint: String, shard: ShardSpec) {
        self.result = result
        self.fingerprint = fingerprint
        self.shard = shard
    }

    /// Simulates shard `shard` of `scenario` into a partial result.
    public static func run(_ scenario: Scenario, shard: ShardSpec, jobs: Int = 1,
                           progress: (@Sendable (_ devices: Int, _ events: Int) -> Void)? = nil) -> PartialResult {
        PartialResult(result: Simulator.run(scenario, devices: shard.devices(of: scenario.devices), jobs: jobs, progress: progress),
                      fingerprint: scenario.fingerprint, shard: shard)
    }

    // MARK: Writing

    public var json: JSONValue {
        var object: [String: JSONValue] = [
            "format": .string(PartialResult.format),
            "scenario": .string(result.scenario),
            "seed": .uint(result.seed),
            "fingerprint": .string(fingerprint),
            "shard": .object(["index": .int(shard.index), "count": .int(shard.count)]),
            "devices": .object(["lower": .int(result.devices.lowerBound), "upper": .int(result.devices.upperBound),
                                "total": .int(result.totalDevices)]),
            "arms": .array(result.arms.map(PartialResult.armJSON)),
        ]
        // Per-segment ledgers (§6.4), only when the scenario has segments: merge adds them up.
        if !result.segments.isEmpty {
            object["segments"] = .array(result.segments.map { segment in
                .object(["name": .string(segment.name), "devices": .int(segment.devices),
                         "arms": .array(segment.arms.map(PartialResult.armJSON))])
            })
        }
        return .object(object)
    }

    static func armJSON(_ arm: ArmResult) -> JSONValue {
        let l = arm.ledger
        var counts: [String: JSONValue] = [:]
        for (key, path) in PartialResult.ledgerCounts { counts[key] = .int(l[keyPath: path]) }
        return .object([
            "queue": .string(arm.name),
            "counts": .object(counts),
            "causes": .object(Dictionary(uniqueKeysWithValues: LossCause.allCases.map { ($0.key, .int(l.count(of: $0))) })),
            "latency": .object([
                "max_us": .int(Int(l.latency.maximum)),
                "buckets": .array(l.latency.sparseBuckets.map { .array([.int($0.index), .uint($0.count)]) }),
            ]),
        ])
    }

    /// Every integer count of a ``Ledger`` besides causes and latency, by its key in the
    /// partial document. A test checks that this covers every field of `Ledger`.
    public static var ledgerCounts: [(String, WritableKeyPath<Ledger, Int>)] { [
        ("letters", \.letters), ("delivered", \.delivered), ("summarized", \.summarized), ("lost", \.lost),
        ("duplicates", \.duplicates), ("events", \.events),
        ("re_requests", \.reRequests), ("resent", \.resent), ("summaries", \.summaries),
        ("extension_timeouts", \.extensionTimeouts),
        ("pushes_seen_by_extensions", \.pushesSeenByExtensions), ("gaps_detected", \.gapsDetected),
        ("missed_in_gaps", \.missedInGaps), ("letters_on_visible_devices", \.lettersOnVisibleDevices),
        ("positions_known_to_telemetry", \.positionsKnownToTelemetry),
    ] }

    // MARK: Reading

    /// Reads every partial result in `text` (one or several documents); `source` names it in errors.
    public static func read(_ text: String, source: String) throws -> [PartialResult] {
        let values: [JSONValue]
        do { values = try JSONValue.parseAll(text) } catch {
            throw PartialResultError("\(source): not valid JSON (\(error))")
        }
        guard !values.isEmpty else { throw PartialResultError("\(source): empty, expected a partial result") }
        return try values.enumerated().map { n, value in
            try PartialResult(json: value, source: values.count == 1 ? source : "\(source) (document \(n + 1))")
        }
    }

    /// Decodes one partial document.
    public init(json: JSONValue, source: String) throws {
        func bad(_ message: String) -> PartialResultError { PartialResultError("\(source): \(message)") }
        guard case .object(let top) = json else { throw bad("expected a JSON object (a partial result from `pushsim run --shard K/N --json`)") }
        guard case .string(let format)? = top["format"] else {
            throw bad(top["runs"] != nil
                      ? "this is a full run's document, not a partial result: produce parts with `pushsim run FILE --shard K/N --json`"
                      : "not a partial result: no \"format\" field")
        }
        guard format == PartialResult.format else {
            throw bad("format '\(format)' is not '\(PartialResult.format)' (made by another version of pushsim?)")
        }
        func string(_ object: [String: JSONValue], _ key: String) throws -> String {
            guard case .string(let s)? = object[key] else { throw bad("missing or non-string \"\(key)\"") }
            return s
        }
        func integer(_ object: [String: JSONValue], _ key: String, _ context: String) throws -> Int {
            guard case .int(let n)? = object[key], n >= 0 else { throw bad("missing or invalid \(context)\"\(key)\": expected a whole number ≥ 0") }
            return n
        }
        func object(_ value: JSONValue?, _ what: String) throws -> [String: JSONValue] {
            guard case .object(let o)? = value else { throw bad("missing or non-object \"\(what)\"") }
            return o
        }
        let name = try string(top, "scenario")
        let seed: UInt64
        switch top["seed"] {
        case .int(let n)? where n >= 0: seed = UInt64(n)
        case .uint(let n)?: seed = n
        default: throw bad("missing or invalid \"seed\"")
        }
        let fingerprint = try string(top, "fingerprint")
        let shardObject = try object(top["shard"], "shard")
        guard let shard = ShardSpec(index: try integer(shardObject, "index", "shard."),
                                    count: try integer(shardObject, "count", "shard.")) else {
            throw bad("invalid \"shard\": expected 0 ≤ index < count")
        }
        let devicesObject = try object(top["devices"], "devices")
        let lower = try integer(devicesObject, "lower", "devices."), upper = try integer(devicesObject, "upper", "devices.")
        let total = try integer(devicesObject, "total", "devices.")
        guard lower <= upper, upper <= total else { throw bad("invalid \"devices\": expected lower ≤ upper ≤ total") }
        guard case .array(let armValues)? = top["arms"], (1...2).contains(armValues.count) else {
            throw bad("missing \"arms\": expected an array of one or two arms")
        }
        let arms = try PartialResult.readArms(armValues, path: "arms", bad: bad, string: string, integer: integer, object: object)
        var segments: [SegmentResult] = []
        if let segmentsValue = top["segments"] {
            guard case .array(let segmentValues) = segmentsValue else { throw bad("\"segments\" must be an array") }
            for (n, value) in segmentValues.enumerated() {
                let segment = try object(value, "segments[\(n)]")
                guard case .array(let values)? = segment["arms"], values.count == armValues.count else {
                    throw bad("segments[\(n)].arms: expected as many arms as the totals")
                }
                segments.append(SegmentResult(
                    name: try string(segment, "name"), devices: try integer(segment, "devices", "segments[\(n)]."),
                    arms: try PartialResult.readArms(values, path: "segments[\(n)].arms", bad: bad, string: string,
                                                     integer: integer, object: object)))
            }
        }
        self.init(result: RunResult(scenario: name, seed: seed, arms: arms, devices: lower..<upper, totalDevices: total,
                                    segments: segments),
                  fingerprint: fingerprint, shard: shard)
    }

    /// Decodes the arms of a partial document (the totals' or a segment's).
    static func readArms(_ armValues: [JSONValue], path: String, bad: (String) -> PartialResultError,
                         string: ([String: JSONValue], String) throws -> String,
                         integer: ([String: JSONValue], String, String) throws -> Int,
                         object: (JSONValue?, String) throws -> [String: JSONValue]) throws -> [ArmResult] {
        var arms: [ArmResult] = []
        for (n, value) in armValues.enumerated() {
            let arm = try object(value, "\(path)[\(n)]")
            let queue = try string(arm, "queue")
            guard queue == "off" || queue == "on" else { throw bad("\(path)[\(n)].queue must be \"off\" or \"on\"") }
            var ledger = Ledger()
            let counts = try object(arm["counts"], "\(path)[\(n)].counts")
            for (key, field) in PartialResult.ledgerCounts {
                ledger[keyPath: field] = try integer(counts, key, "\(path)[\(n)].counts.")
            }
            let causes = try object(arm["causes"], "\(path)[\(n)].causes")
            for cause in LossCause.allCases {
                ledger.causes[cause.rawValue] = try integer(causes, cause.key, "\(path)[\(n)].causes.")
            }
            let latency = try object(arm["latency"], "\(path)[\(n)].latency")
            let maximum = try integer(latency, "max_us", "\(path)[\(n)].latency.")
            guard case .array(let bucketValues)? = latency["buckets"] else { throw bad("missing \(path)[\(n)].latency.buckets") }
            var buckets: [(index: Int, count: UInt64)] = []
            for bucket in bucketValues {
                guard case .array(let pair) = bucket, pair.count == 2, case .int(let index) = pair[0] else {
                    throw bad("\(path)[\(n)].latency.buckets: expected [index, count] pairs")
                }
                switch pair[1] {
                case .int(let c) where c >= 0: buckets.append((index, UInt64(c)))
                case .uint(let c): buckets.append((index, c))
                default: throw bad("\(path)[\(n)].latency.buckets: expected [index, count] pairs")
                }
            }
            guard let histogram = LatencyHistogram(sparse: buckets, maximum: Int64(maximum)) else {
                throw bad("\(path)[\(n)].latency.buckets: a bucket index is out of range")
            }
            ledger.latency = histogram
            guard ledger.identitiesHold else {
                throw bad("\(path)[\(n)]: the counts do not add up (delivered + summarized + lost ≠ letters, or causes ≠ lost)")
            }
            arms.append(ArmResult(queueOn: queue == "on", ledger: ledger))
        }
        return arms
    }

    // MARK: Merging

    /// Combines the partial results of every shard of one run into that run's result, exactly
    /// as a single run computes it. Refuses parts of different scenarios, seeds or settings,
    /// missing or repeated shards, and device ranges that leave a gap or overlap.
    public static func merge(_ parts: [PartialResult]) throws -> RunResult {
        guard let first = parts.first else { throw PartialResultError("nothing to merge: give the partial results of every shard") }
        for part in parts.dropFirst() {
            let p = part.result, f = first.result
            guard p.scenario == f.scenario else {
                throw PartialResultError("cannot merge shards of different scenarios: '\(f.scenario)' and '\(p.scenario)'")
            }
            guard p.seed == f.seed else {
                throw PartialResultError("cannot merge shards of '\(f.scenario)' run with different seeds: \(f.seed) and \(p.seed)")
            }
            guard part.fingerprint == first.fingerprint, p.totalDevices == f.totalDevices else {
                throw PartialResultError("cannot merge shards of '\(f.scenario)' with different settings "
                    + "(fingerprints \(first.fingerprint) and \(part.fingerprint)): every shard must run the same file with the same --set and --seed")
            }
            guard p.segments.map(\.name) == f.segments.map(\.name) else {
                throw PartialResultError("cannot merge shards of '\(f.scenario)' with different segments")
            }
            guard p.arms.map(\.queueOn) == f.arms.map(\.queueOn) else {
                throw PartialResultError("cannot merge shards of '\(f.scenario)' with different queue arms")
            }
            guard part.shard.count == first.shard.count else {
                throw PartialResultError("cannot merge shards cut in different numbers: \(first.shard) and \(part.shard)")
            }
        }
        let count = first.shard.count
        var seen = [Int](repeating: 0, count: count)
        for part in parts { seen[part.shard.index] += 1 }
        let repeated = seen.indices.filter { seen[$0] > 1 }
        guard repeated.isEmpty else {
            throw PartialResultError("shard \(repeated.map { "\($0)/\(count)" }.joined(separator: ", ")) given more than once")
        }
        let missing = seen.indices.filter { seen[$0] == 0 }
        guard missing.isEmpty else {
            let list = missing.prefix(10).map { "\($0)/\(count)" }.joined(separator: ", ") + (missing.count > 10 ? ", …" : "")
            throw PartialResultError("missing \(missing.count) of \(count) shards: \(list)")
        }
        let sorted = parts.sorted { $0.shard.index < $1.shard.index }
        var covered = 0
        for part in sorted {
            let range = part.result.devices
            guard range == part.shard.devices(of: part.result.totalDevices) else {
                throw PartialResultError("shard \(part.shard) covers devices \(range.lowerBound)..<\(range.upperBound), "
                    + "not its own share of \(part.result.totalDevices)")
            }
            guard range.lowerBound == covered else {
                throw PartialResultError(range.lowerBound < covered
                    ? "shards overlap at device \(range.lowerBound)" : "devices \(covered)..<\(range.lowerBound) are in no shard")
            }
            covered = range.upperBound
        }
        guard covered == first.result.totalDevices else {
            throw PartialResultError("devices \(covered)..<\(first.result.totalDevices) are in no shard")
        }
        var total = sorted[0].result
        total.arms = total.arms.map { ArmResult(queueOn: $0.queueOn, ledger: Ledger()) }
        for s in total.segments.indices {
            total.segments[s].arms = total.segments[s].arms.map { ArmResult(queueOn: $0.queueOn, ledger: Ledger()) }
        }
        total.devices = 0..<0
        for part in sorted { total.merge(part.result) }
        total.devices = 0..<first.result.totalDevices
        return total
    }
}

/// Why partial results could not be read or merged (exit status 2).
public struct PartialResultError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
