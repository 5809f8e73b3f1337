// One `pushsim check` of one scenario: read the baseline, run, compare; and rewrite it on purpose.
import Foundation

public enum CheckSession {
    /// Where `pushsim run` writes a scenario's summary, and so where its baseline lives.
    public static func defaultBaselinePath(for scenarioName: String, results: String = "results") -> String {
        (results as NSString).appendingPathComponent("\(scenarioName)/summary.json")
    }

    /// Reads and validates the baseline at `baselinePath`, runs `scenario`, and compares.
    /// Throws `CheckInputError` when the baseline cannot be used (exit status 2).
    public static func check(_ scenario: Scenario, baselinePath: String, tolerances: [CheckTolerance] = [],
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
    public static func baselineFiles(_ result: RunResult, scenario: Scenario, baselinePath: String)
        -> [(name: String, contents: String)] {
        let name = (baselinePath as NSString).lastPathComponent
        var files: [(name: String, contents: String)] = [(name, result.json.prettyText + "\n")]
        if name == "summary.json" { files.append(("summary.md", ReportTable(result, scenario: scenario).markdown)) }
        return files
    }

    /// Rewrites the baseline at `baselinePath` with `result`, atomically (`ResultsWriter`).
    public static func update(_ result: RunResult, scenario: Scenario, baselinePath: String) throws {
        let directory = (baselinePath as NSString).deletingLastPathComponent
        try ResultsWriter.write(baselineFiles(result, scenario: scenario, baselinePath: baselinePath),
                                to: directory.isEmpty ? "." : directory)
    }

    /// The scenario files of a folder (`*.yaml`), sorted by name.
    public static func scenarioFiles(in directory: String) throws -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CheckInputError("\(directory): no such folder of scenarios")
        }
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: directory) } catch {
            throw CheckInputError("\(directory): cannot list the folder")
        }
        let files = names.filter { $0.hasSuffix(".yaml") }.sorted().map { (directory as NSString).appendingPathComponent($0) }
        guard !files.isEmpty else { throw CheckInputError("\(directory): no scenario files (*.yaml) to check") }
        return files
    }
}
