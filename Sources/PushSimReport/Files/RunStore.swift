// Finished runs of a sweep or an optimization, kept on disk as they complete, so that a stopped one resumes with --resume.
import Foundation
import PushSimCore
import PushSimExperiment
import PushSimScenarioFile

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The runs an experiment (`sweep`, `optimize`) has finished, each stored the moment it ends
/// in a folder beside its results folder: `DIR` keeps its results in `.NAME.runs/` of DIR's
/// parent (`results/.designs.runs/` for `--out results/designs`), so the results folder itself
/// changes only when the new set is written whole. The folder is removed once the results are
/// written; a run stopped by Ctrl-C, SIGTERM or a crash leaves it, and `--resume` reuses it.
///
/// A record is the run's partial result (``PartialResult``, the format `run --shard` prints,
/// one shard of one): its ledgers in full, so every metric and every `--cost` is measured
/// from it as from the run itself. Its file name is a hash of its key (the resolved scenario,
/// the seed, the client); each record is written atomically (a temporary file, flushed,
/// renamed), so a record is whole or absent. On resuming every record is read and checked
/// before anything runs: damaged (its checksum), of another version of PushSim, or not the run
/// its name says: refused, naming the file. A record is reused only when its key matches the
/// run's whole.
package final class RunStore {
    /// The folder's name for the results folder `name`.
    package static func folderName(for name: String) -> String { ".\(name).runs" }

    /// Where the records go; nil: none are kept (`--no-write`).
    package let folder: String?
    private var index: [String: String] = [:]
    package private(set) var computed = 0
    package private(set) var reused = 0
    /// Called after each computed run is stored, with the number stored so far (the tests stop
    /// the process there, as Ctrl-C or a crash would).
    nonisolated(unsafe) package static var storedHook: ((Int) -> Void)?

    /// The store of the results folder `directory`. `resume`: read the records already there
    /// (every one checked now); otherwise any are removed and the experiment starts afresh.
    /// `writes`: keep each finished run (false with `--no-write`: runs are only read).
    package init(directory: String, resume: Bool, writes: Bool) throws {
        let destination = try ResultsDestination.resolve(directory)
        let folder = FilePath.join(destination.parent, RunStore.folderName(for: destination.name))
        self.folder = writes || resume ? folder : nil
        self.writes = writes
        if resume {
            for name in FileTree.names(in: folder) ?? [] where name.hasSuffix(".json") && !name.hasPrefix(".") {
                let path = FilePath.join(folder, name)
                let key = String(name.dropLast(5))
                switch try RunStore.read(path) {
                case .run: index[key] = path
                case .moments(let text, let moments):
                    guard RunStore.hash(text) == key else { throw RunStore.damaged(path, "not the calibration run its name says") }
                    kept[text] = moments
                }
            }
        } else if writes {
            FileTree.removeTree(folder)
        }
    }

    private let writes: Bool
    /// A calibration's simulated moments, by their whole key (``momentsKey(_:targets:)``).
    private var kept: [String: SimulatedMoments] = [:]
    /// The first record of moments that could not be written (a calibration goes on without it).
    package private(set) var keepFailure: String?

    /// The run of `scenario` (its seed set): its record's when one is stored, else simulated
    /// on `jobs` threads and stored.
    package func run(_ scenario: Scenario, jobs: Int) throws -> RunResult {
        // Neither kept nor resumed (`--no-write` without `--resume`): no record to look up,
        // so no key to compute (the scenario's fingerprint costs a small run's worth).
        guard folder != nil else {
            computed += 1
            return Simulator.run(scenario, jobs: jobs)
        }
        let key = RunStore.key(scenario)
        let provenance = Provenance(scenario)
        if let path = index[key] {
            guard case .run(let part) = try RunStore.read(path) else { throw RunStore.damaged(path, "not a stored run") }
            try RunStore.check(part, against: scenario, provenance: provenance, path: path)
            reused += 1
            return RunStore.labelled(part.result, scenario)
        }
        let result = Simulator.run(scenario, jobs: jobs)
        computed += 1
        if writes, let folder {
            let part = PartialResult(result: result, fingerprint: scenario.fingerprint, shard: ShardSpec(index: 0, count: 1)!,
                                     size: RunSize(scenario), provenance: provenance, coupling: .of(scenario))
            let path = FilePath.join(folder, key + ".json")
            do {
                try ResultsWriter.writeFile(part.json.text + "\n", to: path)
            } catch let error as ResultsWriteError {
                throw ResultsWriteError(description: error.description + " (the finished runs are kept there for --resume)")
            }
            index[key] = path
            RunStore.storedHook?(computed)
        }
        return result
    }

    /// The experiment is over and its results are written: the records are no longer needed.
    package func finish() {
        guard writes, let folder else { return }
        FileTree.removeTree(folder)
    }

    /// What an interruption leaves, for its message: the runs finished, kept for `--resume`.
    package var keptNote: String {
        guard writes, let folder else { return "" }
        return "; the runs finished are kept in '\(folder)' (go on with --resume)"
    }

    /// "computed N runs, reused M", for standard error.
    package var summary: String {
        "computed \(computed) run\(computed == 1 ? "" : "s"), reused \(reused)"
            + (folder.map { " (kept in '\($0)' until the results are written)" } ?? "")
    }

    // MARK: Records

    /// The file name of a run's record (without `.json`): FNV-1a of its key.
    static func key(_ scenario: Scenario) -> String { hash(keyText(scenario)) }

    /// What identifies a run: the seed, the fingerprint, the client, the resolved scenario.
    static func keyText(_ scenario: Scenario) -> String {
        var text = "seed \(scenario.seed)\nfingerprint \(scenario.fingerprint)\n"
        text += ClientProvenance.json(scenario).text + "\n"
        text += ScenarioPrinter.yaml(scenario)
        return text
    }

    static func hash(_ text: String) -> String { FNV1a.hex(text.utf8) }

    /// A record read back: a run (a sweep's or an optimization's), or a calibration's moments with their key.
    enum Record {
        case run(PartialResult)
        case moments(key: String, SimulatedMoments)
    }

    /// The format of a calibration's record: its key, and its moments' values and sizes as the
    /// bit patterns of their doubles (exact, whatever they are).
    static let momentsFormat = "pushsim-moments/1"

    /// Reads and checks one record: whole JSON, this version of PushSim, its checksum.
    static func read(_ path: String) throws -> Record {
        let bytes: [UInt8]
        do {
            bytes = try BoundedInput.read(path: path, limit: PartialResult.maxSourceBytes, role: "a stored run")
        } catch {
            throw PartialResultError("\(path): cannot read the stored run: \(error.reason)")
        }
        var reader = JSONTextReader(bytes)
        let value: JSONValue
        do {
            value = try reader.value(depth: 0)
            reader.skipSpace()
            guard reader.atEnd else { throw PartialResultError("text after the record") }
        } catch {
            throw damaged(path, "not valid JSON (\(error))")
        }
        guard case .object(let top) = value else { throw damaged(path, "expected a JSON object") }
        if case .string(let version)? = top["version"], version != PushSimVersion.current {
            throw PartialResultError("\(path): a run stored by pushsim \(version), but this is pushsim \(PushSimVersion.current): "
                + "--resume never mixes the runs of two versions; run without --resume to start afresh (it removes '\(FilePath.parent(of: path))')")
        }
        if case .string(momentsFormat)? = top["format"] { return try readMoments(top, path: path) }
        do {
            return .run(try PartialResult(json: value, source: path))
        } catch let error as PartialResultError {
            throw damaged(path, error.message.hasPrefix(path + ": ") ? String(error.message.dropFirst(path.count + 2)) : error.message)
        }
    }

    static func readMoments(_ top: [String: JSONValue], path: String) throws -> Record {
        var content = top
        content["checksum"] = nil
        guard case .string(let written)? = top["checksum"], written == PartialResult.checksum(of: content) else {
            throw damaged(path, "the checksum does not match the content")
        }
        func doubles(_ name: String) throws -> [Double] {
            guard case .array(let items)? = top[name] else { throw damaged(path, "`\(name)`: expected an array") }
            return try items.map {
                switch $0 {
                case .uint(let bits): return Double(bitPattern: bits)
                case .int(let bits) where bits >= 0: return Double(bitPattern: UInt64(bits))
                default: throw damaged(path, "`\(name)`: expected the bit patterns of doubles")
                }
            }
        }
        guard case .string(let key)? = top["key"] else { throw damaged(path, "`key`: expected a string") }
        let values = try doubles("values"), sizes = try doubles("sizes")
        guard values.count == sizes.count else { throw damaged(path, "`values` and `sizes`: expected as many of each") }
        return .moments(key: key, SimulatedMoments(values: values, sizes: sizes))
    }

    static func damaged(_ path: String, _ why: String) -> PartialResultError {
        PartialResultError("\(path): a damaged stored run: \(why); remove the file to run it again with --resume, "
            + "or run without --resume to start afresh")
    }

    /// The record is the run its name says: the same seed, settings, client and devices.
    static func check(_ part: PartialResult, against scenario: Scenario, provenance: Provenance, path: String) throws {
        var differences: [String] = []
        if part.result.seed != scenario.seed { differences.append("seed \(part.result.seed), not \(scenario.seed)") }
        if part.fingerprint != scenario.fingerprint || part.provenance.scenario != provenance.scenario {
            differences.append(ScenarioDifference.describe(provenance.scenario, part.provenance.scenario,
                                                           sourceA: "the run", sourceB: "the record")
                .map { "the scenario differs in \($0)" } ?? "fingerprint \(part.fingerprint), not \(scenario.fingerprint)")
        }
        if part.provenance.client != provenance.client { differences.append("another client (\(ClientProvenance.label(part.provenance.client)))") }
        if part.shard.count != 1 || part.result.totalDevices != scenario.devices || part.size != RunSize(scenario) {
            differences.append("not a whole run of \(scenario.devices) devices")
        }
        guard differences.isEmpty else {
            throw damaged(path, "not the run its name says (" + differences.joined(separator: "; ") + ")")
        }
    }

    /// The record's run as the simulation returned it: each arm labelled with its recovery
    /// design (a label the partial format leaves to the scenario).
    static func labelled(_ result: RunResult, _ scenario: Scenario) -> RunResult {
        var result = result
        func label(_ arms: inout [ArmResult]) {
            for a in arms.indices { arms[a].recovery = arms[a].arm == .on ? scenario.recovery : RecoveryDesign.none }
        }
        label(&result.arms)
        for s in result.segments.indices { label(&result.segments[s].arms) }
        return result
    }
}

