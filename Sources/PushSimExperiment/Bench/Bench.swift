// `pushsim bench`: a fixed ladder of workloads timed in-process, with medians of repetitions.
import Dispatch
import Foundation
import PushSimCore
import PushSimScenarioFile

/// One workload of the ladder: the bench scenario with this many devices and simulated days.
package struct BenchRung: Hashable, Sendable {
    package var devices: Int
    package var days: Int
    /// The version-2 workload (segments, a daily profile, windows with spread, keep_older,
    /// duplicates) instead of the version-1 chain.
    package var realistic: Bool
    /// The coupled workload: the bench chain with a finite XIVA capacity in 10 partitions, so
    /// each partition's devices run together (docs/performance.md, The coupled path).
    package var coupled: Bool
    /// The binary workload: the bench chain written over APNs' binary interface, one connection
    /// per XIVA partition, so every push stops its world (docs/performance.md, The binary
    /// interface on the coupled path).
    package var binary: Bool
    /// A user's own scenario instead of the bench workload (`pushsim bench FILE`).
    package var file: BenchFile?
    package init(devices: Int, days: Int = 7, realistic: Bool = false, coupled: Bool = false, binary: Bool = false) {
        self.devices = devices; self.days = days; self.realistic = realistic; self.coupled = coupled
        self.binary = binary
    }

    /// A rung of a user's scenario: `devices` and `days` as it will run (after any overrides).
    package init(file: BenchFile, devices: Int, days: Int) {
        self.init(devices: devices, days: days)
        self.file = file
    }

    /// A short name used to match rungs against a baseline: `1k`, `100k`, `1M`, `250` (+ `x3d`
    /// when the duration is not the standard 7 days).
    package var name: String {
        if let file { return file.rungName(devices: devices, days: days) }
        return BenchRung.sizeName(devices: devices, days: days) + (realistic ? "-v2" : "") + (coupled ? "-xiva" : "")
            + (binary ? "-binary" : "")
    }

    /// `1k`, `100k`, `1M`, `250`, + `x3d` when the duration is not 7 days.
    package static func sizeName(devices: Int, days: Int) -> String {
        let size: String
        if devices >= 1_000_000 && devices % 1_000_000 == 0 { size = "\(devices / 1_000_000)M" }
        else if devices >= 1_000 && devices % 1_000 == 0 { size = "\(devices / 1_000)k" }
        else { size = "\(devices)" }
        return days == 7 ? size : "\(size)x\(days)d"
    }

    /// The standard ladder: 1 000, 10 000 and 100 000 devices × 7 days; 1 000 000 on request.
    package static func ladder(quick: Bool = false, million: Bool = false) -> [BenchRung] {
        if quick { return [BenchRung(devices: 1_000), BenchRung(devices: 10_000)] }
        var rungs = [BenchRung(devices: 1_000), BenchRung(devices: 10_000), BenchRung(devices: 100_000)]
        if million { rungs.append(BenchRung(devices: 1_000_000)) }
        return rungs
    }
}

/// A user's scenario file as a bench rung: its name, where it is, and the overrides given.
package struct BenchFile: Hashable, Sendable {
    package var path: String
    /// The scenario's `name`, which names the rung.
    package var scenarioName: String
    /// `--devices` / `--days`, when given; otherwise the scenario's own values run.
    package var devicesOverride: Int?
    package var daysOverride: Int?
    package init(path: String, scenarioName: String, devicesOverride: Int? = nil, daysOverride: Int? = nil) {
        self.path = path; self.scenarioName = scenarioName
        self.devicesOverride = devicesOverride; self.daysOverride = daysOverride
    }

    /// The scenario's name as written; `NAME-10k`, `NAME-x3d`, `NAME-10kx3d` when overridden, so
    /// a baseline of the scenario as written is never compared with another size.
    func rungName(devices: Int, days: Int) -> String {
        switch (devicesOverride, daysOverride) {
        case (nil, nil): return scenarioName
        case (_?, nil): return "\(scenarioName)-\(BenchRung.sizeName(devices: devices, days: 7))"
        case (nil, let d?): return "\(scenarioName)-x\(d)d"
        case (_?, let d?): return "\(scenarioName)-\(BenchRung.sizeName(devices: devices, days: 7))x\(d)d"
        }
    }

    /// The scenario as the rung runs it.
    func load() throws -> Scenario {
        var overrides: [String] = []
        if let devicesOverride { overrides.append("devices=\(devicesOverride)") }
        if let daysOverride { overrides.append("duration=\(daysOverride)d") }
        return try ScenarioLoader.load(path: path, overrides: overrides)
    }
}

