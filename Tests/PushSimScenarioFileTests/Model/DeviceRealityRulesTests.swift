// docs/model.md §8, The device as it really is, pinned: a killed run and device id changes, an install that never saves, what a media overrun counts, bandwidth units.
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
import PushSimTestSupport

@Suite struct DeviceRealityRulesTests {
    /// A killed run does nothing, so it does not notice a device id change either: changes are
    /// found (and counted) only by a run that survives, and here none does.
    @Test func aKilledRunDoesNotNoticeADeviceIdChange() {
        var s = tinyScenario(duration: 6 * day)
        s.extension.earlyKill = 1
        s.device.idChangeRatePerMicrosecond = 1.0 / Double(hour)
        var w = ScriptedWorld(s, letters: [ScriptedLetter(time: 1 * day), ScriptedLetter(time: 3 * day, lost: true), ScriptedLetter(time: 5 * day)])
        let on = w.run(.on)
        expectEqual(on.earlyKill.kills, 2)
        expectEqual(on.deviceIdChange.changes, 0)
        expectEqual(on.deviceIdChange.positionsInForgottenGaps, 0)
        expectEqual(w.fate(1), .lost(.undetectedGap))
    }

    /// The device's first two reinstalls, worked out from its stream as the world draws them.
    private func reinstalls(_ s: Scenario) -> (first: Int64, second: Int64) {
        var rng = RandomStream(seed: s.seed, device: 0, purpose: .reinstalls)
        let first = SimTime.rounding(rng.nextExponential() / s.device.reinstallRatePerMicrosecond).microseconds
        return (first, first + SimTime.rounding(rng.nextExponential() / s.device.reinstallRatePerMicrosecond).microseconds)
    }

    /// An install that never saves a position: its positions count in `missed_gap_positions`
    /// (all of them) at the next reinstall; if none comes before the end, they are not counted
    /// (nothing in the run could still have checked them, as a final gap no push revealed).
    @Test func anInstallThatNeverSavesCountsItsPositionsAtTheNextReinstall() throws {
        var s = tinyScenario()
        s.device.reinstallRatePerMicrosecond = 1.0 / Double(30 * day)
        s.device.reinstallDelay = .constant(.zero)
        let (r, second) = reinstalls(s)
        try #require(r > 2 * hour && second - r > 3 * hour)
        // Old install: position 1 saved. New install: positions 2 and 3, both lost.
        let script = [ScriptedLetter(time: r - 1 * hour), ScriptedLetter(time: r + 1 * hour, lost: true),
                      ScriptedLetter(time: r + 2 * hour, lost: true)]
        var endsFirst = s
        endsFirst.duration = span(r + 3 * hour)
        var before = ScriptedWorld(endsFirst, letters: script)
        let alone = before.run(.on)
        expectEqual(alone.appReinstalls.reinstalls, 1)
        expectEqual(alone.appReinstalls.missedGapPositions, 0)
        expectEqual(before.fate(1), .lost(.undetectedGap))
        expectEqual(before.fate(2), .lost(.undetectedGap))
        // A second reinstall inside the run: the second install's two positions count then; the
        // third install saves its first position (4) with nothing before it.
        var lasting = s
        lasting.duration = span(second + 2 * hour)
        var after = ScriptedWorld(lasting, letters: script + [ScriptedLetter(time: second + 1 * hour)])
        let both = after.run(.on)
        expectEqual(both.appReinstalls.reinstalls, 2, "\(after.traceText)")
        expectEqual(both.appReinstalls.missedGapPositions, 2, "\(after.traceText)")
    }

    /// A 1 s deadline; the letter with the attachment downloads it at 1 Mbit/s.
    private func withAttachment(bytes: Int64, _ configure: (inout Scenario) -> Void = { _ in }) -> ScriptedWorld {
        var s = tinyScenario()
        s.xiva.requestError = 0
        s.extension.deadline = span(1 * sec)
        s.extension.media = MediaAttachments(share: 1, size: constant(bytes), bandwidth: constant(1_000_000), cacheHit: 0)
        configure(&s)
        var w = ScriptedWorld(s, letters: [ScriptedLetter(time: 1 * hour, xivaLatency: 50 * ms, apnsLatency: 100 * ms, processing: 200 * ms),
                                           ScriptedLetter(time: 2 * hour, lost: true),
                                           ScriptedLetter(time: 3 * hour, xivaLatency: 50 * ms, apnsLatency: 100 * ms, processing: 200 * ms)])
        w.world.draws.mediaBytes = [0, 0, bytes]
        return w
    }

    /// `media.overruns` counts a download that takes the run's own work past the deadline; the
    /// re-request's latency is not part of it. Here 200 ms + 700 ms fits in 1 s, the answer
    /// (300 ms later) does not: an extension time-out, not an overrun.
    @Test func anOverrunIsTheDownloadAloneNotTheReRequestsLatency() {
        var w = withAttachment(bytes: 87_500)
        let on = w.run(.on)
        expectEqual(on.media.downloads, 1)
        expectEqual(on.media.overruns, 0)
        expectEqual(on.reRequests, 1)
        expectEqual(on.extensionTimeouts, 1)
        expectEqual(w.fate(2), .delivered(latency: 150 * ms + 1 * sec), "\(w.traceText)")
        // 900 ms more (1 s download) takes the run's own work past the deadline: an overrun.
        var slow = withAttachment(bytes: 125_000)
        let overrun = slow.run(.on)
        expectEqual(overrun.media.overruns, 1)
        expectEqual(overrun.extensionTimeouts, 1)
        expectEqual(overrun.reRequests, 0)
    }

    /// Bandwidth prefixes are powers of 1000 (bits per second, as networks count); sizes'
    /// `KB` and `MB` are powers of 1024.
    @Test func bandwidthPrefixesArePowersOf1000() throws {
        try expectEqual(ValueParsers.bandwidth("1kbit/s"), 1_000)
        try expectEqual(ValueParsers.bandwidth("1Mbit/s"), 1_000_000)
        try expectEqual(ValueParsers.bandwidth("1Gbit/s"), 1_000_000_000)
        try expectEqual(ValueParsers.byteSize("1KB"), 1_024)
        try expectEqual(ValueParsers.byteSize("1MB"), 1_048_576)
    }
}
