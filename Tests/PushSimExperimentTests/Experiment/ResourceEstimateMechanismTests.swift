// Each mechanism of the chain, run small: the one estimate bounds the events and the memory-relevant counts measured.
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
@testable import PushSimExperiment
import PushSimTestSupport

/// For every mechanism in Sources/PushSimCore/Chain, a small scenario with it turned on is run
/// (fixed seed, one thread), and its measured kernel events (`Ledger.events`, both arms) are
/// compared with the estimate: never above it, and at most ``ResourceEstimateMechanismTests/slack``
/// times below it.
///
/// Why 20×: the estimate is an upper bound built from per-step worst cases, so it must sit
/// above, and its room is a product of known factors: 7 events per letter against the 1–5 the
/// chain takes (the off arm's shortcuts settle a letter in one, so up to 7×); each flip at 1.5
/// events and arm plus one to draw it (about 2.5× the one event a flip takes); a mechanism
/// counted at its worst probability (every send refused, every stored message re-sent); and
/// 8 events' worth per device for the work no event counts. Those give at most about 7 × 2.5
/// ≈ 18 on a scenario where one factor dominates; 20 catches an estimate that has lost touch
/// (a term multiplied by the device count twice, a per-run term counted per letter) while
/// leaving the bound honest.
@Suite struct ResourceEstimateMechanismTests {
    static let slack = 20.0

    /// 300 devices for 2 days (no drain), 30 letters a day, online ~2 h and offline ~20 min:
    /// each mechanism's small scenario adds its keys to this.
    static let base = """
        name: m
        seed: 7
        duration: 2d
        drain: 0
        devices: 300
        mail: {rate: 30/d}
        connectivity: {online: exponential(2h), offline: exponential(20m)}

        """

    /// The base with `keys` added; a section the keys give replaces the base's.
    static func text(_ keys: String) -> String {
        let given = Set(keys.split(separator: "\n").compactMap { $0.split(separator: ":").first.map(String.init) })
        let kept = base.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { line in !given.contains(String(line.split(separator: ":").first ?? "")) || line.isEmpty }
        return kept.joined(separator: "\n") + keys
    }

    struct Measured {
        var estimate: ResourceEstimate
        var events: Double
        var ledger: Ledger
        var ratio: Double { estimate.events / max(events, 1) }
    }

