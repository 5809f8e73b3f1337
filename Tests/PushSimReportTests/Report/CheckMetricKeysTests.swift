// `pushsim check`'s metric keys against what runs write: a misspelled key that may be absent would compare 0 with 0 forever.
import Foundation
import PushSimClient
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
@testable import PushSimExperiment
@testable import PushSimReport
import PushSimTestSupport

/// An extension that shows every push and saves the newest position, and an app that, woken by
/// a background push, asks XIVA for (or shows) the positions between the saved one and the push's.
private struct AppAsksWhenWoken: ServiceExtensionClient {
    var shows: Bool
    func freshState() -> Int32 { 0 }
    func pushArrived(_ push: ArrivingPush, state: inout Int32) -> ExtensionAnswer {
        state = max(state, push.payload.position)
        return .show
    }
    func backgroundPushArrived(_ push: BackgroundPush, state: inout Int32) -> AppAnswer {
        defer { state = max(state, push.newestPosition) }
        guard state > 0, push.newestPosition > state + 1 else { return .nothing }
        let missed = (state + 1)...(push.newestPosition - 1)
        return shows ? .summarize([missed]) : .reRequest([missed])
    }
}

@Suite struct CheckMetricKeysTests {
    /// Every count and rate names a per-device count that the run's spread accumulates, by its
    /// own key (a key missing from `countKeys` silently took index 0, the letters).
    @Test func everyCountMetricIsACountTheRunAccumulates() {
        for arm in [Arm.off, .on] {
            for metric in CheckMetrics.catalogue(arm) {
                switch metric.kind {
                case .count(let index):
                    expectEqual(CheckMetrics.countKeys[index], metric.key, "\(metric.key) reads count \(CheckMetrics.countKeys[index])")
                case .rate(let numerator):
                    let expected = ["loss_rate": "lost", "duplicate_rate": "duplicates"][metric.key]
                        ?? CheckMetrics.designFigures(arm).first { $0.key == metric.key }?.count
                    expectEqual(expected, CheckMetrics.countKeys[numerator], "\(metric.key) divides \(CheckMetrics.countKeys[numerator])")
                case .share(let complement):
                    // A declared share's noise is its complement count's, a count of its own group.
                    let share = Ledger.checkedShares.first { $0.jsonPath == metric.key }
                    expectEqual(share?.complementPath, CheckMetrics.countKeys[complement], "\(metric.key) takes the noise of \(CheckMetrics.countKeys[complement])")
                case .latencyQuantile, .latencyMax, .work, .loadPeak: break
                }
            }
        }
    }

    /// Every metric, those that may be absent included, is written by some run: the fuzzed
    /// version-2 scenarios switch every mechanism on, so a key no run writes is a misspelling.
    @Test func everyMetricKeyIsWrittenBySomeRun() throws {
        var written: [Arm: Set<String>] = [.off: [], .on: []]
        func collect(_ value: JSONValue, prefix: String, into keys: inout Set<String>) {
            guard case .object(let members) = value else {
                if value.number != nil { keys.insert(prefix) }
                return
            }
            for (key, member) in members { collect(member, prefix: prefix.isEmpty ? key : prefix + "." + key, into: &keys) }
        }
        for k in 0..<60 {
            let draw = VersionTwoFuzz.scenario(k)
            guard let scenario = try? ScenarioLoader.parse(text: draw.text, file: "fuzz-\(k).yaml", overrides: draw.overrides) else { continue }
            let result = Simulator.run(scenario)
            for arm in result.arms { collect(arm.json(offArm: result.offArm, loadFrame: result.loadFrame, devices: result.totalDevices), prefix: "", into: &written[arm.arm, default: []]) }
        }
        // And the bundled scenarios at their small size: a count listed only when it is not
        // zero (`memory_kill`) needs the mechanism that makes it, which ios-today.yaml has.
        for name in BundledScenarios.names {
            let result = Simulator.run(try BundledScenarios.small(name))
            for arm in result.arms { collect(arm.json(offArm: result.offArm, loadFrame: result.loadFrame, devices: result.totalDevices), prefix: "", into: &written[arm.arm, default: []]) }
        }
        // The main app's counts need a user's client of protocol version 2 whose app acts: one
        // whose app, woken by a background push, asks again for what the extension missed, and
        // one that shows it itself.
        for shows in [false, true] {
            var scenario = try ScenarioLoader.load(path: BundledScenarios.folder.appendingPathComponent("quickstart.yaml").path,
                                                   overrides: ["devices=100", "device.background_sync.throttle=6/h"])
            scenario.queue.backgroundPushes = true
            scenario.queue.userClient = UserClient(stateful: AppAsksWhenWoken(shows: shows), name: "app")
            let result = Simulator.run(scenario)
            for arm in result.arms { collect(arm.json(offArm: result.offArm, loadFrame: result.loadFrame, devices: result.totalDevices), prefix: "", into: &written[arm.arm, default: []]) }
        }
        for arm in [Arm.off, .on] {
            // The harm and cost set is computed from the fields, not written (CheckHarmsAndCostsTests).
            let missing = CheckMetrics.catalogue(arm).filter { !$0.derived }.map(\.key).filter { !(written[arm]?.contains($0) ?? false) }
            #expect(missing.isEmpty, "queue \(arm.rawValue): no run writes \(missing)")
        }
    }
}
