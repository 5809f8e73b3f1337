// The extension logs' estimate says where it misleads (docs/model.md §7): delay-mode outages, hidden devices.
import Testing
@testable import PushSimCore
@testable import PushSimExperiment
@testable import PushSimReport
import PushSimTestSupport

@Suite struct TelemetryCaveatTests {
    /// A delay-mode outage holds the letters it meets; the caveat names how many and the
    /// estimate against the off arm's loss.
    @Test func aDelayModeOutageIsNamedWithItsEffect() throws {
        let scenario = try SmallScenarios.load("commuters", devices: 30, extra: ["xiva.outages=[{start: 1d, end: 1d3h}]", "xiva.outage_mode=delay"])
        let result = Simulator.run(scenario, jobs: 1)
        guard let on = result.arms.first(where: { $0.arm == .on }) else { Issue.record("no queue arm"); return }
        #expect(on.ledger.heldInOutage > 0)
        let caveats = on.telemetryCaveats(offArm: result.offArm)
        guard let delay = caveats.first(where: { $0.kind == "delay_outage_reorders" }) else { Issue.record("no caveat: \(caveats)"); return }
        expectEqual(delay.figures["letters_held"], Double(on.ledger.heldInOutage))
        expectEqual(delay.figures["off_arm_loss_rate"], result.offArm?.ledger.lossRate)
        #expect(delay.says.contains("overstates"))
        guard case .object(let arm) = on.json(offArm: result.offArm), case .object(let telemetry)? = arm["telemetry"],
              case .array(let listed)? = telemetry["caveats"] else { Issue.record("no caveats in the JSON"); return }
        expectEqual(listed.count, caveats.count)
    }

    @Test func withoutOutagesOrHiddenDevicesThereIsNoCaveat() {
        var l = Ledger()
        l.letters = 100; l.delivered = 100; l.lettersOnVisibleDevices = 100; l.positionsKnownToTelemetry = 100
        #expect(ArmResult(.on, ledger: l).telemetryCaveats(offArm: nil).isEmpty)
        l.lettersOnVisibleDevices = 75
        let hidden = ArmResult(.on, ledger: l).telemetryCaveats(offArm: nil)
        #expect(hidden.map(\.kind) == ["hidden_devices"] && hidden.first?.figures["hidden_letter_share"] == 0.25)
    }
}
