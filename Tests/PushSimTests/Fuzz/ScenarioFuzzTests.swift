// The scenario fuzzer: mutated bundled scenarios must read as a valid scenario or a located error, never trap or hang.
import Foundation
import Testing
@testable import PushSim
@testable import PushSimCLI

/// The bundled scenarios (and the contract's example), as bytes: the fuzzer's seeds.
enum FuzzCorpus {
    static let repositoryRoot: String = {
        // Tests/PushSimTests/Fuzz/ThisFile.swift → the repository root.
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.path
    }()

    static let files: [(name: String, bytes: [UInt8])] = {
        let folder = repositoryRoot + "/scenarios"
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0.hasSuffix(".yaml") }.sorted()
        var files = names.compactMap { name -> (String, [UInt8])? in
            guard let data = FileManager.default.contents(atPath: folder + "/" + name) else { return nil }
            return (name, [UInt8](data))
        }
        files.append(("contract-example.yaml", Array(ContractExample.text.utf8)))
        files.append(("sweep.yaml", Array((minimalScenario + "sweep:\n  queue.repeat_max_count: [0, 5]\n  connectivity.windows: [[{start: 1h, end: 2h, every: 1d}]]\n").utf8)))
        return files
    }()
}

/// What happened to one fuzz case.
enum FuzzOutcome {
    case valid(Scenario)
    case rejected(ScenarioError)
    /// Anything else is a bug: a non-scenario error, an unlocated error, a malformed message.
    case bug(String)
}

enum FuzzOracle {
    /// Reads `bytes` as the file `file` would be read, and checks the answer's shape.
    static func check(_ bytes: [UInt8], file: String) -> FuzzOutcome {
        do {
            let root = try YAMLReader.read(bytes: bytes, file: file)
            let (scenario, _) = try ScenarioLoader.decodeDocument(root, file: file, overrides: [])
            return .valid(scenario)
        } catch let error as ScenarioError {
            if let problem = problem(with: error, file: file, lineCount: bytes.count { $0 == 0x0A } + 1) {
                return .bug(problem)
            }
            return .rejected(error)
        } catch {
            return .bug("not a ScenarioError: \(type(of: error)): \(error)")
        }
    }

    /// Why a reader error does not meet the contract (`file:line:column: message`), if it does not.
    static func problem(with error: ScenarioError, file: String, lineCount: Int) -> String? {
        guard let location = error.location else { return "an error without a location: \(error.message)" }
        guard location.file == file else { return "the error names file \(location.file), expected \(file)" }
        guard location.line >= 1, location.line <= lineCount + 1, location.column >= 1 else {
            return "the location \(location) is outside the input (\(lineCount) lines)"
        }
        guard error.description.hasPrefix("\(file):\(location.line):\(location.column): ") else {
            return "the message does not start with file:line:column: \(error.description.prefix(200))"
        }
        guard !error.message.isEmpty, error.message.unicodeScalars.count <= 2_000 else {
            return "the message is empty or too long (\(error.message.unicodeScalars.count) characters)"
        }
        return nil
    }

    /// A message with its quoted parts removed: the kind of error, for the fuzzer's report.
    static func template(_ message: String) -> String {
        var out = "", quoted = false
        for ch in message {
            if ch == "`" { quoted.toggle(); out += quoted ? "`…" : "`"; continue }
            if !quoted { out.append(ch) }
        }
        return String(out.prefix(70))
    }

    /// Runs a scenario shrunk to a couple of devices, if that is small; checks the ledger adds up.
    static func simulateSmall(_ scenario: Scenario) -> String? {
        var small = scenario
        small.devices = min(small.devices, 2)
        let estimate = ResourceEstimate(small, jobs: 1)
        guard estimate.refusal(under: .init(maxEvents: 200_000, maxMemoryBytes: 256 * 1024 * 1024), name: small.name) == nil else {
            return nil
        }
        let result = Simulator.run(small, jobs: 1)
        for arm in result.arms {
            let l = arm.ledger
            if l.delivered + l.summarized + l.lost != l.letters { return "ledger does not add up: \(l.letters) letters" }
            if l.causes.reduce(0, +) != l.lost { return "causes do not add up to lost" }
            if Double(l.events) > estimate.events * 1.5 + 100 {
                return "the estimate (\(estimate.events) events) is far below the run (\(l.events))"
            }
        }
        return nil
    }
}

@Suite struct ScenarioFuzzTests {
    /// Cases per run: 10 000 by default; `PUSHSIM_FUZZ_CASES=1000000` for the long mode.
    static var caseCount: Int {
        ProcessInfo.processInfo.environment["PUSHSIM_FUZZ_CASES"].flatMap { Int($0) }.map { max(1, $0) } ?? 10_000
    }

