// The coupled path (finite XIVA capacity): exact against a global event list, the same for every split, and hand-built queues.
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
@testable import PushSimExperiment
@testable import PushSimReport
import PushSimTestSupport

@Suite struct CoupledRunTests {
    /// A small regional outage: everyone offline for the same two hours, back at once.
    func herd(devices: Int = 48, capacity: String = "2/s", extra: [String] = []) throws -> Scenario {
        let text = """
        name: herd
        seed: 5
        duration: 1d
        drain: 6h
        devices: \(devices)
        mail: {rate: 60/d}
        connectivity:
          windows:
            - {start: 10h, end: 12h}
        xiva:
          request_latency: lognormal(300ms, 2s)
          capacity: \(capacity)
          partitions: 3
        apns: {latency: lognormal(150ms, 3s)}
        extension: {deadline: 30s, processing: lognormal(200ms, 2s)}
        queue: {mode: both}

        """
        return try ScenarioLoader.parse(text: text, file: "herd.yaml", overrides: extra)
    }

    @Test func theProductMatchesOneGlobalEventListByteForByte() throws {
        for extra in [[], ["xiva.queue_timeout=5s", "warmup=2h"], ["xiva.capacity=20/s", "xiva.request_error=10%"],
                      ["apns.duplicate=5%", "apns.keep_older=50%", "apns.keep_window=1h", "apns.expiration=3h"]] {
            let scenario = try herd(extra: extra)
            let product = Simulator.run(scenario)
            let reference = GlobalEventListReference.run(scenario)
            expectEqual(product, reference, "\(extra)")
            expectEqual(product.json.text, reference.json.text, "\(extra)")
            // The queue really formed: otherwise the test would prove nothing about the coupling.
            #expect((product.arms.last?.ledger.xivaMaxQueue ?? 0) >= 3, "\(extra)")
        }
    }

    /// The herd in two segments of one kind of phone and another, in two partitions.
    func segmentedHerd(extra: [String] = []) throws -> Scenario {
        let text = """
        name: herd-segments
        seed: 5
        duration: 1d
        drain: 6h
        devices: 30
        mail: {rate: 60/d}
        connectivity:
          windows:
            - {start: 10h, end: 12h}
        segments:
          - {name: a, share: 40%}
          - {name: b, share: 60%, mail: {rate: 30/d}}
        xiva:
          capacity: 1/s
          partitions: 2
        queue: {mode: on}

        """
        return try ScenarioLoader.parse(text: text, file: "s.yaml", overrides: extra)
    }

    @Test func segmentsCountTheirOwnDevicesWaiting() throws {
        let scenario = try segmentedHerd()
        let product = Simulator.run(scenario)
        expectEqual(product, GlobalEventListReference.run(scenario))
        let total = product.arms[0].ledger.xivaMaxQueue
        let bySegment = product.segments.map { $0.arms[0].ledger.xivaMaxQueue }
        #expect(bySegment.allSatisfy { $0 > 0 && $0 <= total } && bySegment.reduce(0, +) >= total)
    }

    @Test func jobsAndShardsGiveTheSameBytes() throws {
        let scenario = try herd(devices: 40, extra: ["xiva.partitions=4"])
        try expectTheSameBytesOnEverySplit(scenario)
    }

    // MARK: Hand-built queues

