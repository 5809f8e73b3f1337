// The resource estimate counts version 2's letters: bursts, traces and segments.
import Testing
@testable import PushSimCore
@testable import PushSimExperiment
import PushSimTestSupport

@Suite struct ResourceEstimateVersion2Tests {
    @Test func burstsAddTheirLetters() {
        var s = Scenario(name: "b", duration: span(10 * day), devices: 100)
        s.mail.ratePerMicrosecond = 40.0 / Double(day)
        let plain = ResourceEstimate(s)
        s.mail.bursts = MailBursts(ratePerMicrosecond: 2.0 / Double(day), size: 8)
        let bursty = ResourceEstimate(s)
        #expect(abs(bursty.lettersPerDevice - plain.lettersPerDevice - 160) < 1e-6)
        // A burst size no device could index is refused before the run, not during it.
        s.mail.bursts = MailBursts(ratePerMicrosecond: 2.0 / Double(day), size: Int(Int32.max))
        #expect(ResourceEstimate(s).refusal(under: .machineDefaults(), name: "b") != nil)
    }

    @Test func segmentsAndTracesAreCounted() {
        var s = Scenario(name: "s", duration: span(1 * day), devices: 10)
        var busy = s.mail, quiet = s.mail
        busy.ratePerMicrosecond = 100.0 / Double(day)
        quiet.ratePerMicrosecond = 0
        s.segments = [
            Scenario.Segment(name: "busy", share: "50%", devices: 0..<5, mail: busy, connectivity: s.connectivity,
                             device: s.device, extension: s.extension),
            Scenario.Segment(name: "quiet", share: "50%", devices: 5..<10, mail: quiet, connectivity: s.connectivity,
                             device: s.device, extension: s.extension),
        ]
        #expect(abs(ResourceEstimate(s).lettersPerDevice - 50) < 1e-6)
        var t = Scenario(name: "t", duration: span(1 * day), devices: 2)
        t.mail.trace = MailTrace(path: "t.csv", offsets: [0, 1, 4], times: [1, 2, 3, 4])
        let e = ResourceEstimate(t)
        #expect(e.lettersPerDevice == 2 && e.peakLettersPerDevice == 3)
    }

    @Test func aFiniteCapacityHoldsAPartitionsWorldsPerThread() throws {
        var s = Scenario(name: "q", duration: span(7 * day), devices: 100_000)
        s.mail.ratePerMicrosecond = 40.0 / Double(day)
        let forever = ResourceEstimate(s, jobs: 2)
        s.xiva.capacityPerMicrosecond = 200.0 / 1e6
        s.xiva.partitions = 10
        let ten = ResourceEstimate(s, jobs: 2)
        // Two threads, each with 10 000 worlds of 280 letters.
        let perWorld = ResourceEstimate.bytesPerLetter * forever.lettersPerDevice
            + ResourceEstimate.bytesPerFlip * forever.flipsPerDevice + ResourceEstimate.bytesPerWorld
        // The queue itself: each re-request joins and is answered (2 events a letter in the
        // queue arm), and the busiest device's queue entries on each thread.
        let queue = try #require(ten.mechanisms.first { $0.key == "xiva.capacity" })
        #expect(abs(ten.memoryBytes - forever.memoryBytes - 2 * 10_000 * perWorld - queue.bytes) < 1)
        #expect(abs(ten.events - forever.events - queue.events) < 1)
        #expect(abs(queue.events - 100_000 * 2 * forever.lettersPerDevice) < 1)
        // One partition of a million phones is refused at any ordinary limit.
        s.devices = 1_000_000
        s.xiva.partitions = 1
        let one = ResourceEstimate(s, jobs: 2)
        #expect(one.memoryBytes > 64e9)
        #expect(one.refusal(under: .init(maxEvents: 1e12, maxMemoryBytes: 16e9), name: "q") != nil)
    }
}
