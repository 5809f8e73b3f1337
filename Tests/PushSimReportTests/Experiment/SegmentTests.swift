// Segments (§6.4): each segment's devices in its own scenario, totals adding up, and the same
// bytes for every --jobs and every shard split, with every version-2 key set.
import Foundation
import Testing
@testable import PushSimCore
@testable import PushSimExperiment
@testable import PushSimReport
import PushSimTestSupport

enum Version2Fixture {
    /// A scenario using every key of §6.1–6.5: warm-up, profile, bursts, per-device windows
    /// with spread and drawn lengths, keep_older, duplicate, and three segments (one empty).
    static func scenario(devices: Int = 90) -> Scenario {
        var s = Scenario(name: "v2", duration: span(3 * day), devices: devices)
        s.drain = span(6 * hour)
        s.warmup = span(1 * day)
        s.mail.ratePerMicrosecond = 30.0 / Double(day)
        s.mail.dailyProfile = [1, 1, 1, 1, 1, 1, 2, 4, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 5, 4, 3, 2, 1, 1]
        s.mail.bursts = MailBursts(ratePerMicrosecond: 1.0 / Double(day), size: 4, spread: span(2 * minute))
        s.connectivity.online = .exponential(mean: Double(3 * hour))
        s.connectivity.offline = .exponential(mean: Double(20 * minute))
        s.apns.latency = .lognormal(median: Double(100 * ms), p99: Double(3 * sec))
        s.apns.keepOlder = 0.5
        s.apns.keepWindow = span(5 * minute)
        s.apns.duplicate = 0.05
        s.apns.loss = 0.02
        s.device.clearAfter = .exponential(mean: Double(30 * minute))
        var night = OfflineWindow(start: span(23 * hour), length: .uniform(min: Double(6 * hour), max: Double(9 * hour)),
                                  every: span(day))
        night.spread = span(2 * hour)
        var commute = OfflineWindow(start: span(8 * hour), end: span(8 * hour + 40 * minute), every: span(day))
        commute.spread = span(30 * minute)
        let share1 = devices * 6 / 10
        var quiet = s.mail
        quiet.ratePerMicrosecond = 10.0 / Double(day)
        quiet.bursts = nil
        var nights = s.connectivity
        nights.windows = [night]
        var commutes = s.connectivity
        commutes.windows = [commute]
        s.segments = [
            Scenario.Segment(name: "commuters", share: "60%", devices: 0..<share1, mail: s.mail,
                             connectivity: commutes, device: s.device, extension: s.extension),
            Scenario.Segment(name: "empty", share: "0", devices: share1..<share1, mail: s.mail,
                             connectivity: s.connectivity, device: s.device, extension: s.extension),
            Scenario.Segment(name: "night", share: "40%", devices: share1..<devices, mail: quiet,
                             connectivity: nights, device: s.device, extension: s.extension),
        ]
        return s
    }
}

@Suite struct SegmentTests {
    /// The totals are the sum of the segments, field by field (events included), and each
    /// segment's ledgers are exactly those of its own scenario run on its devices alone.
    @Test func segmentsAddUpAndMatchSeparateRuns() {
        let s = Version2Fixture.scenario()
        let result = Simulator.run(s)
        expectEqual(result.segments.map(\.name), ["commuters", "empty", "night"])
        expectEqual(result.segments.map(\.devices), [54, 0, 36])
        for a in result.arms.indices {
            var sum = Ledger()
            for segment in result.segments { sum.merge(segment.arms[a].ledger) }
            expectEqual(sum, result.arms[a].ledger)
            #expect(result.arms[a].ledger.identitiesHold)
        }
        for (i, segment) in s.segments.enumerated() {
            let alone = Simulator.run(s.scenario(forSegment: i), devices: segment.devices)
            expectEqual(alone.arms, result.segments[i].arms, "segment \(segment.name)")
        }
        #expect(result.segments[1].arms.allSatisfy { $0.ledger.letters == 0 && $0.ledger.events == 0 })
        // The quiet segment gets fewer letters per device.
        let perDevice = result.segments.filter { $0.devices > 0 }.map { Double($0.arms[0].ledger.letters) / Double($0.devices) }
        #expect(perDevice[0] > 2 * perDevice[1])
    }