    @Test func corpusIsThereAndValid() throws {
        #expect(FuzzCorpus.files.count >= 7)
        for (name, bytes) in FuzzCorpus.files {
            guard case .valid = FuzzOracle.check(bytes, file: name) else {
                Issue.record("\(name) does not read as a valid scenario")
                continue
            }
        }
    }

    /// Every mutated case is a valid scenario or an error naming `file:line:column`; none traps
    /// (a trap would kill this process) or takes a second.
    @Test func mutatedScenariosReadOrFailWithALocation() {
        let cases = ScenarioFuzzTests.caseCount
        let corpus = FuzzCorpus.files
        var mutator = ScenarioMutator(seed: 0x5EED_F022)
        var valid = 0, rejected = 0, simulated = 0, bugs = 0
        var templates: [String: Int] = [:]
        var slowest: Duration = .zero
        var timeByKind: [String: Duration] = [:]
        let clock = ContinuousClock()
        let started = clock.now
        for number in 0..<cases {
            let (name, base) = corpus[number % corpus.count]
            let (bytes, kinds) = mutator.mutate(base)
            let file = "fuzz-\(number)-\(name)"
            var outcome = FuzzOutcome.bug("not run")
            var elapsed = clock.measure { outcome = FuzzOracle.check(bytes, file: file) }
            if elapsed > .seconds(1) {
                // A busy machine can stall one case; a slow reader stalls it every time.
                elapsed = clock.measure { outcome = FuzzOracle.check(bytes, file: file) }
                if elapsed > .seconds(1) {
                    Issue.record("case \(number) (\(kinds)) took \(elapsed)")
                }
            }
            slowest = max(slowest, elapsed)
            for kind in kinds { timeByKind[kind.rawValue, default: .zero] += elapsed }
            switch outcome {
            case .valid(let scenario):
                valid += 1
                // A sample of the valid ones also runs, shrunk to two devices.
                if valid % 40 == 1 {
                    var simProblem: String?
                    let simTime = clock.measure { simProblem = FuzzOracle.simulateSmall(scenario) }
                    timeByKind["SIMULATION", default: .zero] += simTime
                    if let problem = simProblem {
                        bugs += 1
                        Issue.record("case \(number) (\(kinds)): \(problem)")
                    } else {
                        simulated += 1
                    }
                }
            case .rejected(let error):
                rejected += 1
                templates[FuzzOracle.template(error.message), default: 0] += 1
            case .bug(let problem):
                bugs += 1
                if bugs <= 20 {
                    Issue.record("case \(number) (\(kinds)): \(problem)\n--- input (first 300 bytes) ---\n\(String(decoding: bytes.prefix(300), as: UTF8.self))")
                }
            }
        }
        let total = clock.now - started
        print("TIMING", timeByKind.sorted { $0.value > $1.value }.map { "\($0.key)=\($0.value)" })
        let top = templates.sorted { $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key) }.prefix(12)
        print("fuzz: \(cases) cases in \(total): \(valid) valid (\(simulated) simulated), \(rejected) rejected with a location, "
              + "\(bugs) bugs; slowest case \(slowest); \(templates.count) kinds of error, most common:\n"
              + top.map { "  \($0.value)× \($0.key)" }.joined(separator: "\n"))
        #expect(bugs == 0)
        #expect(valid > 0 && rejected > 0)
    }

    /// The same cases through the text entry point and the command line agree with the bytes one.
    @Test func textEntryPointAndValidateCommandAgree() throws {
        var mutator = ScenarioMutator(seed: 77)
        let corpus = FuzzCorpus.files
        let folder = NSTemporaryDirectory() + "pushsim-fuzz-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for number in 0..<300 {
            let (name, base) = corpus[number % corpus.count]
            let (bytes, _) = mutator.mutate(base)
            let path = folder + "/case.yaml"
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let byBytes = FuzzOracle.check(bytes, file: path)
            if let text = String(validating: bytes, as: UTF8.self) {
                let byText: String
                do { _ = try ScenarioLoader.parse(text: text, file: path); byText = "ok" } catch { byText = "\(error)" }
                switch byBytes {
                case .valid: #expect(byText == "ok", "case \(number) of \(name)")
                case .rejected(let error): #expect(byText == error.description, "case \(number) of \(name)")
                case .bug(let problem): Issue.record("case \(number): \(problem)")
                }
            }
            let console = Console.capturing()
            let status = PushSimTool.main(["validate", path], console: console)
            switch byBytes {
            case .valid: #expect(status == 0, "case \(number): \(console.standardError)")
            case .rejected(let error):
                #expect(status == 2)
                #expect(console.standardError.hasPrefix(error.description), "case \(number)")
            case .bug: break
            }
        }
    }
}
