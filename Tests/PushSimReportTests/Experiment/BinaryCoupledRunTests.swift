// The binary interface on the coupled path: exact against a global event list, the same bytes for every split of the work.
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
@testable import PushSimExperiment
@testable import PushSimReport
import PushSimTestSupport

@Suite struct BinaryCoupledRunTests {
    /// Phones sharing busy connections: a slow write rate and a long error round trip, so that
    /// errors discard other devices' writes; everyone back online at once at 12h. Also the
    /// partition that BinarySpeculationTests runs ahead.
    static func busyConnections(devices: Int = 36, extra: [String] = []) throws -> Scenario {
        let text = """
        name: binary
        seed: 9
        duration: 1d
        drain: 6h
        devices: \(devices)
        mail: {rate: 120/d, bursts: {rate: 4/d, size: 10, spread: 5s}}
        connectivity:
          online: exponential(3h)
          offline: exponential(40m)
          windows:
            - {start: 10h, end: 12h}
        xiva:
          partitions: 3
          request_latency: lognormal(300ms, 2s)
        apns:
          interface: binary
          malformed: 2%
          error_delay: lognormal(800ms, 3s)
          connection_rate: 4/s
          latency: lognormal(150ms, 3s)
        extension: {deadline: 30s, processing: lognormal(200ms, 2s)}
        queue: {mode: both}

        """
        return try ScenarioLoader.parse(text: text, file: "binary.yaml", overrides: extra)
    }

    @Test func theProductMatchesOneGlobalEventListByteForByte() throws {
        let variants: [[String]] = [[], ["xiva.resend_buffer=5"], ["xiva.resend_buffer=2", "xiva.capacity=3/s", "warmup=2h"],
                                    ["device.uninstall=1/d", "apns.feedback_delay=3h", "xiva.resend_buffer=3"]]
        for extra in variants {
            let scenario = try Self.busyConnections(extra: extra)
            let product = Simulator.run(scenario)
            let reference = GlobalEventListReference.run(scenario)
            expectEqual(product, reference, "\(extra)")
            expectEqual(product.json.text, reference.json.text, "\(extra)")
            // Errors really discarded other writes: otherwise the coupling would be untested.
            let off = product.arms[0].ledger
            #expect(off.binary.errors > 0 && off.binary.discarded >= 20, "\(extra): \(off.binary.errors) errors, \(off.binary.discarded) discarded")
            if extra.contains(where: { $0.hasPrefix("xiva.resend_buffer") }) { #expect(off.binary.rewritten > 0, "\(extra)") }
        }
    }

    @Test func jobsAndShardsGiveTheSameBytes() throws {
        let scenario = try Self.busyConnections(devices: 40, extra: ["xiva.partitions=4", "xiva.resend_buffer=2"])
        try expectTheSameBytesOnEverySplit(scenario)
    }

    @Test func aBufferTradesDiscardsForRewritesAndAnInfiniteRateDiscardsNothing() throws {
        let none = Simulator.run(try Self.busyConnections())
        let buffered = Simulator.run(try Self.busyConnections(extra: ["xiva.resend_buffer=1000"]))
        let lost = { (r: RunResult) in r.arms[0].ledger.causes[LossCause.connectionDiscard.rawValue] }
        #expect(lost(none) > 0)
        // Every discarded write is still in a buffer that large: none is lost for it.
        #expect(lost(buffered) == 0 && buffered.arms[0].ledger.binary.rewritten == buffered.arms[0].ledger.binary.discarded)
        // Writes that take no time end at their join, before any error is heard… unless the
        // error's round trip is 0 too: with an instant connection, discards need a round trip.
        let instant = Simulator.run(try Self.busyConnections(extra: ["apns.connection_rate=forever", "apns.error_delay=0s"]))
        #expect(instant.arms[0].ledger.binary.discarded == 0 && instant.arms[0].ledger.binary.errors > 0)
    }

    // MARK: find and trace see a device inside its partition

    @Test func findListsWhatTheRunCountsInDeviceOrder() throws {
        let scenario = try Self.busyConnections()
        let run = Simulator.run(scenario)
        let query = FateQuery.lost(.connectionDiscard)
        let all = FateFinder.find(scenario, arm: .off, query: query, limit: 100_000, jobs: 2)
        expectEqual(all.lettersMatching, run.arms[0].ledger.causes[LossCause.connectionDiscard.rawValue])
        #expect(all.letters.count == all.lettersMatching && all.lettersMatching > 0)
        expectEqual(all.letters.map { [$0.device, $0.letter] }, all.letters.map { [$0.device, $0.letter] }.sorted { $0.lexicographicallyPrecedes($1) })
        let first = FateFinder.find(scenario, arm: .off, query: query, limit: 5)
        expectEqual(first.letters, Array(all.letters.prefix(5)))
        expectEqual(first.lettersMatching, all.lettersMatching)
    }

    @Test func aTraceShowsTheDeviceAsTheRunSimulatedIt() throws {
        let scenario = try Self.busyConnections()
        let found = FateFinder.find(scenario, arm: .off, query: .lost(.connectionDiscard), limit: 1)
        let letter = try #require(found.letters.first)
        let (entries, ledger) = Simulator.trace(scenario, device: letter.device, arm: .off)
        let fate = entries.first { entry in
            if case .endOfRun = entry.event { return entry.letter == letter.letter } else { return false }
        }
        expectEqual(fate?.event, .endOfRun(.lost(.connectionDiscard)))
        #expect(ledger.causes[LossCause.connectionDiscard.rawValue] >= 1)
        // Alone on its connection, the device would not meet the others' errors.
        #expect(entries.contains { if case .discardedByClosedConnection = $0.event { true } else { false } })
    }
}
