// `--set` on every path `calibrate --fit` takes: one argument of a distribution, a default's argument, one key of one item of a list; errors located in the argument.
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
import PushSimTestSupport

@Suite struct SetReachTests {
    private func printed(_ text: String, _ overrides: [String]) throws -> String {
        ScenarioPrinter.yaml(ScenarioPrinter.entries(try ScenarioLoader.parse(text: text, file: "t.yaml", overrides: overrides)))
    }
    private let file = minimalScenario + """
        connectivity:
          online: exponential(3h)
          offline: lognormal(40m, 6h)
          windows: [{start: 8h, end: 9h, every: 1d}, {start: 17h, end: 18h, every: 1d}]
        """

    /// Setting an argument is setting the whole distribution with that argument replaced.
    @Test func anArgumentOfADistribution() throws {
        try expectEqual(printed(file, ["connectivity.offline.median=3m"]), printed(file, ["connectivity.offline=lognormal(3m, 6h)"]))
        try expectEqual(printed(file, ["connectivity.offline.p99=2h"]), printed(file, ["connectivity.offline=lognormal(40m, 2h)"]))
        try expectEqual(printed(file, ["connectivity.online.mean=90m"]), printed(file, ["connectivity.online=exponential(90m)"]))
        // Two arguments in turn, both kept.
        #expect(try printed(file, ["connectivity.offline.median=3m", "connectivity.offline.p99=1h"])
                == printed(file, ["connectivity.offline=lognormal(3m, 1h)"]))
    }

    /// A key the file does not write is reached through its default.
    @Test func anArgumentOfADefault() throws {
        let resolved = ScenarioPrinter.entries(try ScenarioLoader.parse(text: minimalScenario, file: "t.yaml"))
        guard case .mapping(let connectivity)? = resolved.first(where: { $0.key == "connectivity" })?.value,
              case .scalar(let online)? = connectivity.first(where: { $0.key == "online" })?.value,
              online.hasPrefix("exponential(") else { return }
        #expect(try printed(minimalScenario, ["connectivity.online.mean=2h"])
                == printed(minimalScenario, ["connectivity.online=exponential(2h)"]))
    }

    /// One key of one item of a list, by its place; the other items stay.
    @Test func aKeyOfAListItem() throws {
        let expected = try printed(file, ["connectivity.windows=[{start: 8h, end: 9h, every: 1d}, {start: 17h, end: 19h, every: 1d}]"])
        try expectEqual(printed(file, ["connectivity.windows.1.end=19h"]), expected)
    }

    /// In a segment, through its name.
    @Test func anArgumentInASegment() throws {
        let segmented = file + "\nsegments:\n  - {name: a, share: 1/2, connectivity: {offline: exponential(1h)}}\n  - {name: b, share: 1/2}\n"
        #expect(try printed(segmented, ["segments.a.connectivity.offline.mean=2h"])
                == printed(segmented, ["segments.a.connectivity.offline=exponential(2h)"]))
    }

    @Test(arguments: [
        ("connectivity.offline.mean=3m", "--set:1:22", "whose arguments are `median`, `p99`, not `mean`"),
        ("connectivity.offline.median=3m, 4m", "--set:1:22", "expected one value for the argument `median`"),
        ("connectivity.windows.5.end=1h", "--set:1:22", "has 2 items (0 to 1), so no item 5"),
        ("connectivity.windows.0.stop=1h", "--set:1:24", "has no key `stop`"),
        ("connectivity.windows.x=1h", "--set:1:22", "name one item by its place"),
    ])
    func badPathsAreLocated(_ argument: String, _ location: String, _ message: String) {
        #expect {
            _ = try printed(file, [argument])
        } throws: { error in
            guard let error = error as? ScenarioError else { return false }
            return error.description.contains(location) && error.message.contains(message)
        }
    }

    /// The value is checked as the file's would be: a bad duration is refused, with the key's message.
    @Test func theNewValueIsChecked() {
        #expect(throws: ScenarioError.self) { try printed(file, ["connectivity.offline.median=soon"]) }
    }
}