    /// Runs `text` (the base plus a mechanism's keys) and checks the bound; returns both sides.
    @discardableResult
    /// `unevented`: work the run does outside its events, measured and in events (the sleep
    /// timeline's draws), added to the measured side.
    func measure(_ keys: String, _ mechanism: String, unevented: (Scenario) -> Double = { _ in 0 },
                 sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> Measured {
        let scenario = try ScenarioLoader.parse(text: Self.text(keys), file: "m.yaml")
        let estimate = ResourceEstimate(scenario, jobs: 1)
        let result = Simulator.run(scenario, jobs: 1)
        var ledger = Ledger()
        for arm in result.arms { ledger.merge(arm.ledger) }
        let measured = Measured(estimate: estimate, events: Double(ledger.events) + unevented(scenario), ledger: ledger)
        #expect(measured.events > 0, "\(mechanism): the run took no event", sourceLocation: sourceLocation)
        #expect(estimate.events >= measured.events,
                "\(mechanism): estimated \(estimate.events) events, measured \(measured.events)", sourceLocation: sourceLocation)
        #expect(measured.ratio <= Self.slack,
                "\(mechanism): estimated \(estimate.events) events, \(measured.ratio)× the \(measured.events) measured",
                sourceLocation: sourceLocation)
        // The figures docs/performance.md quotes (swift test --filter ResourceEstimateMechanismTests).
        print("estimate vs measured: \(mechanism): \(Int(estimate.events)) / \(Int(measured.events)) events = \((measured.ratio * 10).rounded() / 10)×")
        return measured
    }

    /// The share of the estimate a mechanism is given, so a test sees it was counted at all.
    func share(_ m: Measured, _ key: String) -> ResourceEstimate.Mechanism? {
        m.estimate.mechanisms.first { $0.key == key }
    }

    @Test func lettersAndConnectivity() throws {
        let m = try measure("", "letters and flips")
        #expect(share(m, "mail")!.events > 0 && share(m, "connectivity")!.events > 0)
    }

    @Test func offlineWindowsSharedAndPerDevice() throws {
        try measure("connectivity: {online: exponential(2h), offline: exponential(20m), windows: [{start: 1h, end: 2h, every: 3h}, {start: 0, length: exponential(10m), every: 1h, spread: 30m}]}\n",
                    "windows")
    }

    /// The doze windows of the issue, at a period the run can take: every device flips at each.
    @Test func fcmDozeWindows() throws {
        let m = try measure("channel: fcm\ndevice: {doze: [{start: 0, end: 1m, every: 10m}]}\n", "device.doze")
        let doze = try #require(share(m, "device.doze"))
        #expect(doze.events > 0 && doze.bytes > 0)
        // Memory: the busiest device's flips (doze windows are offline windows for FCM).
        let scenario = try ScenarioLoader.parse(text: Self.text("channel: fcm\ndevice: {doze: [{start: 0, end: 1m, every: 10m}]}\n"), file: "m.yaml")
        var world = DeviceWorld(scenario: scenario)
        var most = 0
        for d in 0..<scenario.devices { world.prepare(device: d); most = max(most, world.draws.timeline.flips.count) }
        #expect(Double(most) <= m.estimate.peakFlipsPerDevice)
        #expect(m.estimate.peakFlipsPerDevice <= Self.slack * Double(most))
    }

    @Test func fcmStore() throws {
        let m = try measure("channel: fcm\nfcm: {ttl: 1d, collapse_keys: 3}\n", "the FCM store")
        #expect(share(m, "channel: fcm") != nil)
    }

    @Test func pushKit() throws {
        try measure("channel: pushkit\npushkit: {report_failure: 10%}\n", "PushKit")
    }

    @Test func sleepingDevice() throws {
        let m = try measure("apns: {priority: 50%}\ndevice: {sleep: {awake: exponential(30m), asleep: exponential(20m)}}\n", "device.sleep")
        #expect(share(m, "device.sleep")!.events > 0)
        #expect(m.ledger.sleep.held > 0)
    }

    @Test func catchUpAppOpens() throws {
        let m = try measure("recovery: catch_up\ndevice: {app_open: exponential(10m)}\n", "device.app_open")
        let opens = try #require(share(m, "device.app_open"))
        // Openings online fetch (`fetches`); each opening is one event whether online or not.
        #expect(Double(m.ledger.catchUp.fetches) <= opens.events)
        #expect(opens.events <= Self.slack * Double(m.ledger.catchUp.fetches))
    }

    @Test func xivaRetries() throws {
        let m = try measure("xiva: {retry: {attempts: 4, backoff: exponential(2s)}}\napns: {server_error: 30%, answer_loss: 10%, loss: 5%}\n",
                            "xiva.retry")
        let retries = try #require(share(m, "xiva.retry"))
        // Each retry is a send that takes at most eventsPerExtraSend events.
        #expect(Double(m.ledger.provider.retries) * ResourceEstimate.eventsPerExtraSend <= retries.events)
        #expect(retries.events <= Self.slack * Double(m.ledger.provider.retries))
    }

    @Test func tokenLimitAndPayloadSize() throws {
        try measure("xiva: {retry: {attempts: 3, backoff: 1s}}\napns: {token_limit: 2, token_window: 1h}\nmail: {rate: 30/d, payload_size: lognormal(1500B, 6KB)}\n",
                    "apns.token_limit and mail.payload_size")
    }

    @Test func secondCopiesAndKeepOlder() throws {
        try measure("apns: {duplicate: 30%, keep_older: 50%, keep_window: 10s}\n", "apns.duplicate")
    }

    @Test func appReinstalls() throws {
        let m = try measure("device: {reinstall: 1/6h, reinstall_delay: exponential(20m)}\n", "device.reinstall")
        let reinstalls = try #require(share(m, "device.reinstall"))
        // Memory: the estimate's bytes are 8 per reinstall of the busiest device and thread;
        // the ledger counts every reinstall passed (both arms).
        let perDevice = Double(m.ledger.appReinstalls.reinstalls) / 300 / 2
        #expect(perDevice * 8 <= reinstalls.bytes)
        #expect(Double(m.ledger.appReinstalls.reinstalls) * ResourceEstimate.eventsPerLoopStep <= reinstalls.events)
    }

    @Test func deviceIdChanges() throws {
        let m = try measure("device: {id_change: 1/2h}\n", "device.id_change")
        let changes = try #require(share(m, "device.id_change"))
        #expect(Double(m.ledger.deviceIdChange.changes) * ResourceEstimate.eventsPerLoopStep <= changes.events)
    }

    @Test func earlyKillsAndParallelRuns() throws {
        try measure("extension: {early_kill: 30%, concurrency: parallel, save_delay: exponential(1s)}\n", "early kill, parallel runs")
    }

    @Test func uninstalls() throws {
        try measure("device: {uninstall: 1/1d}\n", "device.uninstall")
    }

    @Test func mediaDownloads() throws {
        let m = try measure("extension: {media: {share: 50%, size: lognormal(200KB, 5MB), bandwidth: uniform(200kbit/s, 20Mbit/s)}}\n",
                            "extension.media")
        #expect(share(m, "extension.media")!.bytes >= 8 * m.estimate.peakLettersPerDevice)
        #expect(m.ledger.media.downloads > 0)
    }

    @Test func binaryInterface() throws {
        let m = try measure("xiva: {partitions: 3, resend_buffer: 5}\napns: {interface: binary, malformed: 5%, connection_rate: 20/s}\n",
                            "apns.interface: binary")
        #expect(share(m, "apns.interface: binary")!.events > 0)
        #expect(share(m, "xiva.partitions")!.bytes > 0)
        // A partition's 100 worlds running ahead hold a record and a day's writes (30 letters)
        // as sweep entries, twice, each.
        #expect(share(m, "apns.interface: binary")!.bytes >= 100 * (ResourceEstimate.bytesPerSpeculationRecord + 2 * 24 * 25))
    }

    @Test func xivaOutages() throws {
        let m = try measure("xiva: {outages: [{start: 10m, end: 20m, every: 1h}], outage_mode: delay}\n", "xiva.outages")
        let outages = try #require(share(m, "xiva.outages"))
        // Every world lays out the 48 occurrences: a chunk's world here.
        #expect(outages.bytes >= 48 * ResourceEstimate.bytesPerInterval)
    }

    @Test func apnsOutages() throws {
        let m = try measure("apns: {outages: [{start: 10m, end: 20m, every: 1h, share: 50%}]}\nxiva: {retry: {attempts: 3, backoff: 5m}}\n", "apns.outages")
        let outages = try #require(share(m, "apns.outages"))
        // Every world lays out the 48 occurrences, and every arrival at APNs is an event.
        #expect(outages.bytes >= 48 * ResourceEstimate.bytesPerInterval && outages.events > 0)
        #expect(m.ledger.apnsOutages.refused > 0)
    }

    @Test func tokenRefresh() throws {
        let m = try measure("apns: {token_refresh: {every: uniform(5m, 80m), lockout: uniform(10m, 1h)}}\nxiva: {retry: {attempts: 3, backoff: 5m}}\n", "apns.token_refresh")
        let token = try #require(share(m, "apns.token_refresh"))
        // Every world lays out the run's refreshes, and every arrival at APNs is an event.
        #expect(token.bytes > 0 && token.events > 0)
        #expect(m.ledger.tokenRefresh.tooManyUpdates + m.ledger.tokenRefresh.expired > 0)
    }

    /// Background-push sync: no event, but every launch is drawn and kept, so it is counted.
    @Test func backgroundSyncLaunches() throws {
        let m = try measure("recovery: background_sync\ndevice: {app_open: exponential(2h), background_sync: {force_quit: 30%}}\n",
                            "recovery: background_sync")
        let sync = try #require(share(m, "device.app_open"))
        #expect(sync.events > 0 && sync.bytes > 0)
        #expect(m.ledger.backgroundSync.wakes > 0)
    }

    /// Low Power Mode's evening: a release event per window that holds a push, and the windows'
    /// memory; a day of 1 µs windows, refused before a byte is laid out.
    @Test func lowPowerMode() throws {
        let m = try measure("device: {low_power: {share: 50%, windows: [{start: 19h, end: 23h}]}}\n", "device.low_power")
        let lowPower = try #require(share(m, "device.low_power"))
        #expect(lowPower.events > 0 && lowPower.bytes >= 2 * ResourceEstimate.bytesPerInterval)
        #expect(m.ledger.lowPower.held > 0)
    }

    /// Focus windows: laid out per device, no event; counted in memory, so a run of millennia
    /// names `device.focus` among what it would hold.
    @Test func focusWindows() throws {
        let m = try measure("device: {focus: {share: 50%, windows: [{start: 22h, end: 7h}]}, notification_summary: {share: 25%, times: [8h, 18h]}}\n",
                            "device.focus")
        let focus = try #require(share(m, "device.focus"))
        // Two days and the day past the end: three nights, whose intervals each device keeps.
        #expect(focus.bytes >= 3 * ResourceEstimate.bytesPerInterval)
    }

    @Test func capacityQueue() throws {
        let m = try measure("connectivity: {windows: [{start: 10h, end: 12h}]}\nxiva: {capacity: 5/s, partitions: 3}\n", "xiva.capacity")
        #expect(share(m, "xiva.capacity")!.events > 0)
    }

    /// Two segments with different mechanisms: each is counted with its own devices.
    @Test func segmentsInTheirResolvedScenarios() throws {
        let m = try measure("""
            segments:
              - {name: apns, share: 60%}
              - {name: fcm, share: 40%, channel: fcm, device: {doze: [{start: 0, end: 1m, every: 10m}], reinstall: 1/6h}}

            """, "segments")
        #expect(share(m, "device.doze") != nil && share(m, "device.reinstall") != nil)
        // Each segment and arm keeps a ledger per chunk (16 chunks on one thread), plus the merged
        // set and the result's: 2 arms × (16 × 2 + 18 × 2 + 1) ledgers.
        let ledgers = try #require(share(m, "segments"))
        expectEqual(ledgers.bytes, 2 * (16 * 2 + 18 * 2 + 1) * ResourceEstimate.bytesPerLedger)
    }

    /// Each mechanism pushed until it, not the letters, makes most of the run's events (20
    /// devices for 6 hours): its own term must still bound what it costs.
    static let dominant: [(name: String, keys: String)] = [
        ("device.sleep at 1 s periods", "devices: 20\nduration: 6h\napns: {priority: 5}\ndevice: {sleep: {awake: exponential(1s), asleep: exponential(1s)}}\n"),
        ("device.app_open every second", "devices: 20\nduration: 6h\nrecovery: catch_up\ndevice: {app_open: exponential(1s)}\n"),
        ("xiva.retry against 100 % 5xx", "devices: 20\nduration: 6h\nmail: {rate: 400/d}\nxiva: {retry: {attempts: 10, backoff: 1s}}\napns: {server_error: 100%}\n"),
        ("apns.duplicate 100 %", "devices: 20\nduration: 6h\nmail: {rate: 400/d}\napns: {duplicate: 100%}\n"),
        ("device.doze 1 min every 2 min", "devices: 20\nduration: 6h\nchannel: fcm\ndevice: {doze: [{start: 0, end: 1m, every: 2m}]}\n"),
        ("FCM store, long offline periods", "devices: 20\nduration: 6h\nmail: {rate: 2000/d}\nchannel: fcm\nconnectivity: {online: exponential(5m), offline: exponential(1h)}\n"),
        ("connectivity flipping every few seconds", "devices: 20\nduration: 6h\nconnectivity: {online: exponential(2s), offline: exponential(2s)}\n"),
        ("binary interface, 50 % malformed", "devices: 20\nduration: 6h\nmail: {rate: 400/d}\nxiva: {resend_buffer: 100}\napns: {interface: binary, malformed: 50%}\n"),
        ("xiva.outages every 2 min", "devices: 20\nduration: 6h\nmail: {rate: 400/d}\nxiva: {outages: [{start: 0, end: 1m, every: 2m}]}\n"),
        ("apns.outages every 2 min against 10 retries", "devices: 20\nduration: 6h\nmail: {rate: 400/d}\napns: {outages: [{start: 0, end: 1m, every: 2m}]}\nxiva: {retry: {attempts: 10, backoff: 1s}}\n"),
        ("apns.token_refresh every 2 s against 10 retries", "devices: 20\nduration: 6h\nmail: {rate: 400/d}\napns: {token_refresh: {every: exponential(2s), lockout: 1s}}\nxiva: {retry: {attempts: 10, backoff: 1s}}\n"),
        ("apns.store unlimited, long offline periods", "devices: 20\nduration: 6h\nmail: {rate: 2000/d}\nconnectivity: {online: exponential(5m), offline: exponential(1h)}\napns: {store: {slots: unlimited}}\n"),
        ("xiva.capacity 1/s after a shared window", "devices: 20\nduration: 6h\nmail: {rate: 400/d}\nconnectivity: {windows: [{start: 1h, end: 3h}]}\nxiva: {capacity: 1/s}\n"),
    ]

    @Test(arguments: 0..<dominant.count)
    func aDominantMechanismIsStillBounded(_ index: Int) throws {
        let (name, keys) = Self.dominant[index]
        // A sleeping device's flips are drawn and take no event (a wake is one only when a push
        // waits): the measured side adds the flips drawn, at the estimate's price of a draw.
        try measure(keys, name, unevented: { scenario in
            guard scenario.device.sleep != nil else { return 0 }
            var world = DeviceWorld(scenario: scenario)
            var flips = 0
            for d in 0..<scenario.devices { world.prepare(device: d); flips += 2 * world.draws.sleepTimeline.asleep.count }
            return Double(flips) * ResourceEstimate.eventsPerDrawnFlip
        })
    }

    /// A top-level mechanism every segment replaces reaches no world: it costs nothing (the
    /// run builds each part's world from its segment's resolved scenario).
    @Test func aTopLevelMechanismEverySegmentReplacesCostsNothing() throws {
        let text = "name: r\nduration: 1d\ndevices: 10\nchannel: fcm\ndevice: {doze: [{start: 0, end: 1us, every: 2us}]}\n"
            + "segments:\n  - {name: a, share: 50%, device: {doze: []}}\n  - {name: b, share: 50%, channel: apns}\n"
        let estimate = ResourceEstimate(try ScenarioLoader.parse(text: text, file: "r.yaml"))
        #expect(!estimate.mechanisms.contains { $0.key == "device.doze" })
        #expect(estimate.refusal(under: .machineDefaults(), name: "r") == nil)
    }

    // MARK: The issue's cases, refused before any work

    func refusal(_ text: String, jobs: Int = 2, limits: ResourceEstimate.Limits = .init(maxEvents: 3.6e10, maxMemoryBytes: 8 * 1024 * 1024 * 1024))
        throws -> String? {
        ResourceEstimate(try ScenarioLoader.parse(text: text, file: "r.yaml"), jobs: jobs).refusal(under: limits, name: "r")
    }

    @Test func theIssuesDozeFileIsRefusedNamingDoze() throws {
        let text = "name: r\nduration: 1d\ndevices: 10\nchannel: fcm\ndevice:\n  doze: [{start: 0, end: 1us, every: 2us}]\n"
        let message = try #require(try refusal(text))
        #expect(message.contains("device.doze"))
        #expect(message.contains("lengthen device.doze's every"))
    }

    @Test func manySegmentsAreRefusedForTheirLedgers() throws {
        var text = "name: r\nduration: 1h\ndevices: 2000\nsegments:\n"
        for i in 0..<2000 { text += "  - {name: s\(i), share: 0.05%}\n" }
        // 32 chunks × 2 002 ledgers × 2 arms of 58 KB each is 7 GB: over 4 GB.
        let message = try #require(try refusal(text, limits: .init(maxEvents: 3.6e10, maxMemoryBytes: 4 * 1024 * 1024 * 1024)))
        #expect(message.contains("segments") && message.contains("fewer segments"))
    }

    @Test func aTrillionIdleDevicesAreRefusedForTheirOwnCost() throws {
        let message = try #require(try refusal("name: r\nduration: 1d\ndevices: 1000000000000\nmail: {rate: 0/d}\n"))
        #expect(message.contains("most of them from devices"))
    }
}
