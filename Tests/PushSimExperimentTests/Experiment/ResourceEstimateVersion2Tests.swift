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
        expectEqual(e.lettersPerDevice, 2)
        expectEqual(e.peakLettersPerDevice, 3)
    }

    @Test func aFiniteCapacityHoldsAPartitionsWorldsPerThread() throws {
        var s = Scenario(name: "q", duration: span(7 * day), devices: 100_000)
        s.mail.ratePerMicrosecond = 40.0 / Double(day)
        let forever = ResourceEstimate(s, jobs: 2)
        s.xiva.capacityPerMicrosecond = 200.0 / 1e6
        s.xiva.partitions = 10
        let ten = ResourceEstimate(s, jobs: 2)
        // Two threads, each with 10 000 worlds of 280 letters, of which a world settling in
        // flight holds 8 (no offline stretch here: the 4 letters between two settlements and
        // the 4 drawn ahead) and the off arm keeps every script.
        let held = ResourceEstimate.lettersHeldSettling(s, lettersPerDevice: forever.lettersPerDevice)
        #expect(abs(held - 8) < 1e-9)
        let perWorld = ResourceEstimate.bytesPerHeldLetter * held + ResourceEstimate.bytesPerKeptFlip * forever.flipsPerDevice
            + ResourceEstimate.bytesPerSettlingWorld + forever.lettersPerDevice * Double(MemoryLayout<LetterDraws>.stride)
        // The queue itself: each re-request joins and is answered (2 events a letter in the
        // queue arm), and the busiest device's queue entries on each thread.
        let queue = try #require(ten.mechanisms.first { $0.key == "xiva.capacity" })
        #expect(abs(ten.memoryBytes - forever.memoryBytes - 2 * 10_000 * perWorld - queue.bytes) < 1)
        #expect(abs(ten.events - forever.events - queue.events) < 1)
        #expect(abs(queue.events - 100_000 * 2 * forever.lettersPerDevice) < 1)
        // One partition of a million phones: its worlds settle in flight (a few GB, with the
        // kept scripts at their budget: 3.3 KB a world and 256 MiB), under the default limit
        // of a 24 GB machine (12 GB), and so with APNs' duplicates, which settle too; with a
        // mechanism that stops them settling (an early kill), every world holds its week of
        // letters and the run is refused.
        s.devices = 1_000_000
        s.xiva.partitions = 1
        let one = ResourceEstimate(s, jobs: 2)
        #expect(one.memoryBytes > 3e9 && one.memoryBytes < 5e9)
        #expect(one.refusal(under: .init(maxEvents: 1e12, maxMemoryBytes: 12e9), name: "q") == nil)
        #expect(one.refusal(under: .init(maxEvents: 1e12, maxMemoryBytes: 16e9), name: "q") == nil)
        s.apns.duplicate = 0.01
        let duplicating = ResourceEstimate(s, jobs: 2)
        #expect(duplicating.memoryBytes > 3e9 && duplicating.memoryBytes < 5e9)
        s.apns.duplicate = 0
        s.extension.earlyKill = 0.01
        let unsettled = ResourceEstimate(s, jobs: 2)
        #expect(unsettled.memoryBytes > 64e9)
        #expect(unsettled.refusal(under: .init(maxEvents: 1e12, maxMemoryBytes: 16e9), name: "q") != nil)
    }

    @Test func aSettlingWorldHoldsItsLongestOfflineStretch() throws {
        // 48 letters a day; a 2-hour window and offline periods of 10 minutes on average:
        // 8 + 2 × 2 letters an hour × (2 h + 10 × 10 min).
        var s = Scenario(name: "h", duration: span(7 * day), devices: 1_000)
        s.mail.ratePerMicrosecond = 48.0 / Double(day)
        s.connectivity.windows = [OfflineWindow(start: span(10 * hour), end: span(12 * hour))]
        s.connectivity.online = .exponential(mean: Double(6 * hour))
        s.connectivity.offline = .exponential(mean: Double(10 * minute))
        let held = ResourceEstimate.lettersHeldSettling(s, lettersPerDevice: 48 * 7)
        #expect(abs(held - (8 + 2 * 2 * (2 + 100.0 / 60))) < 1e-6)
        // Never more than a device's letters.
        expectEqual(ResourceEstimate.lettersHeldSettling(s, lettersPerDevice: 5), 5)
    }
}
