// `pushsim bench`: time the ladder of workloads; compare with a saved baseline for CI.
import Foundation
import PushSimCore
import PushSimScenarioFile
import PushSimExperiment
import PushSimReport

enum BenchCommand {
    static let spec = CommandSpec(
        name: "bench", summary: "time a ladder of workloads (events/s, ns/event, memory); --baseline for CI",
        operands: "[FILE]",
        about: """
        Runs the bench workload (the commuters chain: realistic latencies, both arms) at 1 000,
        10 000 and 100 000 devices × 7 simulated days on one thread, then the largest rung on
        every core, and prints per rung: events, events/s, ns/event, simulated letters/s, peak
        resident memory and bytes per device. Figures are medians of the repetitions, after a
        second of untimed warm-up runs of the smallest rung. With FILE, benches that scenario
        instead (its devices and duration as written, or --devices / --days), on one thread and
        on every core. --baseline gates on CPU time per letter (and per event), which other
        processes on the machine do not inflate. Build in release mode:
        swift run -c release pushsim bench
        """,
        options: [
            CommandOption.json.help("print the report as JSON (results/bench.json is this output)"),
            CommandOption("baseline", .value("FILE"), help: """
                compare letters per CPU-second (and events per CPU-second) with a
                saved `bench --json`, rung by rung and the parallel rung; exit 1
                when one is slower by more than the tolerance. A baseline without
                CPU figures is compared by wall-clock letters/s, and says so
                """),
            CommandOption("tolerance", .value("PCT"), default: .value("10"), help: """
                allowed drop of letters/CPU-s, in percent; timing is noisy,
                so medians of several repetitions are compared
                """),
            CommandOption("repetitions", .value("N"), default: .value("3"), range: 1...1000, help: "repetitions per rung"),
            CommandOption("quick", .flag, help: "the 1 000 and 10 000 rungs only"),
            CommandOption("million", .flag, help: "add the 1 000 000-device rung (minutes, about 1 GiB less than 2)"),
            CommandOption("realistic", .flag, help: """
                the version-2 workload instead (segments, a daily profile, windows
                with spread, keep_older, duplicates), rungs named `10k-v2`; alone,
                the 10 000-device rung only
                """),
            CommandOption("coupled", .flag, help: """
                a finite XIVA capacity (200/s, 10 partitions, 20 s time-out), so
                each partition's devices run together; rungs named `100k-xiva`;
                alone, the 100 000-device rung only
                """),
            CommandOption("binary", .flag, help: """
                APNs' binary interface (10 connections of 2 000 writes/s, 0.1 %
                malformed, a buffer of 50), so every push stops its world; rungs named
                `100k-binary`; alone, the 100 000-device rung only
                """),
            CommandOption("devices", .value("N,N,…"), help: "a ladder of your own sizes instead"),
            CommandOption("days", .value("N"), default: .value("7"), range: 1...3650, help: "simulated days per rung (with FILE: its duration unless given)"),
            CommandOption.jobs.help("threads for the parallel rung; 1 skips it"),
        ] + ResourceGuard.options,
        notes: "--max-events and --max-memory apply to each rung × its repetitions, and --max-events to the whole ladder.",
        examples: [
            "swift run -c release pushsim bench --json --million > results/bench.json",
            "pushsim bench --quick --baseline results/bench.json --tolerance 20",
            "pushsim bench scenarios/commuters.yaml --json > commuters-bench.json",
        ],
        run: run)

