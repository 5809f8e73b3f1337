// The resource estimate: close to what runs really do, and refusing what a machine cannot do, quickly and before any work.
import Foundation
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
@testable import PushSimExperiment
@testable import PushSimCLI
import PushSimTestSupport

private func scenario(_ text: String) throws -> Scenario {
    try ScenarioLoader.parse(text: text, file: "r.yaml")
}

private let small = """
name: small
seed: 3
duration: 2d
drain: 1d
devices: 40
mail:
  rate: 30/d
connectivity:
  online: exponential(2h)
  offline: exponential(30m)
  windows:
    - {start: 8h, end: 9h, every: 1d}
apns:
  loss: 1%
  latency: lognormal(150ms, 3s)

"""

/// Runs `pushsim` in process; returns the status, standard error and the wall time taken.
private func pushsim(_ arguments: [String]) -> (status: Int32, err: String, seconds: Double) {
    let console = Console.capturing()
    let clock = ContinuousClock()
    var status: Int32 = -1
    let elapsed = clock.measure { status = PushSimTool.main(arguments, console: console) }
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return (status, console.standardError, seconds)
}

/// A scenario file in a fresh folder; the folder is removed by the caller.
private func scenarioFile(_ text: String) -> (folder: String, file: String) {
    let folder = NSTemporaryDirectory() + "pushsim-resource-\(UUID().uuidString)"
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let file = folder + "/s.yaml"
    _ = FileManager.default.createFile(atPath: file, contents: Data(text.utf8))
    return (folder, file)
}

@Suite struct ResourceEstimateTests {
    // MARK: The estimate against real runs

    @Test func estimateIsCloseToARealRun() throws {
        let sc = try scenario(small)
        let estimate = ResourceEstimate(sc, jobs: 1)
        let result = Simulator.run(sc, jobs: 1)
        let letters = Double(result.arms[0].ledger.letters)
        // Letters: devices × rate × duration, within 5 standard deviations of a Poisson count.
        #expect(abs(letters - estimate.letters) < 5 * estimate.letters.squareRoot())
        // Events: an upper estimate, but not a wild one.
        let events = Double(result.arms.reduce(0) { $0 + $1.ledger.events })
        #expect(estimate.events >= events)
        #expect(estimate.events < 4 * events)
        expectEqual(estimate.arms, 2)
        // Flips: 2 × end / (3h + 30m)… per device plus two per daily window over 3 days.
        let end = 3.0 * Double(SimTime.day)
        #expect(abs(estimate.flipsPerDevice - (2 * end / (2.5 * Double(SimTime.hour)) + 2 + 2 * (3 + 2))) < 1)
    }

