// Comparing a fresh run with its baseline: tolerances (statistical or given), verdicts, outcome.
import Foundation
import PushSimCore
import PushSimScenarioFile
import PushSimExperiment

/// A tolerance the user gives with `--tolerance [ARM.]METRIC=VALUE`: absolute in the metric's
/// unit (a rate as a fraction, latency in seconds, counts in letters), or relative with `%`.
package struct CheckTolerance: Equatable, Sendable {
    package enum Amount: Equatable, Sendable {
        case absolute(Double)
        /// A fraction of the baseline's value (`5%` → 0.05).
        case relative(Double)
    }
    /// "off" or "on" to apply to one arm only; nil for every arm.
    package var arm: String?
    package var key: String
    package var amount: Amount

    package init(arm: String?, key: String, amount: Amount) {
        self.arm = arm; self.key = key; self.amount = amount
    }

    /// Parses `METRIC=VALUE`, `off.METRIC=VALUE` or `on.METRIC=VALUE`; VALUE is a number ≥ 0,
    /// optionally followed by `%`.
    package static func parse(_ text: String) throws -> CheckTolerance {
        guard let eq = text.firstIndex(of: "=") else {
            throw CheckInputError("--tolerance needs METRIC=VALUE (e.g. loss_rate=0.001 or latency_s.p99=10%), got '\(text)'")
        }
        var key = String(text[..<eq]).trimmingCharacters(in: .whitespaces)
        let valueText = String(text[text.index(after: eq)...]).trimmingCharacters(in: .whitespaces)
        var arm: String?
        for prefix in ["off.", "on."] where key.hasPrefix(prefix) {
            arm = String(prefix.dropLast())
            key = String(key.dropFirst(prefix.count))
        }
        let known = CheckMetrics.allKeys
        guard known.contains(key) else {
            throw CheckInputError("--tolerance: unknown metric '\(key)'; the metrics are \(known.joined(separator: ", ")) (prefix with off. or on. for one arm)")
        }
        let isPercent = valueText.hasSuffix("%")
        let numberText = isPercent ? String(valueText.dropLast()).trimmingCharacters(in: .whitespaces) : valueText
        // A latency takes a duration with units (`50ms`, `1m30s`), as every duration in PushSim does.
        let isLatency = key.hasPrefix("latency_s.") || key.hasPrefix("latency_seen_s.")
        if isLatency && !isPercent && Double(numberText) == nil {
            do {
                let time = try ValueParsers.duration(numberText)
                return CheckTolerance(arm: arm, key: key, amount: .absolute(Double(time.microseconds) / 1e6))
            } catch {
                throw CheckInputError("--tolerance \(key): \(error.message) (or seconds as a number, or a % of the baseline), got '\(valueText)'")
            }
        }
        guard let number = Double(numberText), number.isFinite, number >= 0 else {
            throw CheckInputError("--tolerance \(key): expected a number ≥ 0, optionally with %\(isLatency ? ", or a duration such as 50ms" : ""), got '\(valueText)'")
        }
        return CheckTolerance(arm: arm, key: key, amount: isPercent ? .relative(number / 100) : .absolute(number))
    }
}

/// What one metric did.
/// The raw values are the words the text report prints (`--json` says what the table says).
package enum CheckVerdict: String, Sendable {
    case identical
    /// Changed, but within its tolerance either way.
    case within = "ok"
    /// Improved beyond its tolerance: reported, never a failure.
    case better
    /// Got worse beyond its tolerance: a regression.
    case worse
    /// A metric that is reported only (`letters`, `events`) and changed.
    case changed = "reported"
}

