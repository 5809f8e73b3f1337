// `pushsim bench`: time the ladder of workloads; compare with a saved baseline for CI.
import Foundation
import PushSimScenarioFile
import PushSimExperiment
import PushSimReport

enum BenchCommand {
    static let spec = CommandSpec(
        name: "bench", summary: "time a ladder of workloads (events/s, ns/event, memory); --baseline for CI",
        operands: "",
        about: """
        Runs the bench workload (the commuters chain: realistic latencies, both arms) at 1 000,
        10 000 and 100 000 devices × 7 simulated days on one thread, then the largest rung on
        every core, and prints per rung: events, events/s, ns/event, simulated letters/s, peak
        resident memory and bytes per device. Figures are medians of the repetitions, after a
        second of untimed warm-up runs of the smallest rung. Build in release mode:
        swift run -c release pushsim bench
        """,
        options: [
            CommandOption.json.help("print the report as JSON (results/bench.json is this output)"),
            CommandOption("baseline", .value("FILE"), help: """
                compare letters/s with a saved `bench --json`; exit 1 when a rung is
                slower than the baseline by more than the tolerance
                """),
            CommandOption("tolerance", .value("PCT"), default: .value("10"), help: """
                allowed drop of letters/s, in percent; timing is noisy,
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
            CommandOption("days", .value("N"), default: .value("7"), range: 1...3650, help: "simulated days per rung"),
            CommandOption.jobs.help("threads for the parallel rung; 1 skips it"),
        ] + ResourceGuard.options,
        notes: "--max-events and --max-memory apply to each rung × its repetitions, and --max-events to the whole ladder.",
        examples: [
            "swift run -c release pushsim bench --json --million > results/bench.json",
            "pushsim bench --quick --baseline results/bench.json --tolerance 20",
        ],
        run: run)

    static func run(_ arguments: Arguments, _ console: Console) throws -> Int32 {
        guard arguments.positionals.isEmpty else {
            throw InputError.usage("bench takes no FILE: it runs its own workload (see --devices and --days)")
        }
        let repetitions = try arguments.integerWithDefault("repetitions")
        let days = try arguments.integerWithDefault("days")
        let jobs = try arguments.integer("jobs") ?? ScenarioInput.defaultJobs
        let toleranceText = try arguments.valueWithDefault("tolerance")
        let trimmed = toleranceText.hasSuffix("%") ? String(toleranceText.dropLast()) : toleranceText
        guard let tolerance = Double(trimmed), tolerance.isFinite, tolerance >= 0, tolerance < 100 else {
            throw InputError.usage("--tolerance needs a percentage from 0 to 100, got '\(toleranceText)'")
        }
        var ladder = BenchRung.ladder(quick: arguments.flag("quick"), million: arguments.flag("million"))
        if let list = arguments.value("devices") {
            let sizes = list.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
            guard !sizes.isEmpty, sizes.allSatisfy({ ($0 ?? 0) >= 1 && ($0 ?? 0) <= 100_000_000 }) else {
                throw InputError.usage("--devices needs a comma-separated list of device counts from 1 to 100000000, got '\(list)'")
            }
            ladder = sizes.map { BenchRung(devices: $0 ?? 1) }
        }
        if arguments.flag("realistic") && arguments.value("devices") == nil { ladder = [BenchRung(devices: 10_000)] }
        if (arguments.flag("coupled") || arguments.flag("binary")) && arguments.value("devices") == nil {
            ladder = [BenchRung(devices: 100_000)]
        }
        ladder = ladder.map { BenchRung(devices: $0.devices, days: days, realistic: arguments.flag("realistic"),
                                        coupled: arguments.flag("coupled"), binary: arguments.flag("binary")) }
        // Read and check the baseline first: a missing or bad file is refused at once, not
        // after minutes of timing.
        var baseline: [String: Double]?
        if let path = arguments.value("baseline") {
            let text: String
            do { text = String(decoding: try BoundedInput.read(path: path, limit: CheckComparison.maxBaselineBytes), as: UTF8.self) }
            catch { throw InputError.usage("--baseline: cannot read '\(path)': \(error.reason)") }
            do { baseline = try BenchReport.baseline(text, source: path, ladder: ladder.map(\.name)) }
            catch let error as BenchBaselineError { throw InputError.refused("--baseline \(error.message)") }
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
            comparisonText = "\nagainst \(path) (letters/s, medians; tolerance \(String(format: "%g", tolerance)) %):\n"
            for c in comparisons {
                comparisonText += String(format: "  %-8@ baseline %7.2f M/s   now %7.2f M/s   %+6.1f %%   %@\n",
                                         c.name as NSString, c.baseline / 1e6, c.now / 1e6, -c.dropPercent,
                                         (c.regressed ? "SLOWER beyond tolerance" : "ok") as NSString)
            }
            if comparisons.contains(where: \.regressed) { status = 1 }
        }
        if arguments.flag("json") {
            console.out(report.json.prettyText + "\n")
            console.err(comparisonText)
        } else {
            console.out(report.table + comparisonText)
        }
        return status
    }
}
