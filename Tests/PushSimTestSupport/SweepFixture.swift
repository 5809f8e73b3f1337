// A small sweep world shared by the sweep runner, report and command tests.
@testable import PushSimScenarioFile
@testable import PushSimExperiment
@testable import PushSimCore

/// A small world that still loses letters: a few devices offline every night.
package enum SweepFixture {
    package static let text = """
    name: sweep-fixture
    seed: 5
    duration: 1d
    drain: 12h
    devices: 4
    mail:
      rate: 48/d
    connectivity:
      windows:
        - {start: 2h, end: 6h, every: 1d}
    device:
      clear_after: exponential(30m)
    """

    package static func plan(_ axes: [SweepAxis], replications: Int) throws -> SweepPlan {
        try SweepPlan(axes: axes, replications: replications) {
            try ScenarioLoader.parse(text: text, file: "fixture.yaml", overrides: $0)
        }
    }

    package static let axis = SweepAxis(path: "queue.repeat_max_count", values: ["0", "2", "50"])
}
