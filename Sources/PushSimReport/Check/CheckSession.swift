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
    /// Throws `CheckInputError` when the baseline cannot be used (exit status 2). `file`: the
    /// scenario's file, beside which the baseline's own scenario reads its trace, if any.
    package static func check(_ scenario: Scenario, baselinePath: String, tolerances: [CheckTolerance] = [],
                             jobs: Int = 1, file: String? = nil) throws -> (report: CheckReport, result: RunResult) {
        let baseline = try CheckComparison.readBaseline(path: baselinePath)
        try CheckComparison.validate(baseline, path: baselinePath, scenario: scenario)
        let versionWarning = try CheckBaselineScenario.versionWarning(baseline, path: baselinePath)
        let thresholds = CheckComparison.thresholds(baseline)
        let resolved = RunSummary.scenarioJSON(scenario)
        let (result, spreads, paired, pairing) = try run(scenario, resolved: resolved, baseline: baseline, thresholds: thresholds,
                                                     jobs: jobs, file: file ?? FilePath.join(FilePath.parent(of: baselinePath), "baseline.yaml"),
                                                     baselinePath: baselinePath)
        var report = try CheckComparison.compare(baseline: baseline, baselinePath: baselinePath, now: result, spreads: spreads,
                                                 paired: paired, pairing: pairing, tolerances: tolerances)
        report.scenarioChanges = baseline.resolvedScenario.map { CheckBaselineScenario.changes(baseline: $0, now: resolved) } ?? []
        report.clientChange = ClientProvenance.change(from: baseline.client, to: ClientProvenance.json(scenario))
        report.baselineVersion = baseline.version
        report.versionWarning = versionWarning
        return (report, result)
    }

    /// Runs `scenario` paired with the baseline's own scenario when it can (``CheckPairing``):
    /// the same resolved scenario needs no replay (every device's difference is then what the
    /// run itself shows against the baseline's totals); another one is replayed beside it.
    static func run(_ scenario: Scenario, resolved: JSONValue, baseline: CheckSnapshot, thresholds: [CheckThresholds],
                    jobs: Int, file: String, baselinePath: String)
        throws -> (RunResult, [CheckSpread], [PairedSpread]?, CheckPairing) {
        func independent(_ why: String) -> (RunResult, [CheckSpread], [PairedSpread]?, CheckPairing) {
            let (result, spreads) = CheckRun.run(scenario, thresholds: thresholds, jobs: jobs)
            return (result, spreads, nil, .independent(why))
        }
        let notReproduced = "this build's replay of the baseline's scenario does not give the baseline's numbers (another PushSim build or client made it), so its devices' counts are unknown; `check --update` keeps them beside the baseline (docs/ci.md)"
        if baseline.seed != scenario.seed {
            return independent("this run's seed (\(scenario.seed)) is not the baseline's (\(baseline.seed.map(String.init) ?? "unnamed")): no draws in common")
        }
        // The baseline's own counts per device, when kept beside it: no replay needed, and a
        // changed client or build is paired all the same.
        switch try storedCounts(for: baseline, scenario: scenario, beside: baselinePath) {
        case .pairs(let stored):
            let paired = CheckRun.runPaired(scenario, stored: stored, thresholds: thresholds, jobs: jobs)
            return (paired.result, paired.spreads, paired.paired, .pairedWithStoredCounts)
        case .none:
            break
        case .cannotPair(let why):
            return independent(why)
        }
        if resolved == baseline.resolvedScenario {
            // The baseline's own scenario: if this run gives its numbers, every device did exactly
            // what it did then, the differences are all 0; if not, the devices' past is unknown.
            if let refusal = CheckRun.pairingRefusal(scenario, scenario) { return independent(refusal) }
            let (result, spreads) = CheckRun.run(scenario, thresholds: thresholds, jobs: jobs)
            guard reproduces(result, baseline) else { return (result, spreads, nil, .independent(notReproduced)) }
            return (result, spreads, scenario.arms.map { _ in PairedSpread() }, .paired)
        }
        let then: Scenario
        switch CheckBaselineScenario.scenario(of: baseline, file: file) {
        case .success(let s): then = s
        case .failure(let error): return independent(error.description)
        }
        if let refusal = CheckRun.pairingRefusal(scenario, then) { return independent(refusal) }
        let paired = CheckRun.runPaired(now: scenario, then: then, thresholds: thresholds, jobs: jobs)
        guard reproduces(paired.baseline, baseline) else { return (paired.result, paired.spreads, nil, .independent(notReproduced)) }
        return (paired.result, paired.spreads, paired.paired, .paired)
    }

    /// The counts per device kept beside a summary.json baseline (``StoredDeviceCounts``): nil
    /// when there are none; a failure (why not) when they cannot pair this run: another device
    /// count or arms, devices that share a server, or counts that do not add up to the
    /// baseline's totals (the summary was rewritten without them). A malformed file is bad input.
    enum StoredCounts {
        case none
        case pairs(StoredDeviceCounts)
        case cannotPair(String)
    }

    static func storedCounts(for baseline: CheckSnapshot, scenario: Scenario, beside baselinePath: String) throws -> StoredCounts {
        guard FilePath.lastComponent(of: baselinePath) == "summary.json" else { return .none }
        let path = FilePath.join(FilePath.parent(of: baselinePath), StoredDeviceCounts.fileName)
        // None beside the baseline: nothing to pair with. One that cannot be read is bad input,
        // never passed over (the check would pair nothing without saying why).
        let bytes: [UInt8]
        do { bytes = try BoundedInput.readRegularFile(path: path, limit: StoredDeviceCounts.maxBytes) }
        catch .missing { return .none }
        catch { throw CheckInputError("\(path): cannot read it: \(error.reason)") }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw CheckInputError("\(path): not UTF-8 text, so not a file `check --update` wrote; rewrite it with `check --update`")
        }
        // Counts of another version's keys (a counter added or removed) cannot be paired with
        // this one's; the baseline itself is still compared.
        if !StoredDeviceCounts.holdsThisVersionsKeys(text) {
            return .cannotPair("\(StoredDeviceCounts.fileName) beside the baseline holds another version's counts; `check --update` rewrites it")
        }
        let stored: StoredDeviceCounts
        do { stored = try StoredDeviceCounts(csv: text, path: path, arms: baseline.arms.map(\.queue)) } catch {
            throw CheckInputError(error.description)
        }
        if stored.devices != scenario.devices { return .cannotPair("the device count changed (\(stored.devices) → \(scenario.devices))") }
        if baseline.arms.map(\.queue) != scenario.arms.map(\.rawValue) { return .cannotPair("the arms changed") }
        if CouplingUnit.of(scenario) != .oneDevice {
            return .cannotPair("devices share a server (finite XIVA capacity or the binary interface), so they are not independent pairs")
        }
        for (a, arm) in baseline.arms.enumerated() {
            for (k, key) in CheckSpread.countKeys.enumerated() {
                // An earlier version's file reads a key it lacks as 0: fine while the baseline counted none.
                if stored.missingKeys.contains(key), let total = arm.values[key], total != 0 {
                    return .cannotPair("\(StoredDeviceCounts.fileName) beside the baseline was written before `\(key)` was kept per device, and the baseline counts \(String(format: "%.0f", total)) in \(arm.queue); `check --update` rewrites it")
                }
                // Counts up to 2^53 each, added as doubles: no sum can overflow.
                let sum = stored.counts[a].reduce(0.0) { $0 + Double(k < $1.count ? $1[k] : 0) }
                if let total = arm.values[key], abs(total - sum) > 0.5 {
                    return .cannotPair("\(StoredDeviceCounts.fileName) beside the baseline does not add up to it (\(arm.queue).\(key): \(String(format: "%.0f", sum)) against \(String(format: "%.0f", total))): the summary was rewritten without it")
                }
            }
        }
        return .pairs(stored)
    }

    /// Whether a replay gives the baseline's numbers: every metric equal (to a part in 10¹²,
    /// the precision a rate keeps through JSON text).
    static func reproduces(_ replay: RunResult, _ baseline: CheckSnapshot) -> Bool {
        guard let snapshot = try? CheckSnapshot(json: replay.json, source: "the replay"),
              snapshot.arms.map(\.queue) == baseline.arms.map(\.queue) else { return false }
        for (mine, theirs) in zip(snapshot.arms, baseline.arms) {
            for (key, value) in mine.values {
                let other = theirs.values[key] ?? 0
                if abs(value - other) > 1e-12 * max(abs(value), abs(other)) { return false }
            }
        }
        return true
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
    package static func update(_ result: RunResult, scenario: Scenario, baselinePath: String, jobs: Int = 1,
                               replications: Int = 1) throws {
        var files = baselineFiles(result, scenario: scenario, baselinePath: baselinePath)
        if files.count == 1, let file = files.first {
            try ResultsWriter.writeFile(file.contents, to: baselinePath)
        } else {
            if replications > 1 { files += try ReplicationBaseline.files(scenario, replications: replications, jobs: jobs) }
            // Beside a summary.json, its counts per device, so that a later check pairs a changed
            // client or build device by device: for independent devices, up to a size the file
            // keeps small (about 40 bytes a device and arm).
            if CouplingUnit.of(scenario) == .oneDevice && scenario.devices <= StoredDeviceCounts.largestKept,
               let snapshot = try? CheckSnapshot(json: result.json, source: baselinePath) {
                let stored = StoredDeviceCounts.record(scenario, thresholds: CheckComparison.thresholds(snapshot), jobs: jobs)
                files.append((StoredDeviceCounts.fileName, stored.csv))
            }
            try ResultsWriter.write(files, to: FilePath.parent(of: baselinePath), replacing: RunSummary.family)
        }
    }

    /// `--update`: compares with the old baseline when it is usable (so the change is on
    /// record), then rewrites it with this run. Returns the comparison, or why there was none.
    package static func checkAndUpdate(_ scenario: Scenario, baselinePath: String, tolerances: [CheckTolerance] = [],
                                      jobs: Int = 1, file: String? = nil, replications: Int = 1) throws -> (report: CheckReport?, note: String?) {
        var result: RunResult?
        var report: CheckReport?
        var note: String?
        do {
            if replications > 1 {
                report = try ReplicationBaseline.check(scenario, baselinePath: baselinePath, replications: replications,
                                                       tolerances: tolerances, jobs: jobs)
            } else {
                let checked = try check(scenario, baselinePath: baselinePath, tolerances: tolerances, jobs: jobs, file: file)
                report = checked.report
                result = checked.result
            }
        } catch let error as CheckInputError {
            note = error.isMissingBaseline ? "no baseline at \(baselinePath) yet; writing the first one"
                : "the old baseline cannot be compared (\(error.description)); writing a new one"
        }
        try update(result ?? CheckRun.run(scenario, thresholds: [], jobs: jobs).result, scenario: scenario,
                   baselinePath: baselinePath, jobs: jobs, replications: replications)
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
                    let (report, note) = try checkAndUpdate(scenario, baselinePath: baselinePath, tolerances: tolerances, jobs: jobs, file: file)
                    each(file, report, nil, (note.map { $0 + "; " } ?? "") + "rewrote \(baselinePath)")
                    continue
                }
                let (report, _) = try check(scenario, baselinePath: baselinePath, tolerances: tolerances, jobs: jobs, file: file)
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
