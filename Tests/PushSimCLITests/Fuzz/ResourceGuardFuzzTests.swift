// The resource guard's fuzzer: version-2 scenarios with every mechanism at its extremes, run by the built tool under a time and memory cap.
import Foundation
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
@testable import PushSimExperiment
@testable import PushSimCLI
import PushSimTestSupport

/// Each case is a small version-2 scenario file with a few groups of `--set` overrides, each
/// group turning one mechanism on at an extreme (1 µs windows and periods, rates of one a
/// microsecond or one in 300 000 years, 10^12 devices, 2 000 segments, 100 attempts, a
/// resend buffer of a million). The built `pushsim` runs it (`run`, `trace` or `find`) in a
/// child process with a wall-clock limit, an address-space limit (`ulimit -v`) and its
/// resident memory polled, and the case must end in one of two ways:
///
/// - refused (exit 2, a message, nothing on standard output for `run`), within
///   ``refusalSeconds``: the reader or the estimate saw it, before any work;
/// - run (exit 0) within ``runSeconds``, its peak resident memory under the estimate's memory
///   and, for `run`, its kernel events (the JSON's) under the estimate's events.
///
/// Anything else (a crash, a signal, a timeout, memory over the estimate) is a failure. One
/// fixed seed and ``caseCount`` cases: under a minute on two busy cores with a debug build.
@Suite(.serialized) struct ResourceGuardFuzzTests {
    /// Fixed, so a failure is reproduced by its case number; `PUSHSIM_GUARD_FUZZ_SEED` explores others.
    static var seed: UInt64 {
        ProcessInfo.processInfo.environment["PUSHSIM_GUARD_FUZZ_SEED"].flatMap { UInt64($0) } ?? 0x6A4D_F022
    }
    static var caseCount: Int {
        ProcessInfo.processInfo.environment["PUSHSIM_GUARD_FUZZ_CASES"].flatMap { Int($0) } ?? 60
    }
    /// The limits every case runs under: small enough that an accepted case is quick in a debug
    /// build (2 × 10^6 events at a debug build's 1–3 M events/s), large enough that ordinary
    /// small scenarios are accepted and really run.
    static let maxEvents = "2000000"
    static let maxMemory = "768M"
    /// A refusal is found from the scenario's keys alone: a debug build's start-up and reading
    /// take tens of milliseconds; 3 s leaves room for two other builds on the machine.
    static let refusalSeconds = 3.0
    static let runSeconds = 30.0
    /// The child's address space: a fence for a case the guard misses (so it fails here
    /// rather than swapping the machine), well above --max-memory and the runtime's reservations.
    static let addressSpaceKB = 6 * 1024 * 1024

    /// Three devices for six hours: what every case starts from.
    static let base = """
        name: fuzz
        seed: 3
        duration: 6h
        drain: 1h
        devices: 3
        mail: {rate: 40/d}
        connectivity: {online: exponential(2h), offline: exponential(20m)}

        """

