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
        #expect(sc.queue.repeatMaxCount == 5)
        #expect(sc.seed == 3)
        #expect(sc.duration == SimTime(microseconds: 2 * SimTime.day))
    }

    @Test func setOverridesCreateMissingSections() throws {
        let sc = try decode(minimalScenario, ["connectivity.windows=[{start: 8h, end: 9h}]", "xiva.drop=2%"])
        #expect(sc.connectivity.windows == [OfflineWindow(start: SimTime(microseconds: 8 * SimTime.hour),
                                                          end: SimTime(microseconds: 9 * SimTime.hour))])
        #expect(sc.xiva.drop == 0.02)
    }

    @Test func setFillsAnEmptySection() throws {
        #expect(try decode(minimalScenario + "queue:\n", ["queue.mode=off"]).queue.mode == .off)
    }

    @Test func setCanReplaceAWholeSection() throws {
        let sc = try decode(minimalScenario + "xiva: {drop: 0.5, latency: 1s}\n", ["xiva={drop: 1%}"])
        #expect(sc.xiva.drop == 0.01)
        #expect(sc.xiva.latency == .constant(SimTime(microseconds: 50 * SimTime.millisecond)))
    }

    @Test func laterSetWins() throws {
        #expect(try decode(minimalScenario, ["seed=3", "seed=4"]).seed == 4)
    }

    @Test func setValueInFileSyntaxMayBeQuoted() throws {
        #expect(try decode(minimalScenario, ["description='a: b'"]).description == "a: b")
        #expect(try decode(minimalScenario, ["description="]).description == "")
    }

    @Test func setUnknownPathSuggestsNearest() {
        let error = scenarioError(minimalScenario, overrides: ["queue.repeat_max_cont=5"])
        #expect(place(error) == "--set:1:7")
        #expect(error?.message == "unknown key path `queue.repeat_max_cont`; did you mean `queue.repeat_max_count`?")
        let top = scenarioError(minimalScenario, overrides: ["repeat_max_count=5"])
        #expect(place(top) == "--set:1:1")
        #expect(top?.message.contains("did you mean `queue.repeat_max_count`?") == true)
    }

    @Test func setValueErrorPointsIntoTheArgument() {
        let error = scenarioError(minimalScenario, overrides: ["queue.repeat_max_count=-1"])
        #expect(place(error) == "--set:1:24")
        #expect(error?.message.contains("`queue.repeat_max_count`") == true)
        #expect(place(scenarioError(minimalScenario, overrides: ["connectivity.windows=[{start: 8h, end: &x 9h}]"])) == "--set:1:40")
    }

    @Test func setWithoutEqualsOrIntoAValueIsRejected() {
        #expect(scenarioError(minimalScenario, overrides: ["seed"])?.message.contains("PATH=VALUE") == true)
        #expect(place(scenarioError(minimalScenario, overrides: ["seed.x=1"])) == "--set:1:6")
        #expect(place(scenarioError(minimalScenario, overrides: ["queue..mode=on"])) == "--set:1:7")
        #expect(scenarioError(minimalScenario, overrides: ["sweep=[]"])?.message.contains("`sweep` cannot be set") == true)
        #expect(scenarioError(minimalScenario, overrides: ["connectivity.windows.start=1h"]) != nil)
    }

    @Test func setIntoASectionThatIsNotAMappingIsRejected() {
        let error = scenarioError(minimalScenario + "queue: [1]\n", overrides: ["queue.mode=on"])
        #expect(place(error) == "t.yaml:4:8")
    }

    @Test func setOnAnEmptyFileSuppliesTheScenario() throws {
        let sc = try decode("", ["name=x", "duration=1h", "devices=2"])
        #expect(sc.name == "x" && sc.devices == 2)
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
        #expect(place(error) == "t.yaml:5:31")
        #expect(error?.message.contains("`queue.repeat_max_count`") == true)
    }

    @Test func sweepUnknownPathSuggestsNearest() {
        let error = scenarioError(minimalScenario + "sweep:\n  queue.mod: [on, off]\n")
        #expect(place(error) == "t.yaml:5:3")
        #expect(error?.message.contains("did you mean `queue.mode`?") == true)
        #expect(scenarioError(minimalScenario + "sweep:\n  seed: 3\n")?.message.contains("non-empty list") == true)
        #expect(scenarioError(minimalScenario + "sweep: [seed]\n")?.message.contains("expected a mapping") == true)
    }
}
