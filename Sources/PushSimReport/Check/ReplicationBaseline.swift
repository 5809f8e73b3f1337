// A baseline of several replications pooled: `check --update --replications R` keeps it beside summary.json, `check --replications R` compares with it.
import Foundation
import PushSimCore
import PushSimExperiment
import PushSimScenarioFile

/// Where one seed's devices are too few for the gate to see a change (an effect that sits on a
/// few devices), R replications pooled see what R times the devices would: the baseline keeps,
/// beside summary.json, the pooled run of the scenario at R seeds (its own and R − 1 derived,
/// as a sweep's) and, for independent devices, the counts of every device at every seed. A
/// later `check --replications R` runs this build's scenario at the same seeds and pairs every
/// device at every seed with its stored counts — whatever client or build made the baseline.
package enum ReplicationBaseline {
    package static let fileName = "replications.json"
    package static let countsFileName = "replication-counts.csv"

    /// The files `check --update --replications R` writes beside the summary: the pooled run's
    /// document (with `replications: {count, seeds}`) and, for independent devices up to
    /// ``StoredDeviceCounts/largestKept`` device-seeds, their counts.
    package static func files(_ scenario: Scenario, replications: Int, jobs: Int) throws -> [(name: String, contents: String)] {
        let seeds = ReplicationSeeds.seeds(base: scenario.seed, count: replications)
        let pooled = CheckRun.run(scenario, seeds: seeds, thresholds: [], jobs: jobs).result
        guard case .object(var members) = RunSummary.document(pooled, scenario: scenario) else { return [] }
        members["replications"] = .object(["count": .int(seeds.count), "seeds": .array(seeds.map { .uint($0) })])
        var files = [(fileName, JSONValue.object(members).prettyText + "\n")]
        if CouplingUnit.of(scenario) == .oneDevice && scenario.devices * seeds.count <= StoredDeviceCounts.largestKept {
            let thresholds = CheckComparison.thresholds(try CheckSnapshot(json: pooled.json, source: fileName))
            files.append((countsFileName, StoredDeviceCounts.record(scenario, seeds: seeds, thresholds: thresholds, jobs: jobs).csv))
        }
        return files
    }

    /// Compares `scenario` at the baseline's R seeds with the pooled baseline beside
    /// `baselinePath` (a summary.json). Throws ``CheckInputError`` when there is none, or it was
    /// made at other seeds or another count.
    package static func check(_ scenario: Scenario, baselinePath: String, replications: Int, tolerances: [CheckTolerance],
                              jobs: Int) throws -> CheckReport {
        let folder = FilePath.parent(of: baselinePath)
        let path = FilePath.join(folder, fileName)
        let seeds = ReplicationSeeds.seeds(base: scenario.seed, count: replications)
        let baseline: CheckSnapshot
        do { baseline = try CheckComparison.readBaseline(path: path) } catch let error as CheckInputError where error.isMissingBaseline {
            throw CheckInputError("\(path): no replications beside the baseline; make them with `pushsim check FILE --update --replications \(replications)`")
        }
        let stored = try storedSeeds(path: path)
        guard stored == seeds else {
            throw CheckInputError("\(path): the baseline pools \(stored.count) replication\(stored.count == 1 ? "" : "s") at seeds \(stored.prefix(3).map(String.init).joined(separator: ", "))\(stored.count > 3 ? ", …" : ""); this check asks for \(replications) from seed \(scenario.seed): give --replications \(stored.count), or rewrite the baseline with --update --replications \(replications)")
        }
        try CheckComparison.validate(baseline, path: path, scenario: scenario)
        let versionWarning = try CheckBaselineScenario.versionWarning(baseline, path: path)
        let thresholds = CheckComparison.thresholds(baseline)
        let result: RunResult, spreads: [CheckSpread], paired: [PairedSpread]?, pairing: CheckPairing
        switch try storedCounts(beside: path, baseline: baseline, scenario: scenario, seeds: seeds.count) {
        case .success(let counts):
            let run = CheckRun.runPaired(scenario, seeds: seeds, stored: counts, thresholds: thresholds, jobs: jobs)
            (result, spreads, paired) = (run.result, run.spreads, run.paired)
            pairing = .storedReplications(seeds.count)
        case .failure(let why):
            (result, spreads) = CheckRun.run(scenario, seeds: seeds, thresholds: thresholds, jobs: jobs)
            paired = nil
            pairing = .independent(why.description + " (over \(seeds.count) replications pooled)")
        }
        var report = try CheckComparison.compare(baseline: baseline, baselinePath: path, now: result, spreads: spreads,
                                                 paired: paired, pairing: pairing, tolerances: tolerances)
        report.scenarioChanges = baseline.resolvedScenario.map {
            CheckBaselineScenario.changes(baseline: $0, now: RunSummary.scenarioJSON(scenario))
        } ?? []
        report.clientChange = ClientProvenance.change(from: baseline.client, to: ClientProvenance.json(scenario))
        report.baselineVersion = baseline.version
        report.versionWarning = versionWarning
        report.replications = seeds.count
        return report
    }

    /// The seeds a pooled baseline names (`replications.seeds`).
    static func storedSeeds(path: String) throws -> [UInt64] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8), let json = try? JSONValue.parse(text),
              case .object(let top) = json, case .object(let replications)? = top["replications"],
              case .array(let seeds)? = replications["seeds"] else {
            throw CheckInputError("\(path): missing `replications.seeds` (is this a file of `check --update --replications`?)")
        }
        return try seeds.enumerated().map { n, seed in
            switch seed {
            case .uint(let s): return s
            case .int(let s) where s >= 0: return UInt64(s)
            default: throw CheckInputError("\(path): `replications.seeds[\(n)]`: expected an unsigned 64-bit integer, found \(seed.kindName)")
            }
        }
    }

    struct CannotPair: Error, CustomStringConvertible { var description: String }

    /// The pooled counts beside the pooled baseline, or why they cannot pair this run. A
    /// malformed file is bad input.
    static func storedCounts(beside path: String, baseline: CheckSnapshot, scenario: Scenario, seeds: Int) throws
        -> Result<StoredDeviceCounts, CannotPair> {
        let countsPath = FilePath.join(FilePath.parent(of: path), countsFileName)
        if CouplingUnit.of(scenario) != .oneDevice {
            return .failure(CannotPair(description: "devices share a server (finite XIVA capacity or the binary interface), so they are not independent pairs"))
        }
        guard let text = try? String(contentsOfFile: countsPath, encoding: .utf8) else {
            return .failure(CannotPair(description: "no \(countsFileName) beside the baseline"))
        }
        if !StoredDeviceCounts.holdsThisVersionsKeys(text) {
            return .failure(CannotPair(description: "\(countsFileName) holds another version's counts; `check --update --replications \(seeds)` rewrites it"))
        }
        let stored: StoredDeviceCounts
        do { stored = try StoredDeviceCounts(csv: text, path: countsPath, arms: baseline.arms.map(\.queue)) } catch {
            throw CheckInputError(String(describing: error))
        }
        guard stored.devices == scenario.devices * seeds else {
            return .failure(CannotPair(description: "\(countsFileName) holds \(stored.devices) device-seeds, not \(scenario.devices) devices × \(seeds) seeds"))
        }
        for (a, arm) in baseline.arms.enumerated() {
            for (k, key) in CheckSpread.countKeys.enumerated() {
                if stored.missingKeys.contains(key), let total = arm.values[key], total != 0 {
                    return .failure(CannotPair(description: "\(countsFileName) was written before `\(key)` was kept per device, and the pooled baseline counts \(Int(total)) in \(arm.queue); `check --update --replications \(seeds)` rewrites it"))
                }
                let sum = stored.counts[a].reduce(0) { $0 + (k < $1.count ? $1[k] : 0) }
                if let total = arm.values[key], abs(total - Double(sum)) > 0.5 {
                    return .failure(CannotPair(description: "\(countsFileName) does not add up to the pooled baseline (\(arm.queue).\(key): \(sum) against \(Int(total)))"))
                }
            }
        }
        return .success(stored)
    }
}