    /// The groups of overrides: each turns one mechanism (or one size) on at an extreme, or at
    /// an ordinary value so that some cases really run.
    static let groups: [(name: String, choices: [[String]])] = [
        ("devices", [["devices=1"], ["devices=200"], ["devices=1000000000000"], ["devices=1000000000000", "mail.rate=0/d"]]),
        ("duration", [["duration=1us"], ["duration=1d"], ["duration=106751989d"], ["drain=0"], ["warmup=1h"]]),
        ("mail.rate", [["mail.rate=0/d"], ["mail.rate=0.0000001/d"], ["mail.rate=1/us"], ["mail.rate=1000000000/us"], ["mail.rate=400/d"]]),
        ("mail.bursts", [["mail.bursts={rate: 1/us, size: 1000000}"], ["mail.bursts={rate: 1/d, size: 9223372036854775807}"],
                         ["mail.bursts={rate: 3/h, size: 5, spread: 1us}"]]),
        ("connectivity", [["connectivity.online=1us", "connectivity.offline=1us"], ["connectivity.online=exponential(1us)"],
                          ["connectivity.windows=[{start: 0, end: 1us, every: 2us}]"],
                          ["connectivity.windows=[{start: 0, length: exponential(1us), every: 2us, spread: 1us}]"],
                          ["connectivity.windows=[{start: 1h, end: 2h, every: 3h}]"]]),
        ("device.doze", [["channel=fcm", "device.doze=[{start: 0, end: 1us, every: 2us}]"],
                         ["channel=fcm", "fcm.priority=high", "device.doze=[{start: 0, end: 1us, every: 2us}]"],
                         ["channel=fcm", "device.doze=[{start: 0, end: 10m, every: 1h}]"]]),
        ("fcm", [["channel=fcm", "fcm.collapse_keys=3", "fcm.ttl=0"], ["channel=fcm", "fcm.ttl=28d"], ["channel=pushkit"]]),
        ("device.sleep", [["apns.priority=50%", "device.sleep={awake: 1s, asleep: 1s}"],
                          ["apns.priority=5", "device.sleep={awake: exponential(1s), asleep: exponential(1h)}"],
                          ["apns.priority=30%", "device.sleep={awake: exponential(1h), asleep: exponential(20m)}"]]),
        ("device.app_open", [["recovery=catch_up", "device.app_open=1s"], ["recovery=catch_up", "device.app_open=1us"], ["recovery=catch_up", "device.app_open=exponential(10m)"],
                             ["recovery=background_sync", "device.app_open=1us"],
                             ["recovery=background_sync", "device.app_open=exponential(2h)", "device.background_sync={force_quit: 30%}"]]),
        ("xiva.retry", [["xiva.retry={attempts: 100, backoff: 0}", "apns.server_error=1"],
                        ["xiva.retry={attempts: 100, backoff: 1us}", "apns.token_limit=1", "apns.token_window=106751989d"],
                        ["xiva.retry={attempts: 3, backoff: exponential(2s)}", "apns.answer_loss=10%"]]),
        ("apns", [["apns.duplicate=1", "apns.keep_older=1", "apns.keep_window=106751989d"], ["mail.payload_size=lognormal(1KB, 1048576KB)"]]),
        ("device.reinstall", [["device.reinstall=1/h"], ["device.reinstall=1/us"], ["device.reinstall=1/106751989d"]]),
        ("device.id_change", [["device.id_change=1/h"], ["device.id_change=1/us"]]),
        ("device.uninstall", [["device.uninstall=1/us"], ["device.uninstall=1/2h"]]),
        ("extension", [["extension.early_kill=1"], ["extension.concurrency=parallel", "extension.save_delay=1us"],
                       ["extension.media={share: 1, size: 1024MB, bandwidth: 1bit/s}"],
                       ["extension.media={share: 50%, size: 10KB, bandwidth: uniform(200kbit/s, 20Mbit/s)}"]]),
        ("apns.interface", [["apns.interface=binary", "apns.malformed=1", "xiva.resend_buffer=1000000", "apns.connection_rate=1/us"],
                            ["apns.interface=binary", "apns.malformed=5%", "channel=apns"]]),
        ("device.low_power", [["device.low_power={share: 1, windows: [{start: 0, end: 1us}, {start: 2us, end: 3us}]}"],
                              ["device.low_power={share: 20%, windows: [{start: 19h, end: 23h}]}", "device.low_power.release_order=held"]]),
        ("device.focus", [["device.focus={share: 1, windows: [{start: 0, end: 1us}, {start: 2us, end: 3us}]}"],
                          ["device.focus={share: 33%, windows: [{start: 22h, end: 7h}]}", "device.notification_summary={share: 25%, times: [8h, 18h]}"]]),
        ("xiva.outages", [["xiva.outages=[{start: 0, end: 1us, every: 2us}]"], ["xiva.outages=[{start: 0, end: 1m, every: 10m}]"],
                          ["xiva.outages=[{start: 1h, end: 2h}]", "xiva.outage_mode=drop"]]),
        ("apns.outages", [["apns.outages=[{start: 0, end: 1us, every: 2us}]"], ["apns.outages=[{start: 0, end: 1m, every: 10m, share: 50%}]", "xiva.retry={attempts: 100, backoff: 1us}"],
                          ["apns.outages=[{start: 1h, end: 2h, answer: unreachable}]"]]),
        ("apns.token_refresh", [["apns.token_refresh={every: exponential(1s), lockout: 1us}"], ["apns.token_refresh={every: uniform(0, 2h), lockout: 1us, too_soon: 1d}", "xiva.retry={attempts: 100, backoff: 1us}"],
                                ["apns.token_refresh={every: 1d, lifetime: 1us}"]]),
        ("apns.store", [["apns.store={slots: unlimited, per: collapse_id}", "mail.rate=1/us", "connectivity.windows=[{start: 0, end: 1d}]"],
                        ["apns.store={slots: 1000000, keep: random}"], ["apns.store.keep=oldest", "queue.collapse_id=false"]]),
        ("xiva.capacity", [["xiva.capacity=1/1000000d", "xiva.partitions=1"], ["xiva.capacity=1000000000/us"],
                           ["xiva.capacity=5/s", "xiva.partitions=3"]]),
        ("segments", [[segments(2_000, every: "")], [segments(2, every: ", channel: fcm, device: {doze: [{start: 0, end: 1us, every: 2us}]}")],
                      [segments(3, every: ", mail: {rate: 1/us}")], [segments(2, every: ", device: {reinstall: 1/1h}")]]),
    ]

