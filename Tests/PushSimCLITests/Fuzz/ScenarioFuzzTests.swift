// The scenario fuzzer: mutated bundled scenarios must read as a valid scenario or a located error, never trap or hang.
import Foundation
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
@testable import PushSimExperiment
@testable import PushSimCLI
import PushSimTestSupport

/// What happened to one fuzz case.
enum FuzzOutcome {
    case valid(Scenario)
    case rejected(ScenarioError)
    /// Anything else is a bug: a non-scenario error, an unlocated error, a malformed message.
    case bug(String)
}

enum FuzzOracle {
    /// Reads `bytes` as the file `file` would be read, and checks the answer's shape.
    static func check(_ bytes: [UInt8], file: String, overrides: [String] = []) -> FuzzOutcome {
        do {
            let root = try YAMLReader.read(bytes: bytes, file: file)
            let (scenario, _) = try ScenarioLoader.decodeDocument(root, file: file, overrides: overrides)
            return .valid(scenario)
        } catch let error as ScenarioError {
            // An error in a `--set PATH=VALUE` points into that argument: file `--set`, line 1.
            let fromOverride = error.location?.file == ScenarioError.overrideFile && !overrides.isEmpty
            let lineCount = fromOverride ? 1 : bytes.count { $0 == 0x0A } + 1
            if let problem = problem(with: error, file: fromOverride ? ScenarioError.overrideFile : file, lineCount: lineCount) {
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
        let devices = 0..<small.devices
        let taken = Simulator.simulateSegments(small, devices: devices, arms: small.arms, shortcuts: .taken)
        // The reference path: every step an event, in time order (ShortcutPolicy). The shortcuts
        // may only save events; any other count that differs is a shortcut taken where it is not valid.
        let scheduled = Simulator.simulateSegments(small, devices: devices, arms: small.arms, shortcuts: .scheduled)
        for (a, l) in taken.totals.enumerated() {
            if l.delivered + l.summarized + l.lost != l.letters { return "ledger does not add up: \(l.letters) letters" }
            if l.causes.reduce(0, +) != l.lost { return "causes do not add up to lost" }
            if Double(l.events) > estimate.events * 1.5 + 100 {
                return "the estimate (\(estimate.events) events) is far below the run (\(l.events))"
            }
            var fast = l, slow = scheduled.totals[a]
            if slow.events < fast.events { return "arm \(a): the reference path took fewer events than the shortcuts" }
            fast.events = 0; slow.events = 0
            if fast != slow { return "arm \(a): the ledgers differ with the shortcuts off" }
        }
        return nil
    }
}

@Suite struct ScenarioFuzzTests {
    /// A case slower than this is a reader that stalls (not a busy machine: it is run twice).
    /// The build with internal checks runs under the Address Sanitizer, unoptimised: ten times
    /// the room there.
    #if PUSHSIM_INTERNAL_CHECKS
    static let slowCase = Duration.seconds(10)
    #else
    static let slowCase = Duration.seconds(1)
    #endif

    /// Cases per run: 10 000 by default; `PUSHSIM_FUZZ_CASES=1000000` for the long mode.
    static var caseCount: Int {
        ProcessInfo.processInfo.environment["PUSHSIM_FUZZ_CASES"].flatMap { Int($0) }.map { max(1, $0) } ?? 10_000
    }

    /// One valid case in this many is simulated: 40 by default, `PUSHSIM_FUZZ_SIMULATE_EVERY`.
    static var simulationPeriod: Int {
        ProcessInfo.processInfo.environment["PUSHSIM_FUZZ_SIMULATE_EVERY"].flatMap { Int($0) }.map { max(1, $0) } ?? 40
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

    /// The cases are dealt to this many slices, which run side by side: case `n` is slice
    /// `n % slices`'s, mutated by that slice's own stream.
    static let slices = 4

    /// Every mutated case is a valid scenario or an error naming `file:line:column`; none traps
    /// (a trap would kill this process) or takes a second.
    @Test(arguments: 0..<ScenarioFuzzTests.slices)
    func mutatedScenariosReadOrFailWithALocation(slice: Int) {
        let cases = ScenarioFuzzTests.caseCount
        guard slice < cases else { return }
        let corpus = FuzzCorpus.files
        var mutator = ScenarioMutator(seed: 0x5EED_F022 &+ UInt64(slice))
        var valid = 0, rejected = 0, simulated = 0, bugs = 0
        var templates: [String: Int] = [:]
        var slowest: Duration = .zero
        var timeByKind: [String: Duration] = [:]
        let clock = ContinuousClock()
        let started = clock.now
        for number in stride(from: slice, to: cases, by: ScenarioFuzzTests.slices) {
            let (name, base) = corpus[number % corpus.count]
            // One case in eight keeps the file and fuzzes a `--set` override instead.
            let fuzzOverride = number % 8 == 7
            let (bytes, kinds) = fuzzOverride ? (base, []) : mutator.mutate(base)
            let overrides = fuzzOverride ? [mutator.override()] : []
            let file = "fuzz-\(number)-\(name)"
            var outcome = FuzzOutcome.bug("not run")
            var elapsed = clock.measure { outcome = FuzzOracle.check(bytes, file: file, overrides: overrides) }
            if elapsed > Self.slowCase {
                // A busy machine can stall one case; a slow reader stalls it every time.
                elapsed = clock.measure { outcome = FuzzOracle.check(bytes, file: file, overrides: overrides) }
                if elapsed > Self.slowCase {
                    Issue.record("case \(number) (\(kinds)) took \(elapsed)")
                }
            }
            slowest = max(slowest, elapsed)
            for kind in kinds { timeByKind[kind.rawValue, default: .zero] += elapsed }
            switch outcome {
            case .valid(let scenario):
                valid += 1
                // A sample of the valid ones also runs, shrunk to two devices, with the shortcuts
                // taken and not (every one with PUSHSIM_FUZZ_SIMULATE_EVERY=1, as CI's checks step does).
                if valid % ScenarioFuzzTests.simulationPeriod == 1 % ScenarioFuzzTests.simulationPeriod {
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
                    Issue.record("case \(number) (\(kinds), \(overrides)): \(problem)\n--- input (first 300 bytes) ---\n\(String(decoding: bytes.prefix(300), as: UTF8.self))")
                }
            }
        }
        let total = clock.now - started
        print("fuzz: time by mutation kind: " + timeByKind.sorted { $0.value > $1.value }.prefix(6)
              .map { "\($0.key) \($0.value.formatted(.units(allowed: [.seconds], fractionalPart: .show(length: 1))))" }.joined(separator: ", "))
        let top = templates.sorted { $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key) }.prefix(12)
        print("fuzz, slice \(slice) of \(ScenarioFuzzTests.slices) (every \(ScenarioFuzzTests.slices)th of \(cases) cases) in \(total): \(valid) valid (\(simulated) simulated), \(rejected) rejected with a location, "
              + "\(bugs) bugs; slowest case \(slowest); \(templates.count) kinds of error, most common:\n"
              + top.map { "  \($0.value)× \($0.key)" }.joined(separator: "\n"))
        expectEqual(bugs, 0)
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
                case .valid: expectEqual(byText, "ok", "case \(number) of \(name)")
                case .rejected(let error): expectEqual(byText, error.description, "case \(number) of \(name)")
                case .bug(let problem): Issue.record("case \(number): \(problem)")
                }
            }
            let console = Console.capturing()
            let status = PushSimTool.main(["validate", path], console: console)
            switch byBytes {
            case .valid: expectEqual(status, 0, "case \(number): \(console.standardError)")
            case .rejected(let error):
                expectEqual(status, 2)
                #expect(console.standardError.hasPrefix(error.description), "case \(number)")
            case .bug: break
            }
        }
    }
}

