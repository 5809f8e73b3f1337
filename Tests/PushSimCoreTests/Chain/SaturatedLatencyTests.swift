// A duration draw that saturates at `forever` (SimTime.rounding of a huge lognormal draw) must
// mean "never within this run", not wrap around to an instant in the past.
import Testing
@testable import PushSimCore
import PushSimTestSupport

/// What `Distribution.sample` returns for a draw beyond the Int64 range.
let saturated = SimTime.forever.microseconds

@Suite struct SaturatedLatencyTests {
    /// Contract-valid input: apns.latency lognormal(1ms, 30d) (σ ≈ 9.3) saturates about once in
    /// 25 000 draws. A push whose latency saturated must not be delivered.
    @Test
    func heavyTailedLatencyNeverDeliversBeforeTheLetter() {
        var s = Scenario(name: "heavy", duration: span(1 * day), devices: 2_000)
        s.queue.mode = .off
        s.apns.latency = .lognormal(median: Double(1 * ms), p99: Double(30 * day))
        var world = DeviceWorld(scenario: s)
        var saturatedDraws = 0, deliveredBeforeSent = 0
        for d in 0..<s.devices {
            world.prepare(device: d)
            saturatedDraws += world.draws.letters.filter { $0.apnsLatency == saturated }.count
            world.run(.off)
            for i in 0..<world.draws.letters.count where world.letterStates[i].delivered && world.letterStates[i].firstDelivery < world.draws.letters[i].time {
                deliveredBeforeSent += 1
            }
        }
        #expect(saturatedDraws > 0)   // the scenario does reach the edge (3 draws with seed 1)
        expectEqual(deliveredBeforeSent, 0)
    }

    @Test
    func saturatedAPNsLatencyIsUnfinished() {
        var w = ScriptedWorld(tinyScenario(), letters: [ScriptedLetter(time: 1 * hour, apnsLatency: saturated)])
        w.run(.off)
        expectEqual(w.fate(0), .lost(.unfinished), "\(w.traceText)")
    }

    @Test
    func saturatedXivaLatencyIsUnfinished() {
        var w = ScriptedWorld(tinyScenario(), letters: [ScriptedLetter(time: 1 * hour, xivaLatency: saturated)])
        w.run(.off)
        expectEqual(w.fate(0), .lost(.unfinished), "\(w.traceText)")
    }

    @Test
    func saturatedProcessingWithoutDeadlineIsUnfinished() {
        var s = tinyScenario()
        s.extension.deadline = .forever
        var w = ScriptedWorld(s, letters: [ScriptedLetter(time: 1 * hour, processing: saturated)])
        w.run(.off)
        expectEqual(w.fate(0), .lost(.unfinished), "\(w.traceText)")
    }

    @Test
    func saturatedRequestLatencyLeavesTheGapUnfinished() {
        var s = tinyScenario()
        s.extension.deadline = .forever
        s.xiva.requestLatency = .constant(.forever)   // what a saturated draw returns
        var w = ScriptedWorld(s, letters: [
            ScriptedLetter(time: 0), ScriptedLetter(time: 1 * minute, lost: true), ScriptedLetter(time: 2 * minute),
        ])
        w.run(.on)
        expectEqual(w.fate(1), .lost(.unfinished), "\(w.traceText)")
        expectEqual(w.fate(2), .lost(.unfinished))
    }

    /// Expiry, retention and the clear timer saturate too (SimTime's `+`).
    @Test func saturatedClearTimeMeansNeverCleared() {
        var s = tinyScenario()
        s.device.clearAfter = .constant(.forever)
        s.queue.collapseId = true
        var w = ScriptedWorld(s, letters: NotificationCenterTests.overtaking)
        expectEqual(w.run(.on).duplicates, 0)
    }
}