    static func run(_ arguments: Arguments, _ console: Console) throws -> Int32 {
        guard arguments.positionals.count <= 1 else {
            throw InputError.usage("bench takes at most one scenario FILE, got \(arguments.positionals.count)")
        }
        let repetitions = try arguments.integerWithDefault("repetitions")
        let days = try arguments.integerWithDefault("days")
        let jobs = try arguments.integer("jobs") ?? ScenarioInput.defaultJobs
        let toleranceText = try arguments.valueWithDefault("tolerance")
        let trimmed = toleranceText.hasSuffix("%") ? String(toleranceText.dropLast()) : toleranceText
        guard let tolerance = Double(trimmed), tolerance.isFinite, tolerance >= 0, tolerance < 100 else {
            throw InputError.usage("--tolerance needs a percentage from 0 to 100, got '\(toleranceText)'")
        }
        var sizes: [Int]?
        if let list = arguments.value("devices") {
            let parsed = list.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
            guard !parsed.isEmpty, parsed.allSatisfy({ ($0 ?? 0) >= 1 && ($0 ?? 0) <= 100_000_000 }) else {
                throw InputError.usage("--devices needs a comma-separated list of device counts from 1 to 100000000, got '\(list)'")
            }
            sizes = parsed.map { $0 ?? 1 }
        }
        var ladder: [BenchRung]
        if let path = arguments.positionals.first {
            ladder = try fileLadder(path, sizes: sizes, days: arguments.given("days") ? days : nil, arguments)
        } else {
            ladder = BenchRung.ladder(quick: arguments.flag("quick"), million: arguments.flag("million"))
            if let sizes { ladder = sizes.map { BenchRung(devices: $0) } }
            if arguments.flag("realistic") && sizes == nil { ladder = [BenchRung(devices: 10_000)] }
            if (arguments.flag("coupled") || arguments.flag("binary")) && sizes == nil {
                ladder = [BenchRung(devices: 100_000)]
            }
            ladder = ladder.map { BenchRung(devices: $0.devices, days: days, realistic: arguments.flag("realistic"),
                                            coupled: arguments.flag("coupled"), binary: arguments.flag("binary")) }
        }
        // Read and check the baseline first: a missing or bad file is refused at once, not
        // after minutes of timing.
        var baseline: [String: BenchBaselineRung]?
        var baselineMachine: BenchMachine?
        if let path = arguments.value("baseline") {
            let text: String
            do { text = String(decoding: try BoundedInput.read(path: path, limit: CheckComparison.maxBaselineBytes), as: UTF8.self) }
            catch { throw InputError.usage("--baseline: cannot read '\(path)': \(error.reason)") }
            do { baseline = try BenchReport.baseline(text, source: path, ladder: baselineKeys(ladder, jobs: jobs)) }
            catch let error as BenchBaselineError { throw InputError.refused("--baseline \(error.message)") }
            baselineMachine = BenchReport.baselineMachine(text)
        }
        // A ladder of your own sizes can be far beyond the machine: estimate it before any work.
        let estimates = try ladder.map { rung -> (name: String, estimate: ResourceEstimate) in
            var estimate = ResourceEstimate(try Bench.scenario(rung), jobs: jobs)
            estimate.events *= Double(repetitions + 1)   // the repetitions, and the parallel run of the largest
            return ("bench \(rung.name) × \(repetitions) repetitions", estimate)
        }
        if let refusal = ResourceGuard.refusal(estimates, limits: try ResourceGuard.limits(arguments), what: "bench this ladder") {
            throw InputError.refused(refusal)
        }
        let interruption = Interruption.shared
        interruption.install()
        interruption.begin("the bench", total: 0, unit: "", consequence: "nothing was written")
        defer { interruption.end() }
        let report = try BenchReport.run(ladder: ladder, repetitions: repetitions, parallelJobs: jobs) { line in
            console.err("bench: \(line)\n")
        }
        var status: Int32 = 0
        var comparisonText = ""
        if let baseline, let path = arguments.value("baseline") {
            let comparisons = report.compare(baseline: baseline, tolerancePercent: tolerance)
            comparisonText = BenchReport.comparisonText(comparisons, source: path, tolerancePercent: tolerance,
                                                        machineNote: BenchMachine.comparisonNote(baseline: baselineMachine, now: report.machine ?? .current))
            if comparisons.contains(where: \.regressed) { status = 1 }
            // A gate that compared nothing passed nothing: no rung had a figure above 0 on both sides.
            if comparisons.isEmpty {
                throw InputError.refused("--baseline \(path): no rung could be compared (no rung of this ladder has letters per second above 0 in the baseline and now); a gate that compares nothing passes nothing: give a baseline `pushsim bench --json` wrote for this ladder")
            }
        }
        if arguments.flag("json") {
            console.out(report.json.prettyText + "\n")
            console.err(comparisonText)
        } else {
            console.out(report.table + comparisonText)
        }
        return status
    }

    /// The keys a baseline must share one of: every rung's name, and the parallel rung's.
    static func baselineKeys(_ ladder: [BenchRung], jobs: Int) -> [String] {
        var keys = ladder.map(\.name)
        if jobs > 1, let largest = ladder.max(by: { $0.devices < $1.devices }) {
            keys.append(BenchRungResult.baselineKey(name: largest.name, jobs: jobs))
        }
        return keys
    }

    /// `bench FILE`: the scenario as written (one rung named after it), or one rung per
    /// `--devices` size, for `--days` days when given. The file is read here, so a bad one is
    /// refused (file:line:column, exit 2) before anything runs.
    static func fileLadder(_ path: String, sizes: [Int]?, days: Int?, _ arguments: Arguments) throws -> [BenchRung] {
        for flag in ["quick", "million", "realistic", "coupled", "binary"] where arguments.flag(flag) {
            throw InputError.usage("--\(flag) picks the bench's own workload; with a scenario FILE give --devices and --days")
        }
        let limits = try ResourceGuard.limits(arguments)
        let scenario = try ScenarioLoader.load(path: path, overrides: days.map { ["duration=\($0)d"] } ?? [],
                                               traceMemoryLimit: limits.maxMemoryBytes)
        let writtenDays = Int((Double(scenario.duration.microseconds) / Double(SimTime.day)).rounded())
        return (sizes ?? [scenario.devices]).map { devices in
            BenchRung(file: BenchFile(path: path, scenarioName: scenario.name,
                                      devicesOverride: sizes == nil ? nil : devices, daysOverride: days),
                      devices: devices, days: days ?? writtenDays)
        }
    }
}
