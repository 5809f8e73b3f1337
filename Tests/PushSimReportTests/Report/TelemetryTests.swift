// Tests of the queue arm's telemetry: the logs' estimate is compared with the off arm's truth.
import Testing
@testable import PushSimScenarioFile
@testable import PushSimExperiment
@testable import PushSimReport
@testable import PushSimCore
import PushSimTestSupport

@Suite struct TelemetryTests {
    private func telemetry(drop: String) throws -> [String: JSONValue] {
        let text = "name: t\nduration: 2d\ndevices: 60\nconnectivity: {online: exponential(3h), offline: exponential(40m)}\n"
        let scenario = try ScenarioLoader.parse(text: text, file: "t.yaml", overrides: ["xiva.drop=\(drop)"])
        let result = Simulator.run(scenario)
        guard case .object(let run) = result.json, case .array(let arms)? = run["runs"],
              case .object(let on) = arms[1], case .object(let t)? = on["telemetry"] else { return [:] }
        return t
    }

    private func number(_ v: JSONValue?) -> Double {
        if case .double(let d)? = v { return d }
        return .nan
    }

    @Test func differenceIsTheEstimateMinusTheOffArmsTruth() throws {
        let t = try telemetry(drop: "0")
        expectEqual(number(t["difference"]), number(t["estimated_loss_rate"]) - number(t["off_arm_loss_rate"]))
        #expect(number(t["on_arm_loss_rate"]) < number(t["off_arm_loss_rate"]), "the queue should recover letters here")
    }

    /// Letters XIVA drops are never numbered, so the logs cannot see them: the larger that blind
    /// spot, the more the estimate falls short of the truth. The old field (estimate minus the
    /// queue arm's loss) moved the other way.
    @Test func aGrowingBlindSpotMakesTheDifferenceMoreNegative() throws {
        let small = try telemetry(drop: "0.05"), large = try telemetry(drop: "0.3")
        #expect(number(large["difference"]) < number(small["difference"]))
        // Dropped letters are in the truth (off arm) but not in the estimate: the error is about −drop.
        #expect(abs(number(large["difference"]) + 0.3) < 0.1)
    }

    @Test func withoutAnOffArmThereIsNoDifference() throws {
        let scenario = try ScenarioLoader.parse(text: "name: t\nduration: 1d\ndevices: 3\nqueue: {mode: on}\n", file: "t.yaml")
        guard case .object(let t) = Simulator.run(scenario).arms[0].telemetry(offArm: nil) else { Issue.record("no object"); return }
        #expect(t["difference"] == nil && t["off_arm_loss_rate"] == nil && t["on_arm_loss_rate"] != nil)
    }
}
