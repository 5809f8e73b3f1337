// `pushsim capacity`: the least XIVA capacity per 1 000 phones of a partition that keeps a share of re-requests answered in time.
import Dispatch
import Foundation
import PushSimCore
import PushSimScenarioFile
import PushSimExperiment
import PushSimReport

enum CapacityCommand {
    static let spec = CommandSpec(
        name: "capacity", summary: "the least XIVA capacity per 1 000 phones that keeps re-requests answered in time",
        operands: "FILE",
        about: """
        Searches `xiva.capacity` seed by seed (common random numbers: every capacity on the same seeds) for
        the least capacity per 1 000 phones of a partition that keeps at least the target share of re-requests
        answered in time (`xiva_capacity.in_time_share`, docs/model.md §6): first the share with no capacity
        limit (what caps it: XIVA errors, extension time-outs), then halving or doubling to a bracket, then
        bisection to --resolution. Reports the mean of the seeds' answers with its 95 % interval, per 1 000
        phones, per partition (--partition-size) and for the whole fleet (--fleet), and writes capacity.json,
        capacity.md and its chart capacity.svg to DIR. The scenario runs queue arm only. Ctrl-C stops it at
        once (exit 130); the runs finished are kept beside DIR (.NAME.runs/) for --resume.
        """,
        options: [
            CommandOption("target", .value("in_time_share>=P"), default: .value("in_time_share>=0.99"), help: """
                the share of re-requests answered in time to keep: a
                fraction or a percentage (in_time_share>=0.99, in_time_share>=99%)
                """),
            CommandOption("replications", .value("N"), default: .value("3"), range: 2...1_000, help: """
                seeds, each searched on its own; the interval is over their answers
                """),
            CommandOption("start", .value("RATE"), default: .described("the file's capacity, else 10/s"), help: """
                the first capacity tried, per 1 000 phones of a partition (28/s)
                """),
            CommandOption("resolution", .value("P"), default: .value("0.5%"), help: """
                stop a seed's bisection when its bracket is narrower than this
                share of the capacity
                """),
            CommandOption("partition-size", .value("N"), default: .described("the scenario's devices / xiva.partitions"), help: """
                state the answer for partitions of N phones too (100000, 100k)
                """),
            CommandOption("fleet", .value("N"), help: """
                and for a fleet of N phones cut into such partitions (8M)
                """),
            CommandOption.set.help("override a key of the scenario (--set devices=20000)"),
            CommandOption.seed.help("the scenario seed the replication seeds derive from"),
            CommandOption("out", .value("DIR"), default: .described("results/<name>/"),
                          help: "where to write capacity.json, capacity.md and capacity.svg"),
            .noWrite,
            .resume,
            CommandOption.json.help("print capacity.json instead of capacity.md"),
            CommandOption.jobs.help("threads per run; never changes the result"),
        ] + ResourceGuard.options,
        notes: """
        --max-events and --max-memory bound one run. A search takes about 12 runs a seed, each of the
        whole scenario: use partitions of 1 000 phones and scale (the share depends on the capacity per phone).
        """,
        examples: ["pushsim capacity scenarios/thundering-herd.yaml --target in_time_share>=0.99 --partition-size 100k --fleet 8M"],
        run: run)

