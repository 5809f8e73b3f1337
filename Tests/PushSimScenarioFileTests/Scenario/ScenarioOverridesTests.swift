// Tests of `--set` overrides and of the `sweep:` section.
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
import PushSimTestSupport

@Suite struct ScenarioOverridesTests {
    private func decode(_ text: String, _ overrides: [String]) throws -> Scenario {
        try ScenarioLoader.parse(text: text, file: "t.yaml", overrides: overrides)
    }

    @Test func setOverridesReplaceValues() throws {
        let sc = try decode(minimalScenario + "seed: 9\nqueue:\n  repeat_max_count: 10\n",
                            ["queue.repeat_max_count=5", "seed=3", "duration=2d"])
        expectEqual(sc.queue.repeatMaxCount, 5)
        expectEqual(sc.seed, 3)
        expectEqual(sc.duration, SimTime(microseconds: 2 * SimTime.day))
    }

    @Test func setOverridesCreateMissingSections() throws {
        let sc = try decode(minimalScenario, ["connectivity.windows=[{start: 8h, end: 9h}]", "xiva.drop=2%"])
        #expect(sc.connectivity.windows == [OfflineWindow(start: SimTime(microseconds: 8 * SimTime.hour),
                                                          end: SimTime(microseconds: 9 * SimTime.hour))])
        expectEqual(sc.xiva.drop, 0.02)
    }

    @Test func setFillsAnEmptySection() throws {
        try expectEqual(decode(minimalScenario + "queue:\n", ["queue.mode=off"]).queue.mode, .off)
    }

    @Test func setCanReplaceAWholeSection() throws {
        let sc = try decode(minimalScenario + "xiva: {drop: 0.5, latency: 1s}\n", ["xiva={drop: 1%}"])
        expectEqual(sc.xiva.drop, 0.01)
        expectEqual(sc.xiva.latency, .constant(SimTime(microseconds: 50 * SimTime.millisecond)))
    }

    @Test func laterSetWins() throws {
        try expectEqual(decode(minimalScenario, ["seed=3", "seed=4"]).seed, 4)
    }

    @Test func setValueInFileSyntaxMayBeQuoted() throws {
        try expectEqual(decode(minimalScenario, ["description='a: b'"]).description, "a: b")
        try expectEqual(decode(minimalScenario, ["description="]).description, "")
    }

    @Test func setUnknownPathSuggestsNearest() {
        let error = scenarioError(minimalScenario, overrides: ["queue.repeat_max_cont=5"])
        expectEqual(place(error), "--set:1:7")
        expectEqual(error?.message, "unknown key path `queue.repeat_max_cont`; did you mean `queue.repeat_max_count`?")
        let top = scenarioError(minimalScenario, overrides: ["repeat_max_count=5"])
        expectEqual(place(top), "--set:1:1")
        expectEqual(top?.message.contains("did you mean `queue.repeat_max_count`?"), true)
    }

    @Test func setValueErrorPointsIntoTheArgument() {
        let error = scenarioError(minimalScenario, overrides: ["queue.repeat_max_count=-1"])
        expectEqual(place(error), "--set:1:24")
        expectEqual(error?.message.contains("`queue.repeat_max_count`"), true)
        expectEqual(place(scenarioError(minimalScenario, overrides: ["connectivity.windows=[{start: 8h, end: &x 9h}]"])), "--set:1:40")
    }

    @Test func setWithoutEqualsOrIntoAValueIsRejected() {
        expectEqual(scenarioError(minimalScenario, overrides: ["seed"])?.message.contains("PATH=VALUE"), true)
        expectEqual(place(scenarioError(minimalScenario, overrides: ["seed.x=1"])), "--set:1:6")
        expectEqual(place(scenarioError(minimalScenario, overrides: ["queue..mode=on"])), "--set:1:7")
        expectEqual(scenarioError(minimalScenario, overrides: ["sweep=[]"])?.message.contains("`sweep` cannot be set"), true)
        #expect(scenarioError(minimalScenario, overrides: ["connectivity.windows.start=1h"]) != nil)
    }

    @Test func setIntoASectionThatIsNotAMappingIsRejected() {
        let error = scenarioError(minimalScenario + "queue: [1]\n", overrides: ["queue.mode=on"])
        expectEqual(place(error), "t.yaml:4:8")
    }

    @Test func setOnAnEmptyFileSuppliesTheScenario() throws {
        let sc = try decode("", ["name=x", "duration=1h", "devices=2"])
        expectEqual(sc.name, "x")
        expectEqual(sc.devices, 2)
    }

    @Test func sweepAxesAreKeptInFileSyntax() throws {
        let text = minimalScenario + """
            sweep:
              queue.repeat_max_count: [0, 5, 10]
              xiva.latency: [uniform(1s, 2s), exponential(1s)]
              connectivity.windows: [[], [{start: 8h, end: 9h}]]
              name:
                - "a b"
            """
        let (_, sweep) = try ScenarioLoader.parseWithSweep(text: text, file: "t.yaml")
        #expect(sweep == [
            SweepAxis(path: "queue.repeat_max_count", values: ["0", "5", "10"]),
            SweepAxis(path: "xiva.latency", values: ["uniform(1s, 2s)", "exponential(1s)"]),
            SweepAxis(path: "connectivity.windows", values: ["[]", "[{start: 8h, end: 9h}]"]),
            SweepAxis(path: "name", values: ["\"a b\""]),
        ])
        // Each value applies back as an override.
        for axis in sweep {
            for value in axis.values {
                #expect(scenarioError(minimalScenario, overrides: ["\(axis.path)=\(value)"]) == nil, "\(axis.path)=\(value)")
            }
        }
    }

    @Test func sweepBadValueIsReportedWhereWritten() {
        let error = scenarioError(minimalScenario + "sweep:\n  queue.repeat_max_count: [0, -5]\n")
        expectEqual(place(error), "t.yaml:5:31")
        expectEqual(error?.message.contains("`queue.repeat_max_count`"), true)
    }

    @Test func sweepUnknownPathSuggestsNearest() {
        let error = scenarioError(minimalScenario + "sweep:\n  queue.mod: [on, off]\n")
        expectEqual(place(error), "t.yaml:5:3")
        expectEqual(error?.message.contains("did you mean `queue.mode`?"), true)
        expectEqual(scenarioError(minimalScenario + "sweep:\n  seed: 3\n")?.message.contains("non-empty list"), true)
        expectEqual(scenarioError(minimalScenario + "sweep: [seed]\n")?.message.contains("expected a mapping"), true)
    }
}
