// docs/model.md §10, Low Power Mode, pinned: an hour in Low Power Mode holds that hour's pushes, whatever their priority, and releases them together at its end; a shuffled release makes false gaps.
import Testing
@testable import PushSimCore
import PushSimTestSupport

@Suite struct LowPowerRulesTests {
    private func at(_ t: Int64, low: Bool = false) -> ScriptedLetter {
        ScriptedLetter(time: t, xivaLatency: 50 * ms, apnsLatency: 100 * ms, processing: 200 * ms, lowPriority: low)
    }

    private func lowPower(_ order: LowPowerMode.ReleaseOrder, sleep: Bool = false) -> Scenario {
        tinyScenario(on: .apns) {
            $0.xiva.requestError = 0
            $0.device.lowPower = LowPowerMode(share: 1, releaseOrder: order)
            if sleep {
                $0.apns.lowPriorityShare = 0.5
                $0.device.sleep = DeviceSleep(awake: constant(1 * hour), asleep: constant(1 * hour))
            }
        }
    }

    private func world(_ s: Scenario, _ letters: [ScriptedLetter], lowPower: [Range<Int64>], asleep: [Range<Int64>] = []) -> ScriptedWorld {
        var w = ScriptedWorld(s, letters: letters)
        w.world.draws.lowPowerTimeline.intervals = lowPower
        w.world.draws.sleepTimeline.asleep = asleep
        return w
    }

