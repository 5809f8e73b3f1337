// The metrics `pushsim check` compares, which way each gets worse, and reading them from JSON.
import PushSimCore
import PushSimExperiment

/// Which change of a metric is a regression.
package enum CheckDirection: String, Sendable {
    /// Loss, duplicates, latency, summaries, causes, and the queue's work: up is worse.
    case upIsWorse = "up_is_worse"
    /// Delivered letters: down is worse.
    case downIsWorse = "down_is_worse"
    /// The run's size (`letters`) and the kernel's work (`events`): reported, never a verdict.
    case reportedOnly = "reported_only"
}

/// How a metric's default tolerance is derived (see docs/ci.md, "Tolerances").
package enum CheckMetricKind: Equatable, Sendable {
    /// A total over devices; `index` is its place in `CheckMetrics.countKeys`.
    case count(index: Int)
    /// A count divided by `letters`; `numerator` indexes `CheckMetrics.countKeys`.
    case rate(numerator: Int)
    /// A nearest-rank latency percentile; `slot` indexes `CheckMetrics.quantiles`.
    case latencyQuantile(slot: Int)
    /// The largest latency.
    case latencyMax
    /// Kernel events: work, not quality.
    case work
    /// A declared share of two counts (``CounterShare``, such as `xiva_capacity.in_time_share`);
    /// `complement` indexes `CheckMetrics.countKeys`: the share's noise is that count's, over the
    /// share's total (docs/ci.md, "Tolerances").
    case share(complement: Int)
    /// The peak bin of a load series (`load.re_requests.peak`, docs/model.md §14): a count in one
    /// bin, so its noise is Poisson's (docs/ci.md, "Tolerances").
    case loadPeak
}

/// One compared metric: its dotted key in the run's JSON, its direction and its kind.
package struct CheckMetric: Equatable, Sendable {
    package var key: String
    package var direction: CheckDirection
    package var kind: CheckMetricKind
    /// A metric the JSON writes only when non-zero (a catch-up's `fetches`, `app_reinstalls`),
    /// or that older baselines lack: absent reads as 0.
    package var absentMeansZero = false
    /// A metric older documents lack and that has no zero to stand for (a load peak): absent
    /// on either side, it is not compared.
    package var absentSkips = false
    /// A figure of the harm and cost set, computed from the arm's fields
    /// (``CheckMetrics/designFigures(_:arm:values:)``), not read at a key of its own.
    package var derived = false

    /// A percentile of the latency seen by the user (`latency_seen_s`).
    package var isSeenLatency: Bool {
        if case .latencyQuantile(let slot) = kind { return slot < CheckMetrics.latencySlots.count && CheckMetrics.latencySlots[slot].seen }
        return false
    }
}