/// One timed repetition of a rung.
package struct BenchSample: Equatable, Sendable {
    package var seconds: Double
    package var cpuSeconds: Double
    package var events: Int
    package var letters: Int
    /// Peak resident memory of the process during the repetition (VmHWM), in bytes; 0 if unknown.
    package var peakResidentBytes: Int
    /// Resident memory just before the repetition, in bytes; 0 if unknown.
    package var residentBeforeBytes: Int
}

/// A rung's repetitions and their medians.
package struct BenchRungResult: Equatable, Sendable {
    package var rung: BenchRung
    package var jobs: Int
    package var samples: [BenchSample]

    package var events: Int { samples.first?.events ?? 0 }
    package var letters: Int { samples.first?.letters ?? 0 }
    package var medianSeconds: Double { Bench.median(samples.map(\.seconds)) }
    package var medianCPUSeconds: Double { Bench.median(samples.map(\.cpuSeconds)) }
    package var eventsPerSecond: Double { medianSeconds > 0 ? Double(events) / medianSeconds : 0 }
    package var eventsPerCPUSecond: Double { medianCPUSeconds > 0 ? Double(events) / medianCPUSeconds : 0 }
    package var nanosecondsPerEvent: Double { events > 0 ? medianSeconds * 1e9 / Double(events) : 0 }
    /// Simulated letters per second of wall time; each letter is counted once, though both
    /// arms simulate it.
    package var lettersPerSecond: Double { medianSeconds > 0 ? Double(letters) / medianSeconds : 0 }
    /// Simulated letters per second of the process's CPU time (every thread): what `--baseline`
    /// gates on, since other processes on the machine stretch wall time but not CPU time.
    package var lettersPerCPUSecond: Double { medianCPUSeconds > 0 ? Double(letters) / medianCPUSeconds : 0 }
    /// The key a baseline matches this result by: the rung's name, `NAME×JOBS` for several threads.
    package var baselineKey: String { BenchRungResult.baselineKey(name: rung.name, jobs: jobs) }
    package static func baselineKey(name: String, jobs: Int) -> String { jobs > 1 ? "\(name)×\(jobs)" : name }
    package var peakResidentBytes: Int { samples.map(\.peakResidentBytes).max() ?? 0 }
    /// Memory the rung added above what the process held before it, per device (median).
    package var bytesPerDevice: Double {
        guard rung.devices > 0 else { return 0 }
        return Bench.median(samples.map { Double(max(0, $0.peakResidentBytes - $0.residentBeforeBytes)) }) / Double(rung.devices)
    }
}