/// One row of a check: an arm's metric, then and now.
package struct CheckRow: Sendable {
    package var arm: String
    package var metric: CheckMetric
    package var baseline: Double
    package var now: Double
    /// How far the metric may move in its worse direction: `noise + margin`; nil for
    /// reported-only metrics.
    package var tolerance: Double?
    /// "statistical" (noise only), "statistical+given" (a --tolerance added) or
    /// "statistical+default" (the metric's default margin added); nil for reported-only metrics.
    package var toleranceSource: String?
    /// The statistical part: how far chance alone moves the metric (z standard errors, paired
    /// or independent, see ``CheckPairing``).
    package var noise: Double = 0
    /// The practical part a team sets (--tolerance) or the default margin.
    package var margin: Double = 0
    package var verdict: CheckVerdict
    /// The smallest change in the worse direction this check catches four times in five at
    /// this size: the tolerance plus 0.84 standard errors (the noise is z of them). nil where
    /// the noise is not a standard error (the maximum's rank rule, reported-only metrics).
    package var detectable: Double? {
        guard let tolerance, metric.kind != .latencyMax, metric.kind != .work else { return nil }
        return tolerance + CheckComparison.powerQuantile * noise / CheckComparison.z
    }
    /// Whether the scenario is too small to see a change of the margin the team set
    /// (`--tolerance`): the noise alone is wider than it, so a change of the margin passes
    /// unseen and only one of several times the margin is caught.
    package var tooSmallForMargin: Bool {
        toleranceSource == "statistical+given" && margin > 0 && noise > margin && detectable != nil
    }
    /// About how many times the devices would bring the noise down to the margin (standard
    /// errors of rates shrink as 1/√N; a count's change grows as N while its noise grows as √N).
    package var devicesFactorForMargin: Double { margin > 0 ? (noise / margin) * (noise / margin) : .infinity }
    package var change: Double { now - baseline }
    /// `arm.metric`, the name messages and `--tolerance` use.
    package var name: String { "\(arm).\(metric.key)" }
}

/// The outcome of a whole check.
/// The raw values are the text report's closing words (`identical:`, `ok:`, `REGRESSION:`).
package enum CheckOutcome: String, Sendable {
    case identical, pass = "ok", regression
}