package enum CheckMetrics {
    /// Per-device integer counts the statistics pass accumulates, in this order; the run
    /// (`CheckSpread`, a stage below) counts them, so they are declared there.
    package static let countKeys = CheckSpread.countKeys

    /// The percentiles of `latency_s`, and their probabilities.
    package static let quantiles = CheckSpread.quantiles

    /// The latency percentiles compared, `latency_s`'s then `latency_seen_s`'s, by slot.
    package static let latencySlots = CheckSpread.latencySlots

    /// The metrics queue-on arms have and queue-off arms lack.
    package static let queueOnlyKeys: Set<String> = Set(["re_requests", "resent", "summaries", "extension_timeouts", "fetches"]
        + Ledger.checkedCounters.filter(\.queueArmOnly).map(\.jsonPath))

    /// Every metric of an arm, in the order reports list them.
    package static func catalogue(_ arm: PushSimCore.Arm) -> [CheckMetric] {
        func count(_ key: String, _ direction: CheckDirection = .upIsWorse) -> CheckMetric {
            CheckMetric(key: key, direction: direction, kind: .count(index: countKeys.firstIndex(of: key) ?? 0))
        }
        func countOrZero(_ key: String) -> CheckMetric {
            var metric = count(key)
            metric.absentMeansZero = true
            return metric
        }
        func rate(_ key: String, of numerator: String) -> CheckMetric {
            CheckMetric(key: key, direction: .upIsWorse, kind: .rate(numerator: countKeys.firstIndex(of: numerator) ?? 0))
        }
        var metrics: [CheckMetric] = [
            count("letters", .reportedOnly), count("delivered", .downIsWorse), count("summarized"),
            count("lost"), count("duplicates"),
            rate("loss_rate", of: "lost"), rate("duplicate_rate", of: "duplicates"),
        ]
        for (slot, q) in latencySlots.enumerated() where !q.seen {
            metrics.append(CheckMetric(key: q.key, direction: .upIsWorse, kind: .latencyQuantile(slot: slot)))
        }
        metrics.append(CheckMetric(key: "latency_s.max", direction: .upIsWorse, kind: .latencyMax))
        // When the user sees a letter (a summary or a Focus holds it, docs/model.md §10): only
        // in runs that measure it, so absent on either side it is not compared.
        for (slot, q) in latencySlots.enumerated() where q.seen {
            metrics.append(CheckMetric(key: q.key, direction: .upIsWorse, kind: .latencyQuantile(slot: slot), absentSkips: true))
        }
        // A cause listed only when it counts and given by the queue arm alone (`memory_kill`)
        // never appears in the off arm: comparing its absence with itself would check nothing.
        metrics += LossCause.allCases.filter { $0.listedWhenZero || !($0.isQueueOnly && arm == .off) }
            .map { $0.listedWhenZero ? count("causes." + $0.key) : countOrZero("causes." + $0.key) }
        // The mechanisms' counters `check` compares (declared with them, Ledger.groups), such as
        // the letters an app reinstall dropped before XIVA knew the new token (docs/model.md §8).
        metrics += Ledger.checkedCounters.filter { !$0.queueArmOnly }.map { countOrZero($0.jsonPath) }
        if arm == .on {
            metrics += ["re_requests", "resent", "summaries", "extension_timeouts"].map { count($0) }
            // A catch-up's load on the mail server (docs/model.md §7): more fetches is worse.
            metrics.append(countOrZero("fetches"))
            // Those only the queue arm has, such as the pushes of an earlier install that would
            // have looked like a gap (docs/model.md §8): what the device-id hash check has to catch.
            metrics += Ledger.checkedCounters.filter(\.queueArmOnly).map { countOrZero($0.jsonPath) }
            // The declared shares, such as the re-requests answered before the extension's
            // deadline with a finite XIVA capacity (docs/model.md §6): down is worse.
            metrics += Ledger.checkedShares.map { share in
                CheckMetric(key: share.jsonPath, direction: .downIsWorse,
                            kind: .share(complement: countKeys.firstIndex(of: share.complementPath) ?? 0), absentMeansZero: true)
            }
        }
        // The harm and cost set every design is compared on (docs/model.md §7): letters shown
        // twice and each cost per letter, where the arm's design can have it.
        metrics += designFigures(arm).map { figure in
            CheckMetric(key: figure.key, direction: .upIsWorse, kind: .rate(numerator: countKeys.firstIndex(of: figure.count) ?? 0),
                        absentSkips: true, derived: true)
        }
        // The busiest bin of XIVA's load (docs/model.md §14): what capacity is planned for.
        metrics += (arm == .on ? loadPeakQuantities : [.pushesSent]).map {
            CheckMetric(key: "load.\($0.key).peak", direction: .upIsWorse, kind: .loadPeak, absentSkips: true)
        }
        metrics.append(CheckMetric(key: "events", direction: .reportedOnly, kind: .work))
        return metrics
    }

    /// The figures of the harm and cost set `check` judges in an arm (its key, the count it
    /// divides by the letters): the queue arm's every figure, the off arm's alert pushes (it
    /// recovers nothing, and its letters shown twice are its duplicates, already judged).
    static func designFigures(_ arm: PushSimCore.Arm) -> [(key: String, count: String)] {
        let all: [(String, String)] = [
            ("harms_and_costs.shown_twice_rate", "harms_and_costs.shown_twice"),
            ("harms_and_costs.xiva_requests_per_letter", "re_requests"),
            ("harms_and_costs.alert_pushes_per_letter", "harms_and_costs.alert_pushes"),
            ("harms_and_costs.silent_pushes_per_letter", "harms_and_costs.silent_pushes"),
            ("harms_and_costs.fetches_per_letter", "harms_and_costs.fetches"),
            ("harms_and_costs.wakeups_per_letter", "harms_and_costs.wakeups"),
        ]
        return arm == .on ? all : all.filter { $0.0 == "harms_and_costs.alert_pushes_per_letter" }
    }

    /// Adds to `values` (an arm's metrics read from its JSON `fields`) the harm and cost set's
    /// counts and figures, as ``DesignMetrics`` defines them, for the figures the arm's design
    /// can have; the design as the fields show it: a background sync sent silent pushes (its
    /// `background_sync` object), a catch-up fetched (`fetches`), else the push queue. A figure
    /// the design cannot have is left out, so it is not compared (never compared as 0).
    static func designFigures(_ fields: [String: JSONValue], arm: PushSimCore.Arm, values: inout [String: Double]) {
        func number(_ path: String) -> Double? {
            var node: JSONValue? = .object(fields)
            for part in path.split(separator: ".") {
                guard case .object(let members)? = node else { return nil }
                node = members[String(part)]
            }
            return node?.number
        }
        let letters = values["letters"] ?? 0
        func set(_ count: String, _ value: Double) {
            values[count] = value
            for figure in designFigures(arm) where figure.count == count { values[figure.key] = letters > 0 ? value / letters : 0 }
        }
        if let sent = number("apns.sent") { set("harms_and_costs.alert_pushes", sent) }
        guard arm == .on else { return }
        let sync = fields["background_sync"] != nil
        let catchUp = !sync && (number("fetches") ?? 0) > 0
        set("harms_and_costs.shown_twice", (values["duplicates"] ?? 0) + (number("summarized_then_shown") ?? 0)
            + (number("background_sync.shown_twice") ?? 0))
        if !sync && !catchUp, let reRequests = values["re_requests"] {
            values["harms_and_costs.xiva_requests_per_letter"] = letters > 0 ? reRequests / letters : 0
        }
        if sync || catchUp { set("harms_and_costs.fetches", (number("fetches") ?? 0) + (number("background_sync.fetches") ?? 0)) }
        if sync {
            set("harms_and_costs.silent_pushes", number("background_sync.pushes") ?? 0)
            set("harms_and_costs.wakeups", number("background_sync.wakes") ?? 0)
        }
    }

    /// The load quantities whose peak the queue-on arm compares (the off arm: pushes sent only).
    package static let loadPeakQuantities: [LoadQuantity] = [.pushesSent, .reRequests]

    /// Every metric key any arm can have (for `--tolerance` names).
    package static var allKeys: [String] { catalogue(.on).map(\.key) }
}