    static func run(_ arguments: Arguments, _ console: Console) throws -> Int32 {
        var (base, _) = try ScenarioInput.load(arguments)
        let jobs = try arguments.integer("jobs") ?? ScenarioInput.defaultJobs
        let limits = try ResourceGuard.limits(arguments)
        if base.queue.mode == .off {
            throw InputError.usage("capacity measures the queue arm's re-requests: '\(base.name)' has queue.mode off (give --set queue.mode=on)")
        }
        base.queue.mode = .on
        let target = try readTarget(try arguments.valueWithDefault("target"))
        let resolution = try readShare("resolution", try arguments.valueWithDefault("resolution"))
        guard resolution > 0 && resolution < 0.5 else {
            throw InputError.usage("--resolution must lie above 0 and below 50 %, got \(try arguments.valueWithDefault("resolution"))")
        }
        let simulated = CapacitySearch.partitionSize(base)
        let start: Double
        if let text = arguments.value("start") {
            do { start = try ValueParsers.rate(text) * Double(SimTime.second) } catch {
                throw InputError.usage("--start: \(error.message)")
            }
            guard start > 0 && start.isFinite else { throw InputError.usage("--start: expected a capacity above 0, such as 28/s, found `\(text)`") }
        } else {
            start = base.xiva.capacityPerMicrosecond.map { $0 * Double(SimTime.second) * 1000 / simulated } ?? 10
        }
        let partition = try arguments.value("partition-size").map { text -> Int in
            guard let n = LoadOptions.parseCount(text) else {
                throw InputError.usage("--partition-size: expected a number of phones such as 100000 or 100k, found `\(text)`")
            }
            return n
        } ?? Int(simulated.rounded())
        let fleet = try arguments.value("fleet").map { text -> Int in
            guard let n = LoadOptions.parseCount(text) else {
                throw InputError.usage("--fleet: expected a number of phones from 1 to 10^12 such as 2000000, 2M or 500k, found `\(text)`")
            }
            return n
        }
        let estimate = ResourceEstimate(base, jobs: jobs)
        if let refusal = estimate.refusal(under: limits, name: base.name) { throw InputError.refused(refusal) }
        let settings = CapacitySearchSettings(target: target, replications: try arguments.integerWithDefault("replications"),
                                              start: start, resolution: resolution)
        let directory = arguments.value("out") ?? "results/\(base.name)"
        let writes = !arguments.flag("no-write")
        let interruption = Interruption.shared
        try interruption.beginWriting("the capacity search of '\(base.name)'", total: 0, unit: "runs",
                                      directory: directory, writes: writes, names: CapacityReport.files)
        defer { interruption.end() }
        let store = try RunStore(directory: directory, resume: arguments.flag("resume"), writes: writes)
        if writes { interruption.update(phase: "", consequence: "no results were written; '\(directory)' is as it was" + store.keptNote) }
        let seeds = ReplicationSeeds.seeds(base: base.seed, count: settings.replications)
        let started = DispatchTime.now().uptimeNanoseconds
        let showProgress = console.errorIsTerminal && !arguments.flag("json")
        var runs = 0
        let answer = try CapacitySearch.run(settings, seeds: seeds) { perThousand, r in
            var scenario = CapacitySearch.at(base, perThousand: perThousand)
            scenario.seed = seeds[r]
            let observation = CapacityObservation(try store.run(scenario, jobs: jobs))
            runs += 1
            interruption.advance(by: 1)
            if showProgress {
                let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
                console.err(String(format: "\rcapacity: seed %d of %d, %d runs, %@ elapsed   ",
                                   r + 1, seeds.count, runs, ETA.text(elapsed)))
            }
            return observation
        }
        if showProgress { console.err("\n") }
        let report = CapacityReport(scenario: base.name, answer: answer, simulatedPartition: simulated,
                                    partitions: base.xiva.partitions, partition: partition, fleet: fleet)
        if writes {
            interruption.update(phase: "writing the results",
                                consequence: "'\(directory)' holds either the earlier results or the new ones, whole")
            try ResultsWriter.write([("capacity.json", report.json.prettyText + "\n"), ("capacity.md", report.markdown),
                                     (CapacityReport.svgName, report.chart.svg)],
                                    to: directory, replacing: CapacityReport.files)
            store.finish()
        }
        console.out(arguments.flag("json") ? report.json.text + "\n" : report.markdown)
        if arguments.flag("resume") { console.err("capacity: \(store.summary)\n") }
        return ExitStatus.success.code
    }

    /// `in_time_share>=P` (or P alone): the target share, a fraction or a percentage.
    static func readTarget(_ text: String) throws -> Double {
        var value = Substring(text)
        let metric = "in_time_share>="
        if value.hasPrefix(metric) { value = value.dropFirst(metric.count) } else if value.contains(where: { !"0123456789.%".contains($0) }) {
            throw InputError.usage("--target expects in_time_share>=P (such as in_time_share>=0.99 or in_time_share>=99%), found `\(text)`")
        }
        let share = try readShare("target", String(value))
        guard share > 0 && share < 1 else {
            throw InputError.usage("--target: the share must lie above 0 and below 1 (100 %), found `\(text)`")
        }
        return share
    }

    /// A share: a fraction (0.99) or a percentage (99%).
    static func readShare(_ option: String, _ text: String) throws -> Double {
        var digits = Substring(text)
        var scale = 1.0
        if digits.hasSuffix("%") { digits = digits.dropLast(); scale = 0.01 }
        guard let value = Double(digits), value.isFinite, value >= 0 else {
            throw InputError.usage("--\(option): expected a fraction or a percentage (0.99, 99%), found `\(text)`")
        }
        return value * scale
    }
}
