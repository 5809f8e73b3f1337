// One `pushsim check` of one scenario: read the baseline, run, compare; and rewrite it on purpose.
import Foundation
import PushSimCore
import PushSimScenarioFile
import PushSimExperiment

package enum CheckSession {
    /// Where `pushsim run` writes a scenario's summary, and so where its baseline lives.
    package static func defaultBaselinePath(for scenarioName: String, results: String = "results") -> String {
        FilePath.join(results, "\(scenarioName)/summary.json")
    }

    /// Reads and validates the baseline at `baselinePath`, runs `scenario`, and compares.
    /// Throws `CheckInputError` when the baseline cannot be used (exit status 2).
    package static func check(_ scenario: Scenario, baselinePath: String, tolerances: [CheckTolerance] = [],
                             jobs: Int = 1) throws -> (report: CheckReport, result: RunResult) {
        let baseline = try CheckComparison.readBaseline(path: baselinePath)
        try CheckComparison.validate(baseline, path: baselinePath, scenario: scenario)
        let (result, spreads) = CheckRun.run(scenario, thresholds: CheckComparison.thresholds(baseline), jobs: jobs)
        let report = try CheckComparison.compare(baseline: baseline, baselinePath: baselinePath, now: result,
                                                 spreads: spreads, tolerances: tolerances)
        return (report, result)
    }

    /// The files `pushsim run` would write for `result`, named for a baseline at
    /// `baselinePath`: the JSON under the baseline's own name, plus its summary.md twin when
    /// the baseline is a summary.json (so the two never disagree).
    package static func baselineFiles(_ result: RunResult, scenario: Scenario, baselinePath: String)
        -> [(name: String, contents: String)] {
        let name = FilePath.lastComponent(of: baselinePath)
        let files = RunSummary.files(result, scenario: scenario)
        return name == "summary.json" ? files : [(name, files[0].contents)]
    }

    /// Rewrites the baseline at `baselinePath` with `result`: a summary.json with its twin as
    /// one set (``ResultsWriter/write(_:to:replacing:)``), any other name as one atomic file.
    package static func update(_ result: RunResult, scenario: Scenario, baselinePath: String) throws {
        let files = baselineFiles(result, scenario: scenario, baselinePath: baselinePath)
        if files.count == 1, let file = files.first {
            try ResultsWriter.writeFile(file.contents, to: baselinePath)
        } else {
            try ResultsWriter.write(files, to: FilePath.parent(of: baselinePath), replacing: RunSummary.family)
        }
    }

    /// `--update`: compares with the old baseline when it is usable (so the change is on
    /// record), then rewrites it with this run. Returns the comparison, or why there was none.
    package static func checkAndUpdate(_ scenario: Scenario, baselinePath: String, tolerances: [CheckTolerance] = [],
                                      jobs: Int = 1) throws -> (report: CheckReport?, note: String?) {
        let result: RunResult
        var report: CheckReport?
        var note: String?
        do {
            let checked = try check(scenario, baselinePath: baselinePath, tolerances: tolerances, jobs: jobs)
            report = checked.report
            result = checked.result
        } catch let error as CheckInputError {
            note = "the old baseline cannot be compared (\(error.description)); writing a new one"
            result = CheckRun.run(scenario, thresholds: [], jobs: jobs).result
        }
        try update(result, scenario: scenario, baselinePath: baselinePath)
        return (report, note)
    }

    /// Checks (or with `update`, rewrites) every scenario of `files` against
    /// `<results>/<name>/summary.json`. `each` hears about every scenario as it is done.
    package static func checkAll(_ files: [String], results: String, overrides: [String] = [],
                                tolerances: [CheckTolerance] = [], update: Bool = false, jobs: Int = 1,
                                traceMemoryLimit: Double = .infinity,
                                each: (String, CheckReport?, _ error: String?, _ note: String?) -> Void = { _, _, _, _ in })
        throws -> CheckSuiteReport {
        var suite = CheckSuiteReport()
        for file in files {
            let scenario: Scenario
            do { scenario = try ScenarioLoader.load(path: file, overrides: overrides, traceMemoryLimit: traceMemoryLimit) } catch {
                suite.entries.append((file, nil, "\(error)"))
                each(file, nil, "\(error)", nil)
                continue
            }
            let baselinePath = defaultBaselinePath(for: scenario.name, results: results)
            do {
                if update {
                    let (report, note) = try checkAndUpdate(scenario, baselinePath: baselinePath, tolerances: tolerances, jobs: jobs)
                    each(file, report, nil, (note.map { $0 + "; " } ?? "") + "rewrote \(baselinePath)")
                    continue
                }
                let (report, _) = try check(scenario, baselinePath: baselinePath, tolerances: tolerances, jobs: jobs)
                suite.entries.append((file, report, nil))
                each(file, report, nil, nil)
            } catch let error as CheckInputError {
                suite.entries.append((file, nil, error.description))
                each(file, nil, error.description, nil)
            }
        }
        return suite
    }

    /// The scenario files of a folder (`*.yaml`), sorted by name.
    package static func scenarioFiles(in directory: String) throws -> [String] {
        guard FileTree.isFolder(directory) else { throw CheckInputError("\(directory): no such folder of scenarios") }
        guard let names = FileTree.names(in: directory) else { throw CheckInputError("\(directory): cannot list the folder") }
        let files = names.filter { $0.hasSuffix(".yaml") }.sorted().map { FilePath.join(directory, $0) }
        guard !files.isEmpty else { throw CheckInputError("\(directory): no scenario files (*.yaml) to check") }
        return files
    }
}
