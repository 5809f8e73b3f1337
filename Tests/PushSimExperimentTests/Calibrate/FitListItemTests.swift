// `--fit LIST.N.KEY[.ARGUMENT]`: one value of one item of a list replaced whole (an offline window's length), written back as the whole list.
import Testing
@testable import PushSimCore
@testable import PushSimExperiment
@testable import PushSimScenarioFile
import PushSimTestSupport

@Suite struct FitListItemTests {
    static let text = """
    name: nights
    duration: 2d
    devices: 10
    connectivity:
      online: exponential(2h)
      offline: lognormal(1m, 1h)
      windows:
        - start: 23h
          length: exponential(5h)
          spread: 3h
          every: 1d
        - {start: 12h, end: 12h30m, every: 1d}
    segments:
      - name: all
        share: 100%
        connectivity:
          windows:
            - {start: 1h, length: 2h, every: 1d}
    """

    static func scenario(_ overrides: [String] = []) throws -> Scenario {
        try ScenarioLoader.parse(text: text, file: "nights.yaml", overrides: overrides)
    }

    /// A scenario as the file it resolves to: two that print alike are the same.
    static func printed(_ overrides: [String] = []) throws -> String { ScenarioPrinter.yaml(try scenario(overrides)) }

    @Test func aWindowsLengthIsFittedAsTheWholeListWithTheValueInItsPlace() throws {
        let base = try Self.scenario()
        let fit = try FitParameter.read("connectivity.windows.0.length.mean=1h..10h", in: base)
        expectEqual(fit.keyPath, "connectivity.windows")
        expectEqual(fit.unit, .duration)
        expectEqual(fit.start, Double(5 * SimTime.hour))
        let override = fit.override(Double(6 * SimTime.hour + 30 * SimTime.minute))
        #expect(override.hasPrefix("connectivity.windows=[{start: 23h, length: exponential(6h30m)"))
        // The override gives the scenario the file would with that value, and nothing else changes.
        let byHand = try ScenarioLoader.parse(text: Self.text.replacingOccurrences(of: "exponential(5h)", with: "exponential(6h30m)"), file: "nights.yaml")
        try expectEqual(Self.printed([override]), ScenarioPrinter.yaml(byHand))
        try expectEqual(Self.printed([fit.override(fit.start)]), Self.printed())
        // A whole value of an item, and a segment's own list.
        let spread = try FitParameter.read("connectivity.windows.0.spread=0..6h", in: base)
        try expectEqual(Self.printed([spread.override(Double(3 * SimTime.hour))]), Self.printed())
        let segment = try FitParameter.read("segments.all.connectivity.windows.0.length=30m..4h", in: base)
        expectEqual(segment.keyPath, "segments.all.connectivity.windows")
        expectEqual(segment.start, Double(2 * SimTime.hour))
        try expectEqual(Self.printed([segment.override(segment.start)]), Self.printed())
    }

    /// Two parameters of one key (two values of one window, two arguments of one distribution)
    /// are written into one override, each in its place: neither undoes the other.
    @Test func parametersOfOneKeyShareItsOverride() throws {
        let base = try Self.scenario()
        let length = try FitParameter.read("connectivity.windows.0.length.mean=1h..10h", in: base)
        let spread = try FitParameter.read("connectivity.windows.0.spread=0..6h", in: base)
        let median = try FitParameter.read("connectivity.offline.median=10s..10m", in: base)
        let p99 = try FitParameter.read("connectivity.offline.p99=30m..2h", in: base)
        let hour = Double(SimTime.hour)
        let overrides = FitParameter.overrides([length, median, spread, p99], [7 * hour, 2 * hour / 60, 1 * hour, 1.5 * hour])
        #expect(overrides == ["connectivity.windows=[{start: 23h, length: exponential(7h), every: 1d, spread: 1h}, {start: 12h, end: 12h30m, every: 1d}]",
                              "connectivity.offline=lognormal(2m, 1h30m)"])
        #expect(FitParameter.clash([length, spread, median, p99]) == nil)
        expectEqual(FitParameter.clash([length, median, length])?.contains("given twice"), true)
        let alertsOff = try FitParameter.read("device.alerts_off=0..0.5", in: base)
        expectEqual(FitParameter.overrides([alertsOff], [0.25]), ["device.alerts_off=0.25"])
    }

    @Test(arguments: [
        ("connectivity.windows.2.length.mean=1h..10h", "--fit:1:22", "has 2 items (0 to 1), so no item 2"),
        ("connectivity.windows.x.length=1h..10h", "--fit:1:22", "name one item by its place"),
        ("connectivity.windows.0.lenght.mean=1h..10h", "--fit:1:24", "did you mean `length`"),
        ("connectivity.windows.1.length=1h..10h", "--fit:1:24", "does not set `length`"),
        ("connectivity.windows.0.start.mean=1h..10h", "--fit:1:30", "not a distribution"),
        ("connectivity.windows.0.length.median=1h..10h", "--fit:1:31", "not `median`"),
    ])
    func badItemsAreLocated(argument: String, location: String, words: String) throws {
        let base = try Self.scenario()
        #expect {
            _ = try FitParameter.read(argument, in: base)
        } throws: { error in
            "\(error)".contains(location) && "\(error)".contains(words)
        }
    }

    @Test func aListWithACommaInAValueIsRefused() throws {
        let lognormal = try ScenarioLoader.parse(text: Self.text.replacingOccurrences(of: "exponential(5h)", with: "lognormal(5h, 9h)"), file: "nights.yaml")
        #expect {
            _ = try FitParameter.read("connectivity.windows.0.length.median=1h..5h", in: lognormal)
        } throws: { error in
            "\(error)".contains("--fit:1:1") && "\(error)".contains("comma")
        }
    }
}