/// A `check` input that cannot be used: a missing or unreadable baseline, a wrong shape, a
/// missing metric, another scenario. Exit status 2.
package struct CheckInputError: Error, CustomStringConvertible, Sendable {
    package var description: String
    /// The baseline file does not exist: `--update` then writes the first one, and says so
    /// without the advice (to run `--update`) that `check` gives.
    package var isMissingBaseline = false
    package init(_ description: String, isMissingBaseline: Bool = false) {
        self.description = description; self.isMissingBaseline = isMissingBaseline
    }
}

/// The metrics of one run as the contract's JSON states them: per arm, key → number.
package struct CheckSnapshot: Equatable, Sendable {
    package struct Arm: Equatable, Sendable {
        package var queue: String
        package var values: [String: Double]
        /// The width of its load series' bins in seconds (`load.bin_s`), when it has one: peaks
        /// of another width are not compared.
        package var loadBinSeconds: Double? = nil
        /// The arm `queue` names (a snapshot is only made of "off" or "on").
        package var arm: PushSimCore.Arm { PushSimCore.Arm(rawValue: queue) ?? .off }
    }
    package var scenario: String
    package var seed: UInt64?
    package var arms: [Arm]
    /// The PushSim version that wrote it (`pushsim_version`), when the document names one.
    package var version: String?
    /// The scenario as the run resolved it (`resolved_scenario`), when the document holds it.
    package var resolvedScenario: JSONValue?
    /// The client that made it (`client`, ``ClientProvenance``), when the document names one.
    package var client: JSONValue?

    /// Reads the metrics from a `pushsim run --json` document (or a summary.json); `source`
    /// names the document in messages. Unknown keys are ignored (the contract may add fields);
    /// a missing or non-numeric metric is an error naming the arm and the key.
    package init(json: JSONValue, source: String) throws {
        guard case .object(let top) = json else {
            throw CheckInputError("\(source): expected a JSON object (the output of `pushsim run --json`), found \(json.kindName)")
        }
        guard case .string(let name)? = top["scenario"] else {
            throw CheckInputError("\(source): missing the \"scenario\" name (is this a summary.json of `pushsim run`?)")
        }
        scenario = name
        if case .string(let v)? = top["pushsim_version"] { version = v }
        if case .object? = top["resolved_scenario"] { resolvedScenario = top["resolved_scenario"] }
        if case .object? = top["client"] { client = top["client"] }
        switch top["seed"] {
        case .int(let s)? where s >= 0: seed = UInt64(s)
        case .uint(let s)?: seed = s
        default: seed = nil
        }
        guard case .array(let runs)? = top["runs"] else {
            throw CheckInputError("\(source): missing the \"runs\" array of arms")
        }
        guard !runs.isEmpty, runs.count <= 2 else {
            throw CheckInputError("\(source): \"runs\" should hold one or two arms, found \(runs.count)")
        }
        arms = []
        for (n, run) in runs.enumerated() {
            guard case .object(let fields) = run else {
                throw CheckInputError("\(source): runs[\(n)] should be an object, found \(run.kindName)")
            }
            guard case .string(let queue)? = fields["queue"], let arm = PushSimCore.Arm(rawValue: queue) else {
                throw CheckInputError("\(source): runs[\(n)] needs \"queue\": \"off\" or \"on\"")
            }
            var values: [String: Double] = [:]
            for metric in CheckMetrics.catalogue(arm) where !metric.derived {
                let path = metric.key.split(separator: ".").map(String.init)
                var node: JSONValue? = run
                for part in path {
                    guard case .object(let members)? = node else { node = nil; break }
                    node = members[part]
                }
                if node == nil && metric.absentMeansZero { node = .int(0) }
                if node == nil && metric.absentSkips { continue }
                guard let found = node else {
                    throw CheckInputError("\(source): runs[\(n)] (queue \(queue)) is missing the metric '\(metric.key)'")
                }
                guard let number = found.number else {
                    throw CheckInputError("\(source): runs[\(n)] (queue \(queue)): '\(metric.key)' should be a number, found \(found.kindName)")
                }
                values[metric.key] = number
            }
            CheckMetrics.designFigures(fields, arm: arm, values: &values)
            // The load series, when given, is an object whose bin is a width above 0: a damaged
            // one would compare its peaks as "identical" to anything.
            var loadBin: Double?
            switch fields["load"] {
            case nil: break
            case .object(let load)?:
                if let bin = load["bin_s"] {
                    guard let seconds = bin.number, seconds.isFinite, seconds > 0 else {
                        throw CheckInputError("\(source): runs[\(n)] (queue \(queue)): 'load.bin_s' should be a width in seconds above 0, found \(bin.text.prefix(40))")
                    }
                    loadBin = seconds
                }
            case let other?:
                throw CheckInputError("\(source): runs[\(n)] (queue \(queue)): 'load' should be an object (the load series), found \(other.kindName)")
            }
            arms.append(Arm(queue: queue, values: values, loadBinSeconds: loadBin))
        }
        if arms.map(\.queue) != ["off"] && arms.map(\.queue) != ["on"] && arms.map(\.queue) != ["off", "on"] {
            throw CheckInputError("\(source): arms should be in the order off, on; found \(arms.map(\.queue).joined(separator: ", "))")
        }
    }
}

extension JSONValue {
    /// The value as a number, if it is one.
    var number: Double? {
        switch self {
        case .int(let i): return Double(i)
        case .uint(let u): return Double(u)
        case .double(let d): return d
        default: return nil
        }
    }

    /// What kind of value this is, for messages.
    var kindName: String {
        switch self {
        case .object: return "an object"
        case .array: return "an array"
        case .string: return "a string"
        case .int, .uint, .double: return "a number"
        case .bool: return "a boolean"
        case .null: return "null"
        }
    }
}