extension RunStore: CalibrationMemory {
    /// A calibration run's key: the run's, and the moments measured (the observation file's targets).
    static func momentsKey(_ scenario: Scenario, targets: [CalibrationTarget]) -> String {
        keyText(scenario) + "\ntargets " + hash(String(reflecting: targets))
    }

    package func moments(of scenario: Scenario, targets: [CalibrationTarget]) -> SimulatedMoments? {
        guard let known = kept[RunStore.momentsKey(scenario, targets: targets)] else { return nil }
        reused += 1
        return known
    }

    package func keep(_ moments: SimulatedMoments, of scenario: Scenario, targets: [CalibrationTarget]) {
        computed += 1
        guard writes, let folder else { return }
        let key = RunStore.momentsKey(scenario, targets: targets)
        var content: [String: JSONValue] = [
            "format": .string(RunStore.momentsFormat), "version": .string(PushSimVersion.current), "key": .string(key),
            "values": .array(moments.values.map { .uint($0.bitPattern) }), "sizes": .array(moments.sizes.map { .uint($0.bitPattern) }),
        ]
        content["checksum"] = .string(PartialResult.checksum(of: content))
        do {
            try ResultsWriter.writeFile(JSONValue.object(content).text + "\n", to: FilePath.join(folder, RunStore.hash(key) + ".json"))
        } catch {
            if keepFailure == nil { keepFailure = "\(error)" }
            return
        }
        kept[key] = moments
        RunStore.storedHook?(computed)
    }
}
