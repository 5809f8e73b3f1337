// Device rules: display off (no extension), and connectivity flips driving the store.
import Testing
@testable import PushSimCore
import PushSimTestSupport

@Suite struct DeviceTests {
    /// Rule 5: with display off the push is delivered on arrival and no extension runs; a lost
    /// letter there is `alerts_off` in the queue arm and the push's own fate in the off arm.
    @Test func displayOffDeviceGetsPushWithoutExtension() {
        var w = ScriptedWorld(tinyScenario(), letters: [
            ScriptedLetter(time: 1 * hour, processing: 40 * sec), ScriptedLetter(time: 2 * hour, lost: true),
            ScriptedLetter(time: 3 * hour),
        ], alertsOff: true)
        let on = w.run(.on)
        expectEqual(w.fate(0), .delivered(latency: 150 * ms))   // no processing, no deadline
        expectEqual(w.fate(1), .lost(.alertsOff))
        expectEqual(on.pushesSeenByExtensions, 0)
        expectEqual(on.reRequests, 0)
        expectEqual(on.extensionTimeouts, 0)
        let off = w.run(.off)
        expectEqual(w.fate(1), .lost(.networkLoss))
        expectEqual(off.pushesSeenByExtensions, 0)
    }

    /// Alerts off is drawn per device with the given probability.
    @Test func alertsOffIsDrawnPerDevice() {
        var s = Scenario(name: "alerts", duration: span(1 * hour), devices: 4_000)
        s.device.alertsOff = 0.25
        var world = DeviceWorld(scenario: s)
        var off = 0
        for d in 0..<s.devices {
            world.prepare(device: d)
            if world.draws.alertsOff { off += 1 }
        }
        #expect(within(Double(off) / Double(s.devices), 0.25, se: binomialStandardError(0.25, s.devices)))
    }
}