    /// `segments=[…]` with `count` segments of equal shares (2 000: 0.05% each), each with `every`.
    static func segments(_ count: Int, every: String) -> String {
        let share = count == 2_000 ? "0.05%" : count == 3 ? "" : "\(100 / count)%"
        let items = (0..<count).map { i -> String in
            let own = count == 3 ? ["33.3%", "33.3%", "33.4%"][i] : share
            return "{name: s\(i), share: \(own)\(every)}"
        }
        return "segments=[" + items.joined(separator: ", ") + "]"
    }

    /// What one case did.
    struct Outcome {
        var status: Int32
        var seconds: Double
        var peakBytes: Double
        var output: String
        var error: String
        var timedOut: Bool
    }

    /// Runs the built tool with `arguments` under the caps, polling its resident memory.
    static func run(_ arguments: [String], in folder: String) throws -> Outcome {
        let tool = try BuiltTool.required()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        // `exec` keeps the process id, so /proc/PID/status is the tool's own.
        process.arguments = ["-c", "ulimit -v \(addressSpaceKB) && exec \"$0\" \"$@\"", tool.path] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        // Output to files, so a chatty case cannot fill a pipe and stall.
        let outPath = folder + "/out.txt", errPath = folder + "/err.txt"
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        process.standardOutput = FileHandle(forWritingAtPath: outPath)
        process.standardError = FileHandle(forWritingAtPath: errPath)
        process.standardInput = FileHandle.nullDevice
        let started = Date()
        try process.run()
        var peak = 0.0, timedOut = false
        while process.isRunning {
            peak = max(peak, residentBytes(of: process.processIdentifier))
            if Date().timeIntervalSince(started) > runSeconds {
                timedOut = true
                // Only this case's own child, by its id.
                kill(process.processIdentifier, SIGKILL)
                break
            }
            usleep(5_000)
        }
        process.waitUntilExit()
        let seconds = Date().timeIntervalSince(started)
        let output = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        let error = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        return Outcome(status: process.terminationStatus, seconds: seconds, peakBytes: peak, output: output, error: error,
                       timedOut: timedOut)
    }