/// Valid scenarios with values pushed to their extremes, run for real (two devices): where the
/// reader's checks end and the simulator's arithmetic begins, nothing may trap.
@Suite struct ExtremeValueFuzzTests {
    static let extremes: [(path: String, values: [String])] = [
        ("duration", ["1us", "1d", "106751989d", "106751990d"]),
        ("drain", ["0", "1us", "1000000d"]),
        ("seed", ["0", "18446744073709551615"]),
        ("mail.rate", ["0/d", "1/us", "1/106751989d", "0.0000001/d", "100/d", "1/2us"]),
        ("connectivity.online", ["1us", "exponential(1us)", "uniform(0, 1us)", "lognormal(1us, 1d)", "106751990d", "exponential(1000000d)"]),
        ("connectivity.offline", ["0", "1us", "exponential(1us)", "uniform(0, 0)", "lognormal(1us, 1d)", "106751990d"]),
        ("connectivity.windows", ["[{start: 0, end: 1us, every: 1us}]", "[{start: 0, end: 106751989d}]",
                                  "[{start: 1h, end: 2h, every: 1000000d}]", "[{start: 73000000d, end: 73000001d, every: 36500000d}]",
                                  "[{start: 0, end: 1h, every: 10000000d}]", "[{start: 106751990d, end: 106751991d, every: 2d}]",
                                  "[{start: 0, end: 2us, every: 3us}]", "[]"]),
        ("xiva.drop", ["0", "1", "100%"]), ("xiva.request_error", ["0", "1"]), ("apns.loss", ["0", "1", "0.5"]),
        ("device.alerts_off", ["0", "1"]),
        ("xiva.latency", ["0", "1us", "uniform(0, 0)", "exponential(1us)", "2000000d", "exponential(2000000d)", "lognormal(1us, 1us)"]),
        ("apns.latency", ["0", "1us", "2000000d", "lognormal(1s, 1h)", "uniform(0, 2000000d)"]),
        ("xiva.request_latency", ["0", "2000000d", "exponential(1us)"]),
        ("xiva.resend_latency", ["0", "2000000d"]),
        ("extension.processing", ["0", "1us", "2000000d", "exponential(100000d)"]),
        ("xiva.retention", ["0", "1us", "forever", "106751990d"]),
        ("apns.expiration", ["0", "1us", "forever", "106751990d"]),
        ("extension.deadline", ["0", "1us", "forever", "106751990d"]),
        ("device.clear_after", ["forever", "0", "1us", "exponential(1us)"]),
        ("queue.repeat_max_count", ["0", "1", "9223372036854775807"]),
        ("queue.mode", ["off", "on", "both"]), ("queue.client", ["intended", "literal"]), ("queue.collapse_id", ["true", "false"]),
        ("warmup", ["0", "1us", "23h59m"]),
        ("mail.daily_profile", ["[" + Array(repeating: "1", count: 24).joined(separator: ", ") + "]",
                                "[" + Array(repeating: "0", count: 23).joined(separator: ", ") + ", 0.0000001]"]),
        ("mail.bursts", ["{rate: 1/d, size: 1}", "{rate: 1/us, size: 9223372036854775807}", "{rate: 0/d, size: 1, spread: 106751990d}",
                         "{rate: 3/h, size: 5, spread: 1us}"]),
        ("connectivity.windows", ["[{start: 0, length: exponential(1000000d), every: 1us, spread: 1us}]",
                                  "[{start: 23h, end: 1h, every: 1d, spread: 106751000d}]", "[{start: 1h, length: 0, spread: 1d}]",
                                  "[{start: 0, length: lognormal(1us, 106751990d), every: 2us}]"]),
        ("apns.keep_older", ["0", "1"]), ("apns.keep_window", ["0", "1us", "106751990d"]), ("apns.duplicate", ["0", "1"]),
        ("segments", ["[{name: a, share: 1}]", "[{name: a, share: 0}, {name: b, share: 100%, mail: {rate: 1/us}}]",
                      "[{name: a, share: 0.5, connectivity: {online: 1us, offline: 1us}}, {name: b, share: 0.5}]"]),
    ]