    /// Low Power Mode from 1h to 2h: the pushes due then (1h10, 1h20, 1h30, priority 10, each due
    /// 150 ms after its letter) are held and handed over together at 2h, shown 200 ms later; a
    /// push due before and one after go through at once.
    @Test func anHourInLowPowerModeHoldsThatHoursPushesAndReleasesThemTogether() {
        let times = [30 * minute, 1 * hour + 10 * minute, 1 * hour + 20 * minute, 1 * hour + 30 * minute, 2 * hour + 10 * minute]
        for arm in [Arm.off, .on] {
            var w = world(lowPower(.held), times.map { at($0) }, lowPower: [1 * hour..<2 * hour])
            let l = w.run(arm)
            let shown = (0..<times.count).map { w.firstDelivery($0) }
            #expect(shown == [30 * minute + 350 * ms, 2 * hour + 200 * ms, 2 * hour + 200 * ms, 2 * hour + 200 * ms, 2 * hour + 10 * minute + 350 * ms],
                    "\(arm)\n\(w.traceText)")
            expectEqual(l.lowPower.held, 3)
            expectEqual(l.lowPower.heldPriority10, 3)
            expectEqual(l.lowPower.released, 3)
            expectEqual(l.delivered, 5, "in the order held the queue sees no gap")
            expectEqual(l.gapsDetected, 0, "in the order held the queue sees no gap")
        }
    }

    /// A phone that is not in Low Power Mode (an empty timeline) holds nothing.
    @Test func aPhoneOutsideTheShareHoldsNothing() {
        var w = world(lowPower(.held), [at(1 * hour + 10 * minute)], lowPower: [])
        let l = w.run(.off)
        expectEqual(w.fate(0), .delivered(latency: 350 * ms))
        expectEqual(l.lowPower.held, 0)
    }

    /// Twenty pushes held and released shuffled reach the extension out of order: the queue arm
    /// finds gaps that are false (every letter is delivered). In the order held it finds none.
    /// The chance that a uniform shuffle of 20 leaves every push after a lower one is 1/20!.
    @Test func aShuffledReleaseMakesFalseGaps() {
        let letters = [at(10 * minute)] + (0..<20).map { at(1 * hour + Int64($0) * minute) }
        var held = world(lowPower(.held), letters, lowPower: [1 * hour..<2 * hour])
        let inOrder = held.run(.on)
        var shuffled = world(lowPower(.shuffled), letters, lowPower: [1 * hour..<2 * hour])
        let outOfOrder = shuffled.run(.on)
        expectEqual(inOrder.gapsDetected, 0)
        expectEqual(inOrder.delivered, 21)
        #expect(outOfOrder.gapsDetected > 0 && outOfOrder.lost == 0, "\(shuffled.traceText)")
        // Every letter of every gap arrived in the same instant and was shown before XIVA's
        // answer: each re-request is a false gap (docs/model.md §2, False gaps).
        #expect(outOfOrder.reRequests > 0 && outOfOrder.falseGaps.alreadyShown == outOfOrder.reRequests && outOfOrder.falseGaps.notYetShown == 0)
        expectEqual(inOrder.falseGaps, FalseGapCounters())
    }

    /// A gap of a letter really lost (replaced in APNs' one-slot store while the phone was
    /// offline) is no false gap: its re-request is counted as one with a letter not shown yet.
    @Test func aRealGapIsNotAFalseGap() {
        var s = tinyScenario(on: .apns) { $0.xiva.requestError = 0 }
        s.apns.expiration = span(1 * day)
        var w = ScriptedWorld(s, letters: [at(10 * minute), at(1 * hour), at(1 * hour + 10 * minute)], offline: [50 * minute..<2 * hour])
        let l = w.run(.on)
        expectEqual(l.reRequests, 1, "\(w.traceText)")
        expectEqual(l.falseGaps.notYetShown, 1, "\(w.traceText)")
        expectEqual(l.falseGaps.alreadyShown, 0, "\(w.traceText)")
    }

    /// `release_order: latency`: each held push reaches the phone one `apns.latency` draw after the
    /// window's end. With a constant 100 ms that is the order held, shown at 2h + 100 ms + 200 ms
    /// (no gap); with a spread latency the twenty arrive at twenty instants after 2h, every one delivered.
    @Test func aReleaseWithLatenciesSpreadsTheBurst() {
        let letters = [at(10 * minute)] + (0..<20).map { at(1 * hour + Int64($0) * minute) }
        for arm in [Arm.off, .on] {
            var constant = world(lowPower(.latency), letters, lowPower: [1 * hour..<2 * hour])
            let l = constant.run(arm)
            #expect((1...20).allSatisfy { constant.firstDelivery($0) == 2 * hour + 300 * ms }, "\(constant.traceText)")
            expectEqual(l.delivered, 21)
            expectEqual(l.gapsDetected, 0)
            expectEqual(l.lowPower.released, 20)
        }
        var s = lowPower(.latency)
        s.apns.latency = .lognormal(median: Double(100 * ms), p99: Double(5 * sec))
        var spread = world(s, letters, lowPower: [1 * hour..<2 * hour])
        let l = spread.run(.off)
        let shown = (1...20).map { spread.firstDelivery($0) }
        #expect(l.delivered == 21 && shown.allSatisfy { $0 > 2 * hour + 200 * ms } && Set(shown).count == 20, "\(spread.traceText)")
    }

    /// A sleeping phone that wakes inside a Low Power Mode window keeps what was held until the
    /// window ends; a window that ends while the phone sleeps leaves its priority-5 pushes for the wake.
    @Test func sleepAndLowPowerModeHoldTogether() {
        // Asleep 1h–1h30, Low Power Mode 1h15–2h: the priority-5 push of 1h05 waits until 2h.
        var a = world(lowPower(.held, sleep: true), [at(1 * hour + 5 * minute, low: true)],
                      lowPower: [1 * hour + 15 * minute..<2 * hour], asleep: [1 * hour..<1 * hour + 30 * minute])
        a.run(.off)
        expectEqual(a.firstDelivery(0), 2 * hour + 200 * ms, "\(a.traceText)")
        // Low Power Mode 1h–1h30, asleep 1h15–3h: the priority-5 push of 1h05 waits for the wake at 3h.
        var b = world(lowPower(.held, sleep: true), [at(1 * hour + 5 * minute, low: true)],
                      lowPower: [1 * hour..<1 * hour + 30 * minute], asleep: [1 * hour + 15 * minute..<3 * hour])
        b.run(.off)
        expectEqual(b.firstDelivery(0), 3 * hour + 200 * ms, "\(b.traceText)")
    }

    /// The share is a draw per phone from its own stream: over 4000 phones at 20 % the count lies
    /// within 4.5 standard deviations of 800 (σ = √(4000 · 0.2 · 0.8) ≈ 25.3).
    @Test func theShareIsDrawnPerPhone() {
        var s = tinyScenario()
        s.device.lowPower = LowPowerMode(share: 0.2, windows: [OfflineWindow(start: span(18 * hour), end: span(23 * hour), every: span(day))])
        var inMode = 0
        for device in 0..<4000 {
            var w = DeviceWorld(scenario: s)
            w.prepare(device: device)
            if !w.draws.lowPowerTimeline.intervals.isEmpty {
                inMode += 1
                expectEqual(w.draws.lowPowerTimeline.intervals.first, 18 * hour..<23 * hour)
            }
        }
        #expect(abs(inMode - 800) <= 114, "\(inMode)")
    }
}
