// The bundled scenarios cut down to a few hundred devices, for the shard and command tests.
import Foundation
@testable import PushSimCore
@testable import PushSimScenarioFile

/// The bundled scenarios, cut down to a few hundred devices so tests stay fast.
package enum SmallScenarios {
    package static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scenarios")

    package static let names = ["quickstart", "commuters", "field-mix", "flaky-network", "long-flight", "nightly-offline"]

    package static func path(_ name: String) -> String { directory.appendingPathComponent("\(name).yaml").path }

    package static func load(_ name: String, devices: Int = 40, extra: [String] = []) throws -> Scenario {
        try ScenarioLoader.load(path: path(name), overrides: ["devices=\(devices)"] + extra)
    }
}