    static var caseCount: Int {
        ProcessInfo.processInfo.environment["PUSHSIM_FUZZ_CASES"].flatMap { Int($0) }.map { max(1, $0 / 40) } ?? 250
    }

    @Test func extremeValidValuesRunWithoutTrapping() {
        var rng = RandomStream(seed: 0xE87_2E3E)
        let corpus = FuzzCorpus.files
        var ran = 0, refused = 0, invalid = 0
        for number in 0..<ExtremeValueFuzzTests.caseCount {
            let (name, bytes) = corpus[number % corpus.count]
            var overrides: [String] = ["devices=2"]
            for _ in 0...Int(rng.next() % 4) {
                let axis = ExtremeValueFuzzTests.extremes[Int(rng.next() % UInt64(ExtremeValueFuzzTests.extremes.count))]
                overrides.append(axis.path + "=" + axis.values[Int(rng.next() % UInt64(axis.values.count))])
            }
            switch FuzzOracle.check(bytes, file: name, overrides: overrides) {
            case .valid(let scenario):
                let estimate = ResourceEstimate(scenario, jobs: 1)
                if estimate.refusal(under: .init(maxEvents: 100_000, maxMemoryBytes: 256 * 1024 * 1024), name: name) != nil {
                    refused += 1
                    continue
                }
                if let problem = FuzzOracle.simulateSmall(scenario) { Issue.record("case \(number) \(overrides): \(problem)") }
                ran += 1
            case .rejected: invalid += 1
            case .bug(let problem): Issue.record("case \(number) \(overrides): \(problem)")
            }
        }
        print("extreme values: \(ExtremeValueFuzzTests.caseCount) cases: \(ran) simulated, \(refused) refused by the estimate, \(invalid) rejected by the reader")
        #expect(ran > 0)
    }
}