    /// The same JSON bytes with 1 and 2 threads, and from 1, 2 or 4 shards merged through
    /// their partial documents.
    @Test func byteIdenticalAcrossJobsAndShards() throws {
        let s = Version2Fixture.scenario(devices: 60)
        let one = Simulator.run(s, jobs: 1).json.text
        expectEqual(Simulator.run(s, jobs: 2).json.text, one)
        #expect(one.contains("\"segments\""))
        for count in [2, 4] {
            var parts: [PartialResult] = []
            for k in 0..<count {
                let part = PartialResult.run(s, shard: ShardSpec(index: k, count: count)!, jobs: 1)
                parts += try PartialResult.read(part.json.text, source: "part \(k)")
            }
            try expectEqual(PartialResult.merge(parts).json.text, one, "\(count) shards")
        }
    }

    /// A replayed trace with segments (which then give no mail keys) is the same bytes for
    /// every --jobs and shard split too, and each segment replays its own devices' rows.
    @Test func traceWithSegmentsIsByteIdentical() throws {
        var s = Version2Fixture.scenario(devices: 30)
        var offsets = [0], times: [Int64] = []
        for d in 0..<30 {
            times += (0..<(d % 4 + 1)).map { Int64($0) * 17 * hour + Int64(d) * minute }
            offsets.append(times.count)
        }
        let trace = MailTrace(path: "t.csv", offsets: offsets, times: times)
        s.mail = Scenario.Mail()
        s.mail.trace = trace
        for i in s.segments.indices { s.segments[i].mail = s.mail }
        let one = Simulator.run(s, jobs: 1)
        expectEqual(Simulator.run(s, jobs: 2).json.text, one.json.text)
        let parts = try (0..<3).flatMap { k in
            try PartialResult.read(PartialResult.run(s, shard: ShardSpec(index: k, count: 3)!).json.text, source: "\(k)")
        }
        try expectEqual(PartialResult.merge(parts).json.text, one.json.text)
        // Letters of [0, warmup) are not counted: rows at 0 h and 17 h are before 1 d.
        let counted = (0..<30).reduce(0) { $0 + trace.letters(device: $1).filter { $0 >= day }.count }
        #expect(counted > 0 && one.arms[0].ledger.letters == counted)
    }

    /// Without segments the document has no "segments" key, and a shard has none either.
    @Test func noSegmentsKeyWithoutSegments() {
        var s = Version2Fixture.scenario(devices: 10)
        s.segments = []
        #expect(!Simulator.run(s).json.text.contains("segments"))
        #expect(!PartialResult.run(s, shard: ShardSpec(index: 0, count: 2)!).json.text.contains("segments"))
    }

    /// The table shows a block per segment after the totals.
    @Test func tableHasASegmentBlock() {
        let s = Version2Fixture.scenario(devices: 20)
        let text = ReportTable(Simulator.run(s), scenario: s).text
        #expect(text.contains("segment commuters · 12 devices"))
        #expect(text.contains("segment night · 8 devices"))
    }

    /// A device is traced in its own segment's scenario: its letters are those of the run.
    @Test func traceUsesTheDevicesSegment() {
        let s = Version2Fixture.scenario(devices: 20)
        let device = 15
        let traced = Simulator.trace(s, device: device, arm: .on).ledger
        let segment = s.segmentIndex(ofDevice: device)!
        expectEqual(segment, 2)
        let alone = Simulator.run(s.scenario(forSegment: segment), devices: device..<device + 1).arms[1].ledger
        expectEqual(traced, alone)
        expectEqual(TraceReport.segmentLabel(s, device: device), " · segment night")
    }
}
