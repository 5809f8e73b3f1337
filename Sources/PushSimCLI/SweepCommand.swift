// `pushsim sweep`: a grid of parameter values × replications; means, 95 % intervals, files, charts.
import Dispatch
import Foundation
import PushSim

enum SweepCommand {
    static let spec = CommandSpec(
        name: "sweep", summary: "run a grid of parameter values with replications; CSV, JSON, Markdown, SVG charts",
        usage: """
        Usage: pushsim sweep FILE [--vary PATH=V1,V2,…]… [--replications N] [--set PATH=VALUE]… [--seed N]
                                  [--out DIR] [--no-write] [--json] [--jobs N]

          --vary PATH=V1,V2,…  an axis of the grid: the values of one key, in the file syntax
                               (repeatable: several make a cartesian product; the first is the
                               charts' x axis). Without --vary the file's `sweep:` section is used;
                               a path given on the command line (--vary or --set) replaces the file's.
          --replications N     runs per point (default 1), with seeds derived from the scenario's
                               seed — the same N seeds at every point (common random numbers)
          --set PATH=VALUE     override a key at every point (repeatable)
          --seed N             the scenario seed the replication seeds derive from
          --out DIR            where to write sweep.csv, sweep.json, sweep.md and the SVG charts
                               (default results/<name>/)
          --no-write           write no files
          --json               print the sweep's JSON document (means and ci95 of every metric)
          --jobs N             threads per run (default: every core); never changes the result

        Progress (runs done, time left) goes to standard error when it is a terminal, never with --json.

        Example:
          pushsim sweep scenarios/nightly-offline.yaml --vary queue.repeat_max_count=0,5,10,20,50 --replications 5
        """,
        run: run)

    static func run(_ words: [String], _ console: Console) throws -> Int32 {
        let arguments = try Arguments(words, flags: ["json", "no-write"],
                                      options: ScenarioInput.options.union(["vary", "replications", "out", "jobs"]))
        let (_, fileAxes) = try ScenarioInput.load(arguments)
        let path = arguments.positionals[0]
        // The same overrides ScenarioInput applied (already checked), then each point's settings.
        let baseOverrides = arguments.values("set") + (arguments.value("seed").map { ["seed=\($0)"] } ?? [])
        let replications = try arguments.integer("replications", in: 1...10_000) ?? 1
        let jobs = try arguments.integer("jobs", in: 1...1024) ?? ScenarioInput.defaultJobs
        let plan: SweepPlan
        do {
            let varied = try arguments.values("vary").map(SweepGrid.parseVary)
            let fixed = Set(arguments.values("set").compactMap { $0.split(separator: "=", maxSplits: 1).first.map(String.init) })
            let axes = SweepGrid.axes(file: fileAxes, commandLine: varied, fixed: fixed)
            plan = try SweepPlan(axes: axes, replications: replications) { extra in
                try ScenarioLoader.load(path: path, overrides: baseOverrides + extra)
            }
        } catch let error as SweepError {
            throw UsageError(error.message)
        }
        let started = DispatchTime.now().uptimeNanoseconds
        let showProgress = console.errorIsTerminal && !arguments.flag("json")
        let result = SweepRunner.run(plan, jobs: jobs) { done, total in
            guard showProgress else { return }
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
            let left = elapsed / Double(done) * Double(total - done)
            console.err(String(format: "\rsweep: %d/%d runs (%d points × %d replications), about %@ left   ",
                               done, total, plan.points.count, replications, ETA.text(left)))
            if done == total { console.err("\n") }
        }
        if !arguments.flag("no-write") {
            let directory = arguments.value("out") ?? "results/\(result.scenario)"
            let files = [("sweep.csv", result.csv), ("sweep.json", result.json.prettyText + "\n"), ("sweep.md", result.markdown)]
                + result.charts.map { ($0.name, $0.svg) }
            try ResultsWriter.write(files, to: directory)
        }
        if arguments.flag("json") {
            console.out(result.json.text + "\n")
        } else {
            console.out(result.markdown)
        }
        return 0
    }
}

/// A readable estimate of time left: `12 s`, `3 min`, `1.5 h`.
enum ETA {
    static func text(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "?" }
        if seconds < 90 { return "\(Int(seconds.rounded())) s" }
        if seconds < 5400 { return "\(Int((seconds / 60).rounded())) min" }
        return String(format: "%.1f h", seconds / 3600)
    }
}