    @Test func bundledScenariosFitTheDefaultLimits() throws {
        let folder = FuzzCorpus.repositoryRoot + "/scenarios"
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".yaml") }
        #expect(names.count >= 6)
        let limits = ResourceEstimate.Limits(maxEvents: ResourceEstimate.Limits.defaultMaxEvents, maxMemoryBytes: 2 * 1024 * 1024 * 1024)
        for name in names {
            let sc = try ScenarioLoader.load(path: folder + "/" + name)
            let estimate = ResourceEstimate(sc, jobs: 8)
            #expect(estimate.refusal(under: limits, name: sc.name) == nil, "\(name): \(estimate.summary)")
        }
    }

    // MARK: What is refused

    @Test func aQuadrillionDevicesIsRefusedInMilliseconds() throws {
        let sc = try scenario(small.replacingOccurrences(of: "devices: 40", with: "devices: 1000000000000000"))
        let clock = ContinuousClock()
        var refusal: String?
        let elapsed = clock.measure { refusal = ResourceEstimate(sc, jobs: 2).refusal(under: .machineDefaults(), name: sc.name) }
        #expect(elapsed < .milliseconds(50))
        let message = try #require(refusal)
        #expect(message.contains("refusing to run 'small'"))
        #expect(message.contains("events"))
        #expect(message.contains("--shard"))

        // Through the command line: exit 2, a message, nothing written, well under a second.
        let (folder, file) = scenarioFile(small.replacingOccurrences(of: "devices: 40", with: "devices: 1000000000000000"))
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (status, err, seconds) = pushsim(["run", file, "--out", folder + "/out"])
        expectEqual(status, 2)
        #expect(err.contains("refusing to run") && err.contains("--shard") && err.contains("--max-events"))
        #expect(seconds < 1)
        #expect(!FileManager.default.fileExists(atPath: folder + "/out"))
    }

    @Test func windowsRepeatingEveryMicrosecondAreRefusedBeforeAnyIsLaidOut() throws {
        // The estimate makes the chain's parameters for a shared partition (ChainParameters):
        // the windows every device shares and FCM's doze windows are laid out only when a world
        // is made, so a run whose windows number in the billions is refused, not killed by the
        // memory its windows would take (both crashed before: 17 GB, then signal 6).
        let partitioned = small.replacingOccurrences(of: "apns:", with: "xiva:\n  capacity: 1000/s\napns:")
        let cases = [
            partitioned.replacingOccurrences(of: "    - {start: 8h, end: 9h, every: 1d}", with: "    - {start: 0, end: 1us, every: 2us}"),
            partitioned + "channel: fcm\nfcm:\n  priority: normal\ndevice:\n  doze:\n    - {start: 0, end: 1us, every: 2us}\n",
        ]
        for (k, text) in cases.enumerated() {
            let (folder, file) = scenarioFile(text)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let (status, err, seconds) = pushsim(["run", file, "--out", folder + "/out", "--max-memory", "2GB"])
            expectEqual(status, 2, "case \(k): \(err.prefix(300))")
            #expect(err.contains("refusing to run") && err.contains("connectivity changes"), "case \(k)")
            #expect(seconds < 1, "case \(k)")
            #expect(!FileManager.default.fileExists(atPath: folder + "/out"))
        }
    }

    @Test func theLargestDeviceCountIsRefusedNotCrashed() throws {
        let sc = try scenario(small.replacingOccurrences(of: "devices: 40", with: "devices: 9223372036854775807")
            .replacingOccurrences(of: "  rate: 30/d", with: "  rate: 0/d"))
        // No letters and no connectivity work… but more devices than the run can count.
        var noConnectivity = sc
        noConnectivity.connectivity = .init()
        let refusal = ResourceEstimate(noConnectivity, jobs: 1024).refusal(under: .init(maxEvents: .infinity, maxMemoryBytes: .infinity), name: "x")
        expectEqual(refusal?.contains("more than one run can count"), true)
    }

    @Test func absurdConnectivityIsRefusedNotRun() throws {
        let text = small.replacingOccurrences(of: "exponential(2h)", with: "1us")
            .replacingOccurrences(of: "exponential(30m)", with: "1us")
            .replacingOccurrences(of: "duration: 2d", with: "duration: 30d")
            .replacingOccurrences(of: "devices: 40", with: "devices: 1")
        let sc = try scenario(text)
        let estimate = ResourceEstimate(sc, jobs: 1)
        // A flip every microsecond for 31 days.
        #expect(estimate.flipsPerDevice > 2.6e12)
        let refusal = try #require(estimate.refusal(under: .machineDefaults(), name: sc.name))
        #expect(refusal.contains("connectivity changes"))
        let (folder, file) = scenarioFile(text)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (status, _, seconds) = pushsim(["run", file, "--no-write"])
        #expect(status == 2 && seconds < 1)
    }

    @Test func heavyTailedPeriodsAreNotMistakenForRareFlips() throws {
        // A median of 1 µs with a huge mean: most periods are tiny, which the truncated mean sees.
        let sc = try scenario(small.replacingOccurrences(of: "exponential(2h)", with: "lognormal(1us, 1h)")
            .replacingOccurrences(of: "exponential(30m)", with: "lognormal(1us, 1h)"))
        let estimate = ResourceEstimate(sc, jobs: 1)
        var world = DeviceWorld(scenario: sc)
        world.prepare(device: 0)
        let flips = Double(world.draws.timeline.flips.count)
        #expect(estimate.flipsPerDevice > flips / 3, "estimate \(estimate.flipsPerDevice), device 0 had \(flips)")
    }

    @Test func windowsEveryMicrosecondAreRefusedOrMerged() throws {
        // Offline for 1 µs every 2 µs: 1.3 × 10¹¹ windows a device.
        let every2 = small.replacingOccurrences(of: "{start: 8h, end: 9h, every: 1d}", with: "{start: 0, end: 1us, every: 2us}")
        let estimate = ResourceEstimate(try scenario(every2), jobs: 1)
        #expect(estimate.windowIntervals > 1e11)
        #expect(estimate.refusal(under: .machineDefaults(), name: "w") != nil)
        let (folder, file) = scenarioFile(every2)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (status, err, seconds) = pushsim(["run", file, "--no-write"])
        #expect(status == 2 && seconds < 1)
        #expect(err.contains("refusing"))
        // `every: 1us` with a 1 µs window covers all time: one interval, nothing to refuse for it.
        let every1 = small.replacingOccurrences(of: "{start: 8h, end: 9h, every: 1d}", with: "{start: 0, end: 1us, every: 1us}")
        #expect(ResourceEstimate(try scenario(every1), jobs: 1).windowIntervals == 1)
        // A window far in the future repeating often is counted by the steps to lay it out.
        let far = small.replacingOccurrences(of: "{start: 8h, end: 9h, every: 1d}", with: "{start: 100000d, end: 100000d1h, every: 2h}")
        let farEstimate = ResourceEstimate(try scenario(far), jobs: 1)
        #expect(farEstimate.windowSteps > 1e6)
    }

    @Test func maxEventsAndMaxMemoryAreHonoured() throws {
        let (folder, file) = scenarioFile(small)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let events = pushsim(["run", file, "--no-write", "--max-events", "1000"])
        expectEqual(events.status, 2)
        #expect(events.err.contains("over the limit of 1000 (--max-events)"))
        let memory = pushsim(["run", file, "--no-write", "--max-memory", "1M"])
        expectEqual(memory.status, 2)
        #expect(memory.err.contains("(--max-memory)"))
        expectEqual(pushsim(["run", file, "--no-write", "--max-events", "4e10", "--max-memory", "8G", "--jobs", "1"]).status, 0)
        for bad in [["--max-events", "-5"], ["--max-events", "lots"], ["--max-events", "1e999"], ["--max-memory", "4Q"],
                    ["--max-memory", ""], ["--max-memory", "-1G"], ["--max-events", "0"]] {
            let result = pushsim(["run", file, "--no-write"] + bad)
            expectEqual(result.status, 2, "\(bad)")
            #expect(result.err.contains("--max-"), "\(bad)")
        }
    }

    @Test func sizesAndCountsParse() throws {
        try expectEqual(ResourceEstimate.Limits.bytes("512M"), 512 * 1024 * 1024)
        try expectEqual(ResourceEstimate.Limits.bytes("1.5GiB"), 1.5 * 1024 * 1024 * 1024)
        try expectEqual(ResourceEstimate.Limits.bytes("2gb"), 2 * 1024 * 1024 * 1024)
        try expectEqual(ResourceEstimate.Limits.bytes("1000"), 1000)
        try expectEqual(ResourceEstimate.Limits.events("4e10"), 4e10)
        try expectEqual(ResourceEstimate.Limits.events("5000000"), 5_000_000)
        #expect(throws: ResourceEstimate.Limits.Problem.self) { try ResourceEstimate.Limits.bytes("G") }
        #expect(throws: ResourceEstimate.Limits.Problem.self) { try ResourceEstimate.Limits.events("e5") }
    }

    @Test func theEstimateNeverTrapsOrGoesNonFinite() throws {
        let extremes = [
            "devices: 9223372036854775807", "duration: 106751989d", "  rate: 1000000000/us",
            "  online: lognormal(1us, 106751990d)", "  online: uniform(0, 1us)", "  offline: exponential(106751990d)",
        ]
        for extreme in extremes {
            let key = String(extreme.prefix { $0 != ":" })
            let text = small.split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.hasPrefix(key + ":") ? extreme : String($0) }.joined(separator: "\n")
            let sc = try scenario(text)
            for jobs in [1, 2, 1024, Int.max] {
                let e = ResourceEstimate(sc, jobs: jobs)
                for value in [e.events, e.memoryBytes, e.letters, e.flipsPerDevice, e.windowIntervals] {
                    #expect(value.isFinite && value >= 0, "\(extreme): \(value)")
                }
                _ = e.refusal(under: .machineDefaults(), name: "x")
            }
        }
    }
}