    /// The resident set (VmRSS) of a running process; 0 once it is gone.
    static func residentBytes(of pid: Int32) -> Double {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let kb = line.split(separator: " ").compactMap { Double($0) }.first ?? 0
            return kb * 1024
        }
        return 0
    }

    /// The kernel events of a run's JSON: every arm's `"events"`.
    static func events(inJSON text: String) -> Double {
        var total = 0.0
        var rest = Substring(text)
        while let range = rest.range(of: "\"events\":") {
            rest = rest[range.upperBound...]
            let digits = rest.drop { $0 == " " }.prefix { $0.isNumber }
            total += Double(digits) ?? 0
        }
        return total
    }

    @Test func everyCaseIsRefusedQuicklyOrRunsWithinItsEstimate() throws {
        _ = try BuiltTool.required()
        let folder = TemporaryDirectory()
        let file = folder.write("fuzz.yaml", Self.base)
        var rng = RandomStream(seed: Self.seed)
        func below(_ n: Int) -> Int { Int(rng.next() % UInt64(max(1, n))) }
        var refused = 0, ran = 0, byEstimate = 0
        let limits = try ResourceEstimate.Limits.parse(maxEvents: Self.maxEvents, maxMemory: Self.maxMemory)
        for number in 0..<Self.caseCount {
            var overrides: [String] = []
            var names: [String] = []
            for _ in 0...below(3) {
                let group = Self.groups[below(Self.groups.count)]
                names.append(group.name)
                overrides += group.choices[below(group.choices.count)]
            }
            let command: [String]
            switch below(4) {
            case 0: command = ["trace", file, "--device", "0"]
            case 1: command = ["find", file, "--fate", "lost"]
            default: command = ["run", file, "--no-write", "--json"]
            }
            // `trace` runs one device (or its partition) on one thread and takes no --jobs.
            let arguments = command + (command[0] == "trace" ? [] : ["--jobs", "1"])
                + ["--max-events", Self.maxEvents, "--max-memory", Self.maxMemory] + overrides.flatMap { ["--set", $0] }
            let label = "case \(number) (\(names.joined(separator: ", "))): pushsim \(command[0]) \(overrides)"
            let outcome = try Self.run(arguments, in: folder.path)
            #expect(!outcome.timedOut, "\(label): still running after \(Self.runSeconds) s")
            switch outcome.status {
            case 2:
                refused += 1
                // The fuzzer's own command lines are well formed: a usage error is its bug.
                #expect(!outcome.error.contains("Usage:"), "\(label): \(outcome.error.prefix(300))")
                if outcome.error.contains("refusing to run") { byEstimate += 1 }
                else if ProcessInfo.processInfo.environment["PUSHSIM_GUARD_FUZZ_VERBOSE"] != nil { print("reader: \(outcome.error.prefix(200))") }
                #expect(outcome.seconds < Self.refusalSeconds, "\(label): refused after \(outcome.seconds) s")
                #expect(!outcome.error.isEmpty, "\(label): refused without a message")
                if command[0] == "run" { #expect(outcome.output.isEmpty, "\(label): refused but printed \(outcome.output.prefix(200))") }
            case 0:
                ran += 1
                // The same scenario, in process: the estimate the tool checked.
                let scenario = try ScenarioLoader.load(path: file, overrides: overrides)
                let estimate = switch command[0] {
                case "trace": ResourceGuard.traceEstimate(scenario, device: 0)
                case "find": ResourceGuard.findEstimate(scenario, arm: scenario.queue.mode == .off ? .off : .on, jobs: 1)
                default: ResourceEstimate(scenario, jobs: 1)
                }
                #expect(estimate.refusal(under: limits, name: "fuzz") == nil, "\(label): ran though its estimate is refused")
                #expect(outcome.peakBytes <= estimate.memoryBytes,
                        "\(label): peak resident \(outcome.peakBytes) bytes over the estimate's \(estimate.memoryBytes)")
                if command[0] == "run" {
                    let measured = Self.events(inJSON: outcome.output)
                    #expect(measured <= estimate.events, "\(label): \(measured) events over the estimate's \(estimate.events)")
                }
            default:
                Issue.record("\(label): exit status \(outcome.status) after \(outcome.seconds) s: \(outcome.error.suffix(400))")
            }
        }
        print("resource guard fuzz: seed \(Self.seed), \(Self.caseCount) cases, \(refused) refused (\(byEstimate) by the estimate, the rest by the reader), \(ran) ran")
        // Both outcomes must be exercised, or the fuzzer tests nothing.
        #expect(byEstimate > 0 && ran > 0)
    }

    /// The issue's mail trace case: a 1 GiB trace (sparse, so it costs no disk) is refused from
    /// its size, in milliseconds, not read whole first.
    @Test func aHugeTraceIsRefusedUnread() throws {
        _ = try BuiltTool.required()
        let folder = TemporaryDirectory()
        let trace = folder.file("huge.csv")
        _ = FileManager.default.createFile(atPath: trace, contents: Data("time,device\n".utf8))
        let handle = try #require(FileHandle(forWritingAtPath: trace))
        try handle.truncate(atOffset: 1 << 30)
        try handle.close()
        let file = folder.write("t.yaml", "name: t\nduration: 1d\ndevices: 10\nmail: {trace: huge.csv}\n")
        let outcome = try Self.run(["run", file, "--no-write", "--max-memory", "2G"], in: folder.path)
        expectEqual(outcome.status, 2)
        #expect(outcome.error.contains("--max-memory") && outcome.error.contains("1073741824 bytes"))
        #expect(outcome.seconds < Self.refusalSeconds)
        // Far below the 3 GB that reading it took.
        #expect(outcome.peakBytes < 256 * 1024 * 1024)
    }
}
