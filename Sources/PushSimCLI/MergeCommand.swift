// `pushsim merge`: combine the partial results of device shards into the document one run prints.
import Foundation
import PushSimCore
import PushSimScenarioFile
import PushSimExperiment
import PushSimReport

enum MergeCommand {
    static let spec = CommandSpec(
        name: "merge", summary: "combine shard results (run --shard K/N) into one run's JSON",
        operands: "PART…",
        operandHelp: [("PART", """
            a partial result printed by `pushsim run FILE --shard K/N --json`; `-` reads
            standard input, which may hold several partial results one after another
            """)],
        about: """
        Prints exactly the JSON document `pushsim run FILE --json` prints for the whole run.
        Every shard 0/N … (N-1)/N must be given once, all from the same scenario, settings and
        seed; otherwise nothing is printed and the exit status is 2.
        """,
        options: [
            CommandOption("out", .value("DIR"), default: .described("write nothing"), help: "also write summary.json, summary.md and report.html there"),
            LoadOptions.fleet,
        ],
        examples: [
            "for k in 0 1 2 3; do pushsim run scenarios/commuters.yaml --shard $k/4 --json > part-$k.json; done",
            "pushsim merge part-*.json > commuters.json",
        ],
        run: run)

    static func run(_ arguments: Arguments, _ console: Console) throws -> Int32 {
        let fleet = try LoadOptions.fleet(arguments)
        guard !arguments.positionals.isEmpty else { throw InputError.usage("missing the partial results to merge (files, or - for standard input)") }
        guard arguments.positionals.filter({ $0 == "-" }).count <= 1 else { throw InputError.usage("- (standard input) given twice") }
        let directory = arguments.value("out")
        let interruption = Interruption.shared
        // The destination is checked before reading a single part; the handlers are installed
        // before any work, so an interruption says what was not finished.
        try interruption.beginWriting("the merge", total: arguments.positionals.count, unit: "sources",
                                      directory: directory ?? "", writes: directory != nil,
                                      names: RunSummary.alwaysWritten, family: RunSummary.family)
        defer { interruption.end() }
        var merge = PartialMerge()
        for path in arguments.positionals {
            let source = path == "-" ? "standard input" : path
            let bytes: [UInt8]
            if path == "-" && StandardStreams.inputWasClosed {
                throw PartialResultError("standard input: cannot read the partial result: standard input is closed (<&-); pipe the parts in or name their files")
            }
            do {
                bytes = path == "-" ? try BoundedInput.readStandardInput(limit: PartialResult.maxSourceBytes)
                    : try BoundedInput.read(path: path, limit: PartialResult.maxSourceBytes, role: "a partial result")
            } catch {
                throw PartialResultError("\(source): cannot read the partial result: \(error.reason)")
            }
            try PartialResult.forEach(in: bytes, source: source) { part in
                try merge.add(part, source: source)
            }
            interruption.advance(by: 1)
        }
        let (merged, size, provenance) = try merge.finish()
        var result = merged
        result.loadFrame.fleet = fleet
        let json = result.json
        if let directory {
            interruption.update(phase: "writing the results",
                                consequence: "'\(directory)' holds either the earlier results or the new ones, whole")
            try ResultsWriter.write(RunSummary.files(result, size: size, provenance: provenance, sharedServer: provenance.xivaCapacityIsFinite),
                                    to: directory, replacing: RunSummary.family)
            interruption.update(phase: "printing the merged document", consequence: "the results are written to '\(directory)'")
        }
        console.out(json.text + "\n")
        return ExitStatus.success.code
    }
}

/// `pushsim run … --shard K/N`: the shard's partial result on standard output, no files written.
enum ShardOption {
    static let option = CommandOption("shard", .value("K/N"), help: """
        run only the K-th of N device shards (K from 0) and print its partial
        result for `pushsim merge`; writes no results folder
        """)

    /// The parsed `--shard` value, nil when absent; a usage error when malformed.
    static func parse(_ arguments: Arguments) throws -> ShardSpec? {
        guard let text = arguments.value("shard") else { return nil }
        switch ShardSpec.parse(text) {
        case .success(let spec): return spec
        case .failure(let error): throw InputError.usage(error.message)
        }
    }

    /// The threads to use: `--jobs N`, or every core. Threads and shards split a run between
    /// coupling units (`CouplingUnit`), so any scenario can be split.
    static func jobs(_ arguments: Arguments, scenario: Scenario, shard: ShardSpec?) throws -> Int {
        try arguments.integer("jobs") ?? ScenarioInput.defaultJobs
    }

    /// Runs the shard and prints its partial result (one line of JSON).
    static func run(_ scenario: Scenario, shard: ShardSpec, jobs: Int, arguments: Arguments, console: Console) throws -> Int32 {
        if arguments.value("out") != nil {
            throw InputError.usage("--shard writes no results folder: drop --out, and write the merged run with `pushsim merge … --out DIR`")
        }
        // A shard runs in a batch job: its progress goes to standard error, the job's log.
        let progress = RunProgress(console: console, label: "shard \(shard.index)/\(shard.count) of '\(scenario.name)'",
                                   total: shard.devices(of: scenario.devices, unit: .of(scenario)).count, inPlace: console.errorIsTerminal)
        let partial = PartialResult.run(scenario, shard: shard, jobs: jobs) { progress.advance(devices: $0, events: $1) }
        try ClientBudget.verify()
        console.out(partial.json.text + "\n")
        return ExitStatus.success.code
    }
}
