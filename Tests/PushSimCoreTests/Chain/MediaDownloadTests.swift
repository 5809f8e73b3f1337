// Media attachments (extension.media) on hand-built cases: the download adds to processing, past the deadline it overruns.
import Testing
@testable import PushSimCore
import PushSimTestSupport

@Suite struct MediaDownloadTests {
    /// 1 MB at 1 Mbit/s is 8 s, added to the run's own 200 ms.
    private func media(cacheHit: Double = 0, deadline: Int64 = 30 * sec) -> Scenario {
        var s = tinyScenario()
        s.extension.deadline = span(deadline)
        s.extension.media = MediaAttachments(share: 1, size: constant(1_000_000), bandwidth: constant(1_000_000), cacheHit: cacheHit)
        return s
    }

    private func letterWithAttachment(_ s: Scenario) -> ScriptedWorld {
        var w = ScriptedWorld(s, letters: [ScriptedLetter(time: 1 * hour, xivaLatency: 50 * ms, apnsLatency: 100 * ms, processing: 200 * ms)])
        w.world.draws.mediaBytes = [1_000_000]
        return w
    }

    @Test func theDownloadAddsToProcessing() {
        var w = letterWithAttachment(media())
        let off = w.run(.off)
        expectEqual(w.fate(0), .delivered(latency: 150 * ms + 8 * sec + 200 * ms), "\(w.traceText)")
        expectEqual(off.media.downloads, 1)
        expectEqual(off.media.overruns, 0)
    }

    /// Past the deadline the original push is shown at the deadline: an extension time-out.
    @Test func aSlowDownloadOverrunsTheDeadline() {
        var w = letterWithAttachment(media(deadline: 5 * sec))
        let on = w.run(.on)
        expectEqual(w.fate(0), .delivered(latency: 150 * ms + 5 * sec))
        expectEqual(on.media.overruns, 1)
        expectEqual(on.extensionTimeouts, 1)
    }

    /// A cached attachment needs no download.
    @Test func aCacheHitDownloadsNothing() {
        var w = letterWithAttachment(media(cacheHit: 1))
        let off = w.run(.off)
        expectEqual(w.fate(0), .delivered(latency: 350 * ms))
        expectEqual(off.media.downloads, 0)
    }

    /// Every run finds its attachment cached at ratio 1 and none at ratio 0: `media.cache_hits`
    /// and `media.downloads` split the runs of letters with an attachment, in both arms.
    @Test(arguments: [Arm.off, .on])
    func cacheHitsAndDownloadsSplitTheRuns(_ arm: Arm) {
        let letters = (1...5).map { ScriptedLetter(time: Int64($0) * hour, xivaLatency: 50 * ms, apnsLatency: 100 * ms, processing: 200 * ms) }
        for (ratio, hits) in [(1.0, 5), (0.0, 0)] {
            var w = ScriptedWorld(media(cacheHit: ratio), letters: letters)
            w.world.draws.mediaBytes = Array(repeating: 1_000_000, count: letters.count)
            let ledger = w.run(arm)
            expectEqual(ledger.media.cacheHits, hits, "ratio \(ratio): \(w.traceText)")
            expectEqual(ledger.media.downloads, 5 - hits, "ratio \(ratio): \(w.traceText)")
            expectEqual(ledger.media.attachmentRuns, 5)
        }
    }

    /// The share of letters with an attachment, per letter, on a stream of its own.
    @Test func theShareIsAProbabilityPerLetter() {
        var s = tinyScenario(duration: 30 * day)
        s.mail.ratePerMicrosecond = 100.0 / Double(day)
        s.extension.media = MediaAttachments(share: 0.25, size: constant(1000), bandwidth: constant(1_000_000))
        var world = DeviceWorld(scenario: s)
        world.prepare(device: 3)
        let n = world.draws.letters.count
        let carrying = world.draws.mediaBytes.filter { $0 > 0 }.count
        #expect(world.draws.mediaBytes.count == n && n > 2_000)
        #expect(within(Double(carrying) / Double(n), 0.25, se: binomialStandardError(0.25, n)))
    }
}