package enum CheckComparison {
    /// Standard errors a change may span before it counts: one-sided P ≈ 3·10⁻⁵ under an
    /// unchanged model, so the ~200 metrics of the bundled scenarios give a false alarm on a
    /// reseed well under 1 % of the time, while a shift of ~6 standard errors is caught.
    package static let z = 4.0
    /// The standard normal's 80th percentile: a change of tolerance + 0.84 standard errors is
    /// caught with probability 0.8 (the power `check` reports its smallest detectable change at).
    package static let powerQuantile = 0.8416

    /// Reads a baseline file (`pushsim run`'s summary.json or `--json` output).
    /// The most bytes a baseline may have: a summary.json is a few kilobytes.
    package static let maxBaselineBytes = 16 << 20

    /// Reads a baseline file (`pushsim run`'s summary.json or `--json` output). Baselines are
    /// untrusted input: the size is capped, and every metric must be a finite number in its
    /// range (``checkRanges(_:source:)``), so no later conversion can trap.
    package static func readBaseline(path: String) throws -> CheckSnapshot {
        let bytes: [UInt8]
        do { bytes = try BoundedInput.read(path: path, limit: maxBaselineBytes) } catch {
            if error == .missing {
                throw CheckInputError("\(path): no such baseline; make one with `pushsim run FILE` (it writes results/<name>/summary.json) or `pushsim check FILE --update`", isMissingBaseline: true)
            }
            throw CheckInputError("\(path): cannot read the baseline: \(error.reason)")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw CheckInputError("\(path): the baseline is not UTF-8 text")
        }
        let json: JSONValue
        do { json = try JSONValue.parse(text) } catch {
            throw CheckInputError("\(path): not valid JSON: \(error)")
        }
        let snapshot = try CheckSnapshot(json: json, source: path)
        try checkRanges(snapshot, source: path)
        return snapshot
    }

    /// The largest count a baseline may hold: 2⁵³, where doubles stop being exact integers
    /// (no run comes near it: that is 10¹⁵ devices' worth of letters).
    package static let maxCount = 9_007_199_254_740_992.0
    /// The largest latency in seconds: the clock's range, 2⁶³ − 1 µs.
    package static let maxSeconds = 9_223_372_036_854.775807

    /// Refuses a metric that is not finite, is negative, or is past what a run can produce:
    /// counts whole and at most 2⁵³, rates at most 2⁵³ too, latencies at most the clock's range.
    /// The message names the metric by its key path in the document.
    package static func checkRanges(_ snapshot: CheckSnapshot, source: String) throws {
        for (n, arm) in snapshot.arms.enumerated() {
            for metric in CheckMetrics.catalogue(arm.arm) {
                guard let value = arm.values[metric.key] else { continue }
                let isLatency: Bool, isCount: Bool
                switch metric.kind {
                case .count, .work, .loadPeak: (isLatency, isCount) = (false, true)
                case .rate, .share: (isLatency, isCount) = (false, false)
                case .latencyQuantile, .latencyMax: (isLatency, isCount) = (true, false)
                }
                let limit = isLatency ? maxSeconds : maxCount
                guard value.isFinite, value >= 0, value <= limit, !isCount || value == value.rounded() else {
                    throw CheckInputError("\(source): `runs[\(n)].\(metric.key)`: expected \(isCount ? "a whole number" : "a number") "
                        + "from 0 to \(isLatency ? "9223372036854.775807 (the clock's range in seconds)" : "2^53"), found \(JSONValue.format(value))")
                }
            }
        }
    }

    /// The percentile thresholds of each arm of `baseline`, for `CheckRun.run`.
    package static func thresholds(_ baseline: CheckSnapshot) -> [CheckThresholds] {
        baseline.arms.map { arm in
            CheckThresholds(quantileMicroseconds: CheckMetrics.latencySlots.map { q in
                let seconds = arm.values[q.key] ?? 0
                let micro = (seconds * 1e6).rounded()
                return micro.isFinite && micro > 0 ? Int64(min(micro, 9e18)) : 0
            })
        }
    }

    /// Checks that `baseline` can be compared with a run of `scenario` (same name, same arms).
    package static func validate(_ baseline: CheckSnapshot, path: String, scenario: Scenario) throws {
        guard baseline.scenario == scenario.name else {
            throw CheckInputError("\(path): the baseline is of scenario '\(baseline.scenario)', but the scenario file is '\(scenario.name)'")
        }
        let arms = scenario.arms.map(\.rawValue)
        guard baseline.arms.map(\.queue) == arms else {
            throw CheckInputError("\(path): the baseline has the arms \(baseline.arms.map(\.queue).joined(separator: ", ")) but the scenario runs \(arms.joined(separator: ", ")) (was queue.mode changed?)")
        }
    }

    /// Compares a fresh run (with the spread its devices showed) with a baseline. `paired`:
    /// the per-device differences from the baseline's replay when the runs could be paired
    /// (``CheckPairing``), nil for independent runs (then `pairing` says why).
    package static func compare(baseline: CheckSnapshot, baselinePath: String, now result: RunResult,
                               spreads: [CheckSpread], paired: [PairedSpread]? = nil,
                               pairing: CheckPairing = .independent("the baseline was not replayed"),
                               tolerances: [CheckTolerance] = []) throws -> CheckReport {
        let now = try CheckSnapshot(json: result.json, source: "this run")
        guard now.scenario == baseline.scenario, now.arms.map(\.queue) == baseline.arms.map(\.queue) else {
            throw CheckInputError("\(baselinePath): the baseline's scenario or arms differ from this run's")
        }
        var rows: [CheckRow] = []
        for (a, arm) in now.arms.enumerated() {
            let base = baseline.arms[a]
            let spread = a < spreads.count ? spreads[a] : CheckSpread()
            let pairs = paired.flatMap { a < $0.count ? $0[a] : nil }
            let ledger = result.arms[a].ledger
            // The size must match before counts can be compared at all.
            let lettersNow = arm.values["letters"] ?? 0, lettersThen = base.values["letters"] ?? 0
            // Letters are Poisson per device, so never less scatter than √letters (a few devices).
            let lettersTolerance = z * 2.squareRoot() * max(spread.countStandardError(0), max(lettersNow, 1).squareRoot())
            if pairs == nil, abs(lettersNow - lettersThen) > max(lettersTolerance, 0.5) {
                throw CheckInputError("\(baselinePath): the baseline's queue-\(arm.queue) arm has \(Int(lettersThen)) letters, this run \(Int(lettersNow)) — more apart than chance allows (±\(Int(lettersTolerance.rounded()))): the baseline was made at another size (devices, duration or mail.rate); compare like with like, or rewrite it on purpose with --update")
            }
            for metric in CheckMetrics.catalogue(arm.arm) {
                if metric.absentSkips && (base.values[metric.key] == nil || arm.values[metric.key] == nil) { continue }
                // Peaks of bins of another width (`run --load-bin`) are other quantities.
                if metric.kind == .loadPeak && base.loadBinSeconds != arm.loadBinSeconds { continue }
                let b = base.values[metric.key] ?? 0, n = arm.values[metric.key] ?? 0
                var row = CheckRow(arm: arm.queue, metric: metric, baseline: b, now: n, tolerance: nil,
                                   toleranceSource: nil, verdict: .identical)
                // A seen percentile's tolerance is read on the seen latency's own distribution.
                let histogram = metric.isSeenLatency ? ledger.focusSummary.seenLatency ?? ledger.latency : ledger.latency
                if metric.direction != .reportedOnly {
                    let total = shareTotal(metric, ledger)
                    // A maximum over devices or bins has no per-device difference to pair.
                    let pairedValue = metric.kind != .latencyMax && metric.kind != .loadPeak ? pairs.map { pairedNoise(metric, pairs: $0, histogram: histogram, shareTotal: total) } : nil
                    row.noise = pairedValue ?? statistical(metric, spread: spread, histogram: histogram, baseline: b,
                                                           baselineValues: base.values, shareTotal: total)
                    let given = tolerances.last { $0.key == metric.key && ($0.arm == nil || $0.arm == arm.queue) }
                    let amount = given?.amount ?? CheckMargins.defaultMargin(metric)
                    switch amount {
                    case .absolute(let t): row.margin = t
                    case .relative(let f): row.margin = f * abs(b)
                    }
                    row.tolerance = row.noise + row.margin
                    row.toleranceSource = given != nil ? "statistical+given" : row.margin > 0 ? "statistical+default" : "statistical"
                }
                row.verdict = verdict(metric, baseline: b, now: n, tolerance: row.tolerance,
                                      oneSided: metric.kind == .latencyMax)
                rows.append(row)
            }
        }
        return CheckReport(scenario: result.scenario, baselinePath: baselinePath, baselineSeed: baseline.seed,
                           seed: result.seed, rows: rows, pairing: pairing)
    }

    /// The noise of a metric when the runs are paired device by device: z standard errors of
    /// the per-device differences (for a percentile: of the fraction at or below the baseline's
    /// value, turned into seconds on this run's distribution, plus one histogram bucket). The
    /// maximum keeps its rank rule (``statistical(_:spread:histogram:baseline:baselineValues:)``).
    static func pairedNoise(_ metric: CheckMetric, pairs: PairedSpread, histogram: LatencyHistogram, shareTotal: Double = 1) -> Double {
        switch metric.kind {
        case .count(let i): return z * pairs.countDifferenceStandardError(i)
        case .share(let i): return z * pairs.countDifferenceStandardError(i) / shareTotal
        case .rate(let i): return z * pairs.rateDifferenceStandardError(i)
        case .latencyQuantile(let slot):
            let q = CheckMetrics.latencySlots[slot].p
            let delta = z * pairs.belowDifferenceStandardError(slot)
            let here = Double(histogram.percentile(q))
            let above = Double(histogram.percentile(min(1, q + delta)))
            return (above - here + here / 128) / 1e6
        case .latencyMax, .work, .loadPeak:
            return 0
        }
    }

    /// The default tolerance of a metric: z standard errors of the difference of two
    /// independent runs of this size, the standard errors measured over devices.
    ///
    /// The baseline's own scatter is unknown (it holds totals only). It is taken as the larger
    /// of this run's and the least scatter the baseline's total allows: integers summing to B
    /// over N devices can all be equal only when N divides B, so Σ(c − c̄)² ≥ N·f·(1 − f), f
    /// the fractional part of B/N. That keeps a count that is the same on nearly every device
    /// (one summary per flight) from getting a tolerance of zero.
    static func statistical(_ metric: CheckMetric, spread: CheckSpread, histogram: LatencyHistogram,
                            baseline: Double, baselineValues: [String: Double], shareTotal: Double = 1) -> Double {
        func difference(_ now: Double, floor: Double) -> Double {
            let variance = now * now
            return z * (variance + max(variance, floor)).squareRoot()
        }
        let n = Double(spread.devices)
        func integerFloor(_ total: Double) -> Double {
            guard n > 1, total.isFinite else { return 0 }
            let f = (total / n) - (total / n).rounded(.down)
            return n * f * (1 - f) * n / (n - 1)
        }
        switch metric.kind {
        case .count(let i):
            return difference(spread.countStandardError(i), floor: integerFloor(baseline))
        case .share(let i):
            // The share moves by the complement count's change over the total: the count's
            // noise (with the baseline count's integer floor), divided by this run's total.
            let count = baselineValues[CheckMetrics.countKeys[i]] ?? 0
            return difference(spread.countStandardError(i), floor: integerFloor(count)) / shareTotal
        case .rate(let i):
            let letters = Double(spread.sum[0])
            let count = baselineValues[CheckMetrics.countKeys[i]] ?? 0
            return difference(spread.rateStandardError(i), floor: letters > 0 ? integerFloor(count) / (letters * letters) : 0)
        case .latencyQuantile(let slot):
            // Order statistic: the rank of p_q moves by δ = z·√2·se(F̂) under an unchanged
            // model, so the tolerance is how far this run's own distribution climbs from q
            // to q + δ; plus one histogram bucket (1/128) for the bucketing of both values.
            let q = CheckMetrics.latencySlots[slot].p
            let delta = z * 2.squareRoot() * spread.belowStandardError(slot)
            let here = Double(histogram.percentile(q))
            let above = Double(histogram.percentile(min(1, q + delta)))
            return (above - here + here / 128) / 1e6
        case .latencyMax:
            // A sample maximum has no standard error. Rule: worse when at least 15 devices now
            // have a letter slower than the baseline's slowest; with the model unchanged that
            // happens with probability ≈ 2⁻¹⁵ ≈ 3·10⁻⁵ (the same as z = 4). As a distance in
            // seconds: this run's maximum minus its 15th-largest device maximum.
            let top = spread.topDeviceMaxima
            guard top.count >= CheckSpread.topCount, let first = top.first, let last = top.last else {
                return Double(histogram.maximum) / 1e6   // too few devices to say anything
            }
            return Double(first - last) / 1e6
        case .loadPeak:
            // The peak bin's count is a count in one bin: Poisson, so two runs' peaks differ by
            // √(2·peak) standard errors' worth. Taken without pairing (the busiest bin of two
            // runs need not be the same bin), which only widens it.
            return z * (2 * max(baseline, 1)).squareRoot()
        case .work:
            return 0
        }
    }

    /// The total a share metric divides by in this run (at least 1); 1 for every other metric.
    static func shareTotal(_ metric: CheckMetric, _ ledger: Ledger) -> Double {
        guard case .share = metric.kind, let share = Ledger.checkedShares.first(where: { $0.jsonPath == metric.key }) else { return 1 }
        return Double(max(1, ledger[keyPath: share.share.numerator] + ledger[keyPath: share.share.complement]))
    }

    /// `oneSided`: the tolerance only bounds the worse direction (the maximum's rule), so no
    /// improvement can be claimed from it.
    static func verdict(_ metric: CheckMetric, baseline: Double, now: Double, tolerance: Double?,
                        oneSided: Bool = false) -> CheckVerdict {
        if now == baseline { return .identical }
        guard let tolerance, metric.direction != .reportedOnly else { return .changed }
        let worsening = metric.direction == .upIsWorse ? now - baseline : baseline - now
        if worsening > tolerance { return .worse }
        if -worsening > tolerance && !oneSided { return .better }
        return .within
    }
}