package enum Bench {
    /// The bench workload: the `commuters` study's chain (realistic latencies with heavy tails,
    /// random drop-outs plus two daily offline windows, 3 % display off, both arms), which is
    /// also the shape of the SimPy reference model's scenario.
    package static let workload = """
    name: bench
    description: pushsim bench workload (commuters-like, realistic latencies, both arms)
    seed: 1
    duration: 7d
    drain: 1d
    devices: 1000
    mail:
      rate: 40/d
    connectivity:
      online: exponential(6h)
      offline: exponential(10m)
      windows:
        - {start: 8h, end: 8h40m, every: 1d}
        - {start: 18h30m, end: 19h10m, every: 1d}
    xiva:
      latency: lognormal(50ms, 500ms)
      retention: 3d
      request_latency: lognormal(300ms, 2s)
      request_error: 0.5%
      resend_latency: lognormal(200ms, 1s)
    apns:
      loss: 0.1%
      latency: lognormal(150ms, 3s)
      expiration: 1d
    device:
      alerts_off: 3%
      clear_after: exponential(1h)
    extension:
      deadline: 30s
      processing: lognormal(200ms, 3s)
    queue:
      mode: both
      repeat_max_count: 10
    """

    /// The bench scenario for a rung.
    package static func scenario(_ rung: BenchRung) throws -> Scenario {
        if let file = rung.file { return try file.load() }
        let base = try ScenarioLoader.parse(text: workload, file: "<bench workload>",
                                            overrides: ["devices=\(rung.devices)", "duration=\(rung.days)d"])
        let chain = rung.realistic ? realistic(base) : base
        let shared = rung.coupled ? coupled(chain) : chain
        return rung.binary ? binary(shared) : shared
    }

    /// The binary workload: XIVA writes over APNs' legacy interface (docs/model.md §11), one
    /// connection per partition in 10 partitions, 2 000 writes a second each; 0.1 % of
    /// notifications are malformed, an error's round trip is 100 ms, and XIVA keeps the last
    /// 50 writes to write again. Both arms run coupled, every push a stop of its world.
    package static func binary(_ base: Scenario) -> Scenario {
        var s = base
        s.name += "-binary"
        s.apns.interface = .binary
        s.apns.connectionRatePerMicrosecond = 2000.0 / Double(SimTime.second)
        s.apns.malformed = 0.001
        s.apns.errorDelay = .constant(SimTime(microseconds: 100 * SimTime.millisecond))
        s.xiva.resendBuffer = 50
        s.xiva.partitions = min(10, max(1, s.devices))
        return s
    }

    /// The coupled workload: XIVA serves 200 re-requests a second per partition, in 10
    /// partitions, and gives up after 20 s. The chain's offline windows have no spread, so
    /// every device comes back at 8:40 and 19:10 each day: a mass reconnect twice a day, when
    /// a partition's re-requests (about a third of its devices) queue at once.
    package static func coupled(_ base: Scenario) -> Scenario {
        var s = base
        s.name += "-xiva"
        s.xiva.capacityPerMicrosecond = 200.0 / Double(SimTime.second)
        s.xiva.queueTimeout = SimTime(microseconds: 20 * SimTime.second)
        s.xiva.partitions = min(10, max(1, s.devices))
        return s
    }

    /// The version-2 workload on top of the bench chain: a day-shaped mail profile, APNs
    /// keeping the older push 30 % of the time within 2 s and handing 1 % of pushes over twice,
    /// and two segments — 60 % commuters whose rides start up to 30 minutes apart, 40 % who
    /// switch off for nights of 6–9 hours starting between 22:00 and 00:00, with half the mail.
    /// Built in code: it needs no scenario reader, and docs/scenarios.md §2a gives its keys.
    package static func realistic(_ base: Scenario) -> Scenario {
        var s = base
        s.name = "bench-v2"
        s.mail.dailyProfile = [1, 1, 1, 1, 1, 1, 2, 4, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 5, 4, 3, 2, 1, 1]
        s.apns.keepOlder = 0.3
        s.apns.keepWindow = SimTime(microseconds: 2 * SimTime.second)
        s.apns.duplicate = 0.01
        func window(_ start: Int64, _ end: Int64, spread: Int64) -> OfflineWindow {
            var w = OfflineWindow(start: SimTime(microseconds: start), end: SimTime(microseconds: end),
                                  every: SimTime(microseconds: SimTime.day))
            w.spread = SimTime(microseconds: spread)
            return w
        }
        let hour = SimTime.hour, minute = SimTime.minute
        var commuters = s.connectivity
        commuters.windows = [window(8 * hour, 8 * hour + 40 * minute, spread: 30 * minute),
                             window(18 * hour + 30 * minute, 19 * hour + 10 * minute, spread: 30 * minute)]
        let night = OfflineWindow(start: SimTime(microseconds: 22 * hour),
                                  length: .uniform(min: Double(6 * hour), max: Double(9 * hour)),
                                  every: SimTime(microseconds: SimTime.day), spread: SimTime(microseconds: 2 * hour))
        var sleepers = s.connectivity
        sleepers.windows = [night]
        var quiet = s.mail
        quiet.ratePerMicrosecond /= 2
        // B(1) = floor(devices × 0.6 + 1/2), exactly (docs/model.md §5, Segments).
        let split = (s.devices * 6 + 5) / 10
        s.segments = [
            Scenario.Segment(name: "commuters", share: "60%", devices: 0..<split, mail: s.mail,
                             connectivity: commuters, device: s.device, extension: s.extension),
            Scenario.Segment(name: "night-offline", share: "40%", devices: split..<s.devices, mail: quiet,
                             connectivity: sleepers, device: s.device, extension: s.extension),
        ]
        return s
    }

    /// Runs a rung `repetitions` times on `jobs` threads and keeps every sample.
    package static func measure(_ rung: BenchRung, repetitions: Int, jobs: Int) throws -> BenchRungResult {
        let scenario = try scenario(rung)
        var samples: [BenchSample] = []
        for _ in 0..<max(1, repetitions) {
            BenchProcess.resetPeak()
            let before = BenchProcess.current()
            let cpuStart = BenchProcess.cpuSeconds()
            let start = DispatchTime.now().uptimeNanoseconds
            let result = Simulator.run(scenario, jobs: jobs)
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            let cpu = BenchProcess.cpuSeconds() - cpuStart
            let after = BenchProcess.current()
            samples.append(BenchSample(seconds: seconds, cpuSeconds: cpu,
                                       events: result.arms.reduce(0) { $0 + $1.ledger.events },
                                       letters: result.arms.first?.ledger.letters ?? 0,
                                       peakResidentBytes: after.peak, residentBeforeBytes: before.resident))
        }
        return BenchRungResult(rung: rung, jobs: jobs, samples: samples)
    }

    /// The median (mean of the middle two for an even count); 0 for none.
    package static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let mid = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
    }
}