    /// `n` identical devices: position 1 shown at 1h; positions 2 and 3 sent while offline
    /// (90m–3h), so the store keeps 3 and, back online at 3h, every device finds the gap {2}
    /// and re-requests it at the same instant `3h + 100ms + 200ms`.
    /// With `deadline` (an hour by default) for the extension (CapacityFiguresTests).
    func herdAtOneInstant(_ n: Int, perSecond capacity: Double, timeout: SimTime = .forever, deadline: SimTime = span(1 * hour))
        -> (ledgers: [Ledger], worlds: CoupledWorlds, server: XivaPartitionServer, sentAt: Int64) {
        var s = tinyScenario()
        s.devices = n
        s.xiva.capacityPerMicrosecond = capacity / 1e6
        s.xiva.queueTimeout = timeout
        s.xiva.requestLatency = constant(300 * ms)
        s.xiva.resendLatency = constant(200 * ms)
        s.apns.latency = constant(100 * ms)
        s.extension.processing = constant(200 * ms)
        s.extension.deadline = deadline
        let letters = [ScriptedLetter(time: 1 * hour, xivaLatency: 0), ScriptedLetter(time: 2 * hour, xivaLatency: 0),
                       ScriptedLetter(time: 2 * hour + sec, xivaLatency: 0)]
        let worlds = CoupledWorlds(count: n) { _ in
            let scripted = ScriptedWorld(s, letters: letters, offline: [90 * minute ..< 3 * hour])
            return scripted.world
        }
        var server = XivaPartitionServer(parameters: ChainParameters(s), end: s.end.microseconds,
                                         segments: Array(repeating: nil, count: n), seriesWanted: true)
        var ledgers = Array(repeating: Ledger(), count: n)
        for i in 0..<n { worlds.with(i) { $0.ledger = Ledger(); $0.begin(.on) } }
        worlds.step(server: &server) { i in worlds.with(i) { $0.finish(into: &ledgers[i]) } }
        return (ledgers, worlds, server, 3 * hour + 300 * ms)
    }

    @Test func aHerdAtOneInstantIsAnsweredOneServiceApartInDeviceOrder() {
        let n = 40, capacity = 8.0          // service 125 ms
        let (ledgers, worlds, server, sent) = herdAtOneInstant(n, perSecond: capacity)
        for k in 0..<n {
            // Device k waits k services; its answer is back after its own service and 300 ms;
            // the re-sent position 2 then takes 200 ms + 100 ms + 200 ms to be shown.
            let shown = worlds.with(k) { $0.letterStates[1].firstDelivery }
            expectEqual(shown, sent + Int64(k + 1) * 125 * ms + 300 * ms + 500 * ms, "device \(k)")
        }
        var total = Ledger()
        for ledger in ledgers { total.merge(ledger) }
        expectEqual(total.xivaServed, n)
        expectEqual(total.xivaErrors, 0)
        expectEqual(total.xivaMaxWaitMicroseconds, Int(n - 1) * Int(125 * ms))
        expectEqual(server.watch.maxQueue, n - 1)
        expectEqual(total.lost, 0)
        expectEqual(total.delivered, 3 * n)
    }

    @Test func theQueueSeriesHoldsTheMostWaitingEachMinute() {
        // Service 2 s: 40 sent at 3h + 300 ms; 39 wait at once in minute 180. As minute 181
        // starts (59.7 s later) those starting after it are k = 30…39 (k·2 s > 59.7 s): 10.
        let (_, _, server, _) = herdAtOneInstant(40, perSecond: 0.5)
        var watch = server.watch
        watch.finish(end: 2 * day)
        #expect(watch.series.minutes == [180, 181] && watch.series.waiting == [39, 10])
        _ = server
    }

    @Test func aQueueTimeOutServesAboutCapacityTimesTheTimeOutAndErrsTheRest() {
        let n = 60, capacity = 10.0         // service 100 ms
        let timeout = span(2 * sec)
        let (ledgers, worlds, _, sent) = herdAtOneInstant(n, perSecond: capacity, timeout: timeout)
        var total = Ledger()
        for ledger in ledgers { total.merge(ledger) }
        // Waits of 0, 100 ms, …, 2 s are served: floor(T·capacity) + 1 of them.
        let served = Int(2 * capacity) + 1
        expectEqual(total.xivaServed, served)
        expectEqual(total.xivaErrors, n - served)
        // An error is answered with the summary: it covers the gap and the current letter.
        expectEqual(total.summaries, n - served)
        expectEqual(total.summarized, 2 * (n - served))
        expectEqual(worlds.with(served - 1) { $0.letterStates[1].firstDelivery }, sent + Int64(served) * 100 * ms + 800 * ms)
        expectEqual(worlds.with(served) { $0.letterStates[1].delivered }, false)
    }
}
