// APNs' console categories on every bundled scenario: each arm's pushes in exactly one category (docs/model.md §2).
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
@testable import PushSimExperiment
import PushSimTestSupport

@Suite struct ConsoleCategoriesTests {
    /// Per arm and per segment, the categories add up to the pushes sent; an arm on APNs sent
    /// some (every bundled scenario writes letters at this size), one on PushKit or FCM none.
    @Test(arguments: BundledScenarios.names)
    func theCategoriesAddUpToThePushesSent(_ name: String) throws {
        let scenario = try BundledScenarios.small(name)
        let ledgers = Simulator.simulateSegments(scenario, devices: 0..<scenario.devices, arms: scenario.arms)
        for (a, total) in ledgers.totals.enumerated() {
            expectEqual(total.apns.categorized, total.apns.sent, "\(name) arm \(a): \(total.apns)")
            if total.letters > 0 && scenario.segments.isEmpty { expectEqual((total.apns.sent > 0), (scenario.channel == .apns), "\(name) arm \(a)") }
            #expect(total.apns.sent >= total.apns.delivered + total.apns.deliveredFromStorage + total.apns.discardedDisabled)
        }
        for (s, segment) in ledgers.segments.enumerated() {
            for (a, l) in segment.enumerated() {
                expectEqual(l.apns.categorized, l.apns.sent, "\(name) segment \(s) arm \(a)")
            }
        }
    }
}
