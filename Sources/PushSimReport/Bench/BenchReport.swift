// The bench's report: the ladder as JSON and as a table, the goals in docs/performance.md, and the baseline check.
import Foundation
import PushSimExperiment

/// Everything one `pushsim bench` measured.
package struct BenchReport: Sendable {
    package var repetitions: Int
    package var rungs: [BenchRungResult]
    /// The largest rung again on every core, when the machine has more than one.
    package var parallel: BenchRungResult?
    package var cores: Int
    /// The machine's 1-minute load average before and after (Linux), a hint of how noisy the
    /// timings are: other processes on a shared machine inflate wall-clock times.
    package var loadAverage: (before: Double, after: Double) = (0, 0)
    /// The machine it ran on (`run` records it): figures hold for that machine only.
    package var machine: BenchMachine? = nil

    package init(repetitions: Int, rungs: [BenchRungResult], parallel: BenchRungResult?, cores: Int) {
        self.repetitions = repetitions
        self.rungs = rungs
        self.parallel = parallel
        self.cores = cores
    }

    /// Runs the ladder on one thread, then (when `parallelJobs` > 1) its largest rung on
    /// `parallelJobs` threads. `progress` hears about each rung as it starts.
    package static func run(ladder: [BenchRung], repetitions: Int, parallelJobs: Int,
                           progress: (String) -> Void = { _ in }) throws -> BenchReport {
        let loadBefore = BenchProcess.loadAverage()
        if let smallest = ladder.min(by: { $0.devices < $1.devices }) {
            // Untimed runs first, for at least a second, so the first rung does not pay for
            // what a process pays once (page faults on fresh memory, lazily built tables) nor
            // for the processor's clock ramping up under load: on this machine the first
            // half-second of a rung ran 15–20 % slower than the same rung measured later.
            progress("warm-up: \(smallest.name), untimed, for a second")
            let start = DispatchTime.now().uptimeNanoseconds
            repeat {
                _ = try Bench.measure(smallest, repetitions: 1, jobs: 1)
            } while DispatchTime.now().uptimeNanoseconds - start < 1_000_000_000
        }
        var rungs: [BenchRungResult] = []
        for rung in ladder {
            progress("\(rung.name): \(rung.devices) devices × \(rung.days) d, \(repetitions)× on 1 thread")
            rungs.append(try Bench.measure(rung, repetitions: repetitions, jobs: 1))
        }
        var parallel: BenchRungResult?
        if parallelJobs > 1, let largest = ladder.max(by: { $0.devices < $1.devices }) {
            progress("\(largest.name): again on \(parallelJobs) threads")
            parallel = try Bench.measure(largest, repetitions: repetitions, jobs: parallelJobs)
        }
        var report = BenchReport(repetitions: repetitions, rungs: rungs, parallel: parallel, cores: parallelJobs)
        report.loadAverage = (loadBefore, BenchProcess.loadAverage())
        report.machine = .current
        return report
    }

    /// The speed-up of the parallel run over the same rung on one thread (medians).
    package var parallelSpeedup: Double? {
        guard let parallel, let single = rungs.first(where: { $0.rung == parallel.rung }),
              parallel.medianSeconds > 0 else { return nil }
        return single.medianSeconds / parallel.medianSeconds
    }

    /// Memory each extra device costs: the slope of peak resident memory between the smallest
    /// and the largest rung, in bytes per device. Fixed costs (the program, per-thread ledgers)
    /// cancel out, which the plain per-rung ratio does not do at small sizes.
    package var marginalBytesPerDevice: Double? {
        guard let small = rungs.min(by: { $0.rung.devices < $1.rung.devices }),
              let large = rungs.max(by: { $0.rung.devices < $1.rung.devices }),
              large.rung.devices > small.rung.devices else { return nil }
        return Double(large.peakResidentBytes - small.peakResidentBytes) / Double(large.rung.devices - small.rung.devices)
    }

    // MARK: JSON

    static func round(_ x: Double, _ digits: Int) -> Double {
        let scale = pow(10.0, Double(digits))
        return (x * scale).rounded() / scale
    }

    static func rungJSON(_ r: BenchRungResult) -> JSONValue {
        .object([
            "name": .string(r.rung.name), "devices": .int(r.rung.devices), "days": .int(r.rung.days),
            "jobs": .int(r.jobs), "repetitions": .int(r.samples.count),
            "events": .int(r.events), "letters": .int(r.letters),
            "seconds": .array(r.samples.map { .double(round($0.seconds, 4)) }),
            "seconds_median": .double(round(r.medianSeconds, 4)),
            "cpu_seconds_median": .double(round(r.medianCPUSeconds, 4)),
            "events_per_s": .int(Int(r.eventsPerSecond.rounded())),
            "events_per_cpu_s": .int(Int(r.eventsPerCPUSecond.rounded())),
            "cpu_seconds": .array(r.samples.map { .double(round($0.cpuSeconds, 4)) }),
            "letters_per_cpu_s": .int(Int(r.lettersPerCPUSecond.rounded())),
            "ns_per_event": .double(round(r.nanosecondsPerEvent, 2)),
            "letters_per_s": .int(Int(r.lettersPerSecond.rounded())),
            "peak_rss_bytes": .int(r.peakResidentBytes),
            "bytes_per_device": .double(round(r.bytesPerDevice, 1)),
        ])
    }

    /// The goals in docs/performance.md, each with the figure measured against it.
    package var goals: JSONValue {
        var goals: [String: JSONValue] = [:]
        let slowest = rungs.map(\.eventsPerSecond).min() ?? 0
        let slowestCPU = rungs.map(\.eventsPerCPUSecond).min() ?? 0
        goals["events_per_s_one_core"] = .object(["goal": .int(10_000_000), "measured_min": .int(Int(slowest.rounded())),
                                                  "measured_min_per_cpu_s": .int(Int(slowestCPU.rounded())),
                                                  "met": .bool(slowest >= 10_000_000)])
        let slowestLetters = rungs.map(\.lettersPerSecond).min() ?? 0
        let ratio = slowestLetters / SimPyReference.lettersPerSecond
        goals["letters_per_s_vs_simpy"] = .object(["goal": .int(100), "measured_min": .double(BenchReport.round(ratio, 1)),
                                                   "met": .bool(ratio >= 100)])
        if let small = rungs.min(by: { $0.rung.devices < $1.rung.devices }),
           let large = rungs.max(by: { $0.rung.devices < $1.rung.devices }), small.nanosecondsPerEvent > 0 {
            let growth = large.nanosecondsPerEvent / small.nanosecondsPerEvent
            goals["ns_per_event_largest_over_smallest"] = .object([
                "goal": .double(1.5), "measured": .double(BenchReport.round(growth, 2)),
                "rungs": .string("\(large.rung.name) / \(small.rung.name)"), "met": .bool(growth <= 1.5)])
        }
        if let bytes = marginalBytesPerDevice {
            goals["bytes_per_device"] = .object([
                "goal": .int(256), "measured_marginal": .double(BenchReport.round(bytes, 1)),
                "how": .string("slope of peak RSS between the smallest and the largest rung"),
                "met": .bool(bytes <= 256)])
        }
        if let million = rungs.first(where: { $0.rung.devices >= 1_000_000 }) {
            let limit = 2 << 30
            goals["million_devices_peak_rss_bytes"] = .object(["goal": .int(limit), "measured": .int(million.peakResidentBytes),
                                                                "met": .bool(million.peakResidentBytes < limit)])
        }
        if let speedup = parallelSpeedup {
            goals["parallel_speedup"] = .object(["goal": .double(1.8), "measured": .double(BenchReport.round(speedup, 2)),
                                                 "jobs": .int(cores), "met": .bool(speedup >= 1.8)])
        }
        return .object(goals)
    }

    package var json: JSONValue {
        var object: [String: JSONValue] = [
            "format": .string(BenchReport.benchFormat),
            "command": .string("swift run -c release pushsim bench --json --million > results/bench.json"),
            "workload": .string(rungs.first?.rung.file == nil ? "Bench.workload: commuters-like chain, realistic latencies, both arms, seed 1" : workloadLine),
            "statistic": .string("median of repetitions (wall clock; *_cpu_s from the process's CPU time, which --baseline gates on); letters counted once though both arms simulate them"),
            "repetitions": .int(repetitions),
            "cores": .int(cores),
            "load_average_1min": .object(["before": .double(BenchReport.round(loadAverage.before, 2)),
                                          "after": .double(BenchReport.round(loadAverage.after, 2))]),
            "rungs": .array(rungs.map(BenchReport.rungJSON)),
            "reference_simpy": .object([
                "letters_per_s": .int(Int(SimPyReference.lettersPerSecond)),
                "scenario": .string(SimPyReference.scenario),
                "measured_by": .string(SimPyReference.measuredBy),
                "measured_on": .string(SimPyReference.measuredOn),
            ]),
            "goals": goals,
        ]
        if let machine { object["machine"] = machine.json }
        if let parallel {
            var p = BenchReport.rungJSON(parallel)
            if case .object(var members) = p, let speedup = parallelSpeedup {
                members["speedup_over_one_thread"] = .double(BenchReport.round(speedup, 2))
                p = .object(members)
            }
            object["parallel"] = p
        }
        return .object(object)
    }

    // MARK: Table

    /// What ran: the bench workload and its days, or the user's scenario file.
    var workloadLine: String {
        if let file = rungs.first?.rung.file { return "\(file.path) (scenario '\(file.scenarioName)')" }
        return "bench workload × \(rungs.first?.rung.days ?? 7) simulated days"
    }

    package var table: String {
        func fixed(_ x: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", x) }
        func mega(_ x: Double) -> String { fixed(x / 1e6, 2) + " M" }
        var rows = [["rung", "jobs", "events", "events/s", "events/CPU-s", "ns/event", "letters/s", "peak RSS", "bytes/device", "×SimPy letters"]]
        for r in rungs + (parallel.map { [$0] } ?? []) {
            rows.append([r.rung.name, "\(r.jobs)", "\(r.events)", mega(r.eventsPerSecond), mega(r.eventsPerCPUSecond), fixed(r.nanosecondsPerEvent, 1),
                         mega(r.lettersPerSecond), fixed(Double(r.peakResidentBytes) / 1_048_576, 1) + " MiB",
                         fixed(r.bytesPerDevice, 1), fixed(r.lettersPerSecond / SimPyReference.lettersPerSecond, 0) + "×"])
        }
        let widths = (0..<rows[0].count).map { c in rows.map { $0[c].count }.max() ?? 0 }
        var out = "pushsim bench · median of \(repetitions) repetition\(repetitions == 1 ? "" : "s") · \(workloadLine)\n\n"
        for row in rows {
            out += row.enumerated().map { i, cell in
                let pad = String(repeating: " ", count: widths[i] - cell.count)
                return i == 0 ? cell + pad : pad + cell
            }.joined(separator: "   ") + "\n"
        }
        out += "\n"
        if let bytes = marginalBytesPerDevice {
            out += "memory per extra device (peak RSS slope over the ladder): \(fixed(bytes, 1)) bytes (goal ≤ 256)\n"
        }
        if let speedup = parallelSpeedup { out += "speed-up on \(cores) threads: \(fixed(speedup, 2))× (goal ≥ 1.8×)\n" }
        out += String(format: "load average (1 min): %.2f before, %.2f after; other processes inflate wall-clock figures\n",
                      loadAverage.before, loadAverage.after)
        if let machine { out += "machine: \(machine.summary)\n" }
        out += SimPyReference.line + "\n"
        return out
    }

    // MARK: Baseline

    /// One rung compared with a baseline.
    package struct Comparison: Sendable {
        /// The rung's baseline key: its name, `NAME×JOBS` for the parallel rung.
        package var name: String
        /// Letters per CPU-second (or per wall-clock second when `clock` is `.wall`).
        package var baseline: Double
        package var now: Double
        /// Positive when slower than the baseline, in percent (letters).
        package var dropPercent: Double
        /// Events per CPU-second's drop, when both sides have it and ran the same events (else
        /// the figures mean different work and are not compared).
        package var eventsDropPercent: Double?
        package var clock: BenchClock
        package var regressed: Bool
    }

    /// Compares rung by rung (the parallel rung too) with a saved `pushsim bench --json`
    /// document. Throws when the baseline is not a bench document or shares no rung.
    package func compare(baselineText: String, source: String, tolerancePercent: Double) throws -> [Comparison] {
        let baseline = try BenchReport.baseline(baselineText, source: source, ladder: baselineKeys)
        return compare(baseline: baseline, tolerancePercent: tolerancePercent)
    }

    /// The keys this report's rungs are matched by, the parallel rung's last.
    package var baselineKeys: [String] { (rungs + (parallel.map { [$0] } ?? [])).map(\.baselineKey) }

    /// Compares with a baseline read by ``baseline(_:source:ladder:)``. A rung regressed when
    /// its CPU time per letter grew by more than `tolerancePercent` — letters per CPU-second
    /// fell by more — or, when the event counts are equal, its CPU time per event did (the two
    /// then move together; with unequal counts events mean different work, and only letters,
    /// what a user waits for, are gated). CPU time, not wall time: on a shared machine other
    /// processes stretch the wall clock (two busy ones beside it: −67 % letters/s) while the
    /// CPU time of the work stays put. A baseline rung without CPU figures (an older document)
    /// is compared by wall-clock letters/s, and the comparison says so.
    package func compare(baseline: [String: BenchBaselineRung], tolerancePercent: Double) -> [Comparison] {
        var comparisons: [Comparison] = []
        for r in rungs + (parallel.map { [$0] } ?? []) {
            guard let base = baseline[r.baselineKey] else { continue }
            if let baseCPU = base.lettersPerCPUSecond, baseCPU > 0, r.lettersPerCPUSecond > 0 {
                let drop = (1 - r.lettersPerCPUSecond / baseCPU) * 100
                var eventsDrop: Double?
                if let baseEvents = base.eventsPerCPUSecond, baseEvents > 0, base.events == r.events {
                    eventsDrop = (1 - r.eventsPerCPUSecond / baseEvents) * 100
                }
                comparisons.append(Comparison(name: r.baselineKey, baseline: baseCPU, now: r.lettersPerCPUSecond,
                                              dropPercent: drop, eventsDropPercent: eventsDrop, clock: .cpu,
                                              regressed: drop > tolerancePercent || (eventsDrop ?? 0) > tolerancePercent))
            } else if base.lettersPerSecond > 0 {
                let drop = (1 - r.lettersPerSecond / base.lettersPerSecond) * 100
                comparisons.append(Comparison(name: r.baselineKey, baseline: base.lettersPerSecond, now: r.lettersPerSecond,
                                              dropPercent: drop, eventsDropPercent: nil, clock: .wall,
                                              regressed: drop > tolerancePercent))
            }
        }
        return comparisons
    }

    /// The comparison as text for standard error (or after the table).
    /// `machineNote`: whether the baseline's machine is this one (``BenchMachine/comparisonNote(baseline:now:)``).
    package static func comparisonText(_ comparisons: [Comparison], source: String, tolerancePercent: Double,
                                       machineNote: String? = nil) -> String {
        var text = "\nagainst \(source) (medians; tolerance \(String(format: "%g", tolerancePercent)) %):\n"
        if let machineNote { text += "  " + machineNote }
        for c in comparisons {
            let unit = c.clock == .cpu ? "letters/CPU-s" : "letters/s (wall clock: the baseline has no CPU time)"
            let events = c.eventsDropPercent.map { String(format: "   events/CPU-s %+6.1f %%", -$0) } ?? ""
            // Padded here: `%-10@` does not pad on Linux's Foundation.
            let name = c.name.count < 10 ? c.name + String(repeating: " ", count: 10 - c.name.count) : c.name
            text += String(format: "  %@ baseline %7.2f M   now %7.2f M %@   %+6.1f %%%@   %@\n",
                           name as NSString, c.baseline / 1e6, c.now / 1e6, unit as NSString, -c.dropPercent,
                           events as NSString, (c.regressed ? "SLOWER beyond tolerance" : "ok") as NSString)
        }
        return text
    }

    /// Reads a saved `pushsim bench --json` document: each rung's figures by baseline key (the
    /// parallel rung as `NAME×JOBS`, from `parallel` or a spliced rung's `two_jobs`). Done
    /// before the ladder runs (`ladder`: its keys), so a file that is not a bench document, or
    /// shares no rung with the ladder, is refused at once rather than after minutes of timing.
    package static func baseline(_ text: String, source: String, ladder: [String]) throws -> [String: BenchBaselineRung] {
        let value: JSONValue
        do { value = try JSONValue.parse(text) } catch {
            throw BenchBaselineError(message: "\(source): not valid JSON (\(error))")
        }
        guard case .object(let top) = value, case .array(let baseRungs)? = top["rungs"] else {
            throw BenchBaselineError(message: "\(source): not a `pushsim bench --json` document (no \"rungs\" array)")
        }
        if let format = top["format"], format != .string(benchFormat) {
            throw BenchBaselineError(message: "\(source): `format`: expected \"\(benchFormat)\", found \(BenchReport.shortText(format)); a baseline is a document `pushsim bench --json` wrote")
        }
        var baseline: [String: BenchBaselineRung] = [:]
        let items = baseRungs.enumerated().map { ("rungs[\($0.offset)]", $0.element) } + (top["parallel"].map { [("parallel", $0)] } ?? [])
        for (path, item) in items {
            guard case .object(let rung) = item, case .string(let name)? = rung["name"] else {
                throw BenchBaselineError(message: "\(source): `\(path).name`: a rung without a \"name\"")
            }
            // A figure given must be a finite number ≥ 0 and below ``maxFigure``: a damaged one is refused, never read as absent.
            for key in figureKeys {
                if let figure = rung[key], !isFigure(figure) {
                    throw BenchBaselineError(message: "\(source): `\(path).\(key)`: expected a number from 0 to 10^15, found \(BenchReport.shortText(figure))")
                }
            }
            if case .object(let two)? = rung["two_jobs"] {
                for key in figureKeys {
                    if let figure = two[key], !isFigure(figure) {
                        throw BenchBaselineError(message: "\(source): `\(path).two_jobs.\(key)`: expected a number from 0 to 10^15, found \(BenchReport.shortText(figure))")
                    }
                }
            }
            guard let letters = number(rung["letters_per_s"]) else {
                throw BenchBaselineError(message: "\(source): rung '\(name)' has no numeric \"letters_per_s\"")
            }
            let jobs = number(rung["jobs"]).map { Int($0) } ?? 1
            let parsed = BenchBaselineRung(rung, lettersPerSecond: letters)
            baseline[BenchRungResult.baselineKey(name: name, jobs: jobs)] = parsed
            // A rung spliced in with its two-thread run beside it (results/bench.json's 100k-xiva).
            if case .object(var two)? = rung["two_jobs"], let seconds = number(two["seconds_median"]), seconds > 0,
               let lettersCount = number(rung["letters"]) {
                two["events"] = rung["events"]; two["letters"] = rung["letters"]
                baseline[BenchRungResult.baselineKey(name: name, jobs: 2)] =
                    BenchBaselineRung(two, lettersPerSecond: lettersCount / seconds)
            }
        }
        guard ladder.contains(where: { baseline[$0] != nil }) else {
            let theirs = baseline.keys.sorted().joined(separator: ", ")
            throw BenchBaselineError(message: "\(source): no rung in common with this ladder (\(ladder.joined(separator: ", "))); the baseline has \(theirs.isEmpty ? "none" : theirs)")
        }
        return baseline
    }

    /// The machine a saved bench document says it was measured on; nil when it does not say
    /// (read after ``baseline(_:source:ladder:)`` accepted the document).
    package static func baselineMachine(_ text: String) -> BenchMachine? {
        guard case .object(let top)? = try? JSONValue.parse(text) else { return nil }
        return BenchMachine.read(top["machine"])
    }

    /// The format a bench document names.
    static let benchFormat = "pushsim-bench/1"

    /// The figures of a rung a baseline is read for.
    static let figureKeys = ["letters_per_s", "letters_per_cpu_s", "events_per_cpu_s", "events", "letters", "jobs", "seconds_median"]

    /// The largest figure a baseline may give: a million times the fastest rung's letters a
    /// second; a larger one is damage, and would print hundreds of digits.
    static let maxFigure = 1e15

    static func isFigure(_ value: JSONValue) -> Bool {
        number(value).map { $0 >= 0 && $0 <= maxFigure } ?? false
    }

    /// A value as a message quotes it: at most 40 characters.
    static func shortText(_ value: JSONValue) -> String {
        let text = value.text
        return text.count <= 40 ? text : String(text.prefix(37)) + "…"
    }

    static func number(_ value: JSONValue?) -> Double? {
        switch value {
        case .int(let n)?: return Double(n)
        case .double(let d)?: return d.isFinite ? d : nil
        default: return nil
        }
    }
}

/// Which clock a bench comparison used.
package enum BenchClock: Sendable { case cpu, wall }

/// A baseline rung's figures. The CPU ones are absent from documents written before
/// `events_per_cpu_s`; `letters_per_cpu_s` is derived from it for documents before that field.
package struct BenchBaselineRung: Sendable, Equatable {
    package var lettersPerSecond: Double
    package var lettersPerCPUSecond: Double?
    package var eventsPerCPUSecond: Double?
    package var events: Int?

    package init(lettersPerSecond: Double, lettersPerCPUSecond: Double? = nil, eventsPerCPUSecond: Double? = nil, events: Int? = nil) {
        self.lettersPerSecond = lettersPerSecond; self.lettersPerCPUSecond = lettersPerCPUSecond
        self.eventsPerCPUSecond = eventsPerCPUSecond; self.events = events
    }

    init(_ rung: [String: JSONValue], lettersPerSecond: Double) {
        let events = BenchReport.number(rung["events"]).map { Int($0) }
        let eventsPerCPU = BenchReport.number(rung["events_per_cpu_s"])
        var lettersPerCPU = BenchReport.number(rung["letters_per_cpu_s"])
        if lettersPerCPU == nil, let eventsPerCPU, let events, events > 0, let letters = BenchReport.number(rung["letters"]) {
            lettersPerCPU = eventsPerCPU * letters / Double(events)
        }
        self.init(lettersPerSecond: lettersPerSecond, lettersPerCPUSecond: lettersPerCPU,
                  eventsPerCPUSecond: eventsPerCPU, events: events)
    }
}

/// Why a bench baseline could not be used (exit status 2).
package struct BenchBaselineError: Error, CustomStringConvertible, Sendable {
    package var message: String
    package var description: String { message }
}