/// The process's memory and CPU time, from Linux's /proc and getrusage (zeros elsewhere).
package enum BenchProcess {
    /// Resident memory now and its peak since the last reset (VmRSS and VmHWM), in bytes.
    package static func current() -> (resident: Int, peak: Int) {
        guard let status = text(of: "/proc/self/status") else { return (0, 0) }
        var resident = 0, peak = 0
        for line in status.split(separator: "\n") {
            func kilobytes() -> Int { Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0 }
            if line.hasPrefix("VmRSS:") { resident = kilobytes() * 1024 }
            if line.hasPrefix("VmHWM:") { peak = kilobytes() * 1024 }
        }
        return (resident, max(peak, resident))
    }

    /// Resets the peak (VmHWM) to the current resident size, so each measurement sees its own
    /// peak (Linux ≥ 4.0: writing 5 to /proc/self/clear_refs). Without it the peak is the
    /// process's so far, which the ladder's rising sizes make close to each rung's own.
    package static func resetPeak() {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return }
        try? handle.write(contentsOf: Data("5".utf8))
        try? handle.close()
    }

    /// The processor's model name: the first `model name` of /proc/cpuinfo; nil where it
    /// has none.
    package static func processorModel() -> String? {
        guard let cpuinfo = text(of: "/proc/cpuinfo") else { return nil }
        for line in cpuinfo.split(separator: "\n") where line.hasPrefix("model name") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if !name.isEmpty { return name }
        }
        return nil
    }

    /// The kernel's release (Linux: /proc/sys/kernel/osrelease); nil where it is not there.
    package static func kernelRelease() -> String? {
        let release = text(of: "/proc/sys/kernel/osrelease")?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        return release.isEmpty ? nil : release
    }

    /// The 1-minute load average, 0 where /proc/loadavg is missing.
    package static func loadAverage() -> Double {
        guard let loadavg = text(of: "/proc/loadavg") else { return 0 }
        return Double(loadavg.split(separator: " ").first ?? "") ?? 0
    }

    /// A file of /proc as text; nil where it is not there (not Linux).
    private static func text(of path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    /// CPU time used by the process so far (user + system, every thread), in seconds.
    package static func cpuSeconds() -> Double {
        var time = timespec()
        guard clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time) == 0 else { return 0 }
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
