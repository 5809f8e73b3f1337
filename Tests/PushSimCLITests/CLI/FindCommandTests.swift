// End-to-end tests of `pushsim find`: the listing, the trace command it suggests, usage errors.
import Foundation
import Testing
@testable import PushSimScenarioFile
@testable import PushSimExperiment
@testable import PushSimCLI
@testable import PushSimCore
import PushSimTestSupport

@Suite struct FindCommandTests {
    func run(_ arguments: [String]) -> (status: Int32, out: String, err: String) { RunCommandTests().run(arguments) }

    @Test func listsLettersAndSuggestsATraceThatFindsTheSameLetter() throws {
        let dir = TemporaryDirectory()
        let file = dir.write("find.yaml", FateFinderFixture.text)
        let (status, out, _) = run(["find", file, "--fate", "lost:network_loss", "--queue", "off", "--limit", "2", "--set", "apns.latency=50ms"])
        expectEqual(status, 0)
        #expect(out.contains("lost:network_loss"))
        let traceLine = try #require(out.split(separator: "\n").last { $0.hasPrefix("# trace the first: ") })
        #expect(traceLine.contains("--set apns.latency=50ms") && traceLine.contains("--queue off"))
        // The suggested trace, run as printed, closes with that letter lost the same way.
        let words = traceLine.dropFirst("# trace the first: pushsim ".count).split(separator: " ").map(String.init)
        let trace = run(words)
        expectEqual(trace.status, 0)
        let first = try #require(out.split(separator: "\n").first { $0.contains("lost:network_loss") && !$0.hasPrefix("#") })
        let letter = first.split(separator: " ", omittingEmptySubsequences: true)[1]
        #expect(trace.out.contains("  \(letter) ") && trace.out.contains("lost (network_loss)"))
    }

    @Test func jsonCountsMatchTheRun() throws {
        let dir = TemporaryDirectory()
        let file = dir.write("find.yaml", FateFinderFixture.text)
        let (status, out, _) = run(["find", file, "--fate", "lost", "--queue", "on", "--json", "--limit", "1"])
        expectEqual(status, 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
        let scenario = try ScenarioLoader.parse(text: FateFinderFixture.text, file: "find.yaml")
        expectEqual(object["letters_matching"] as? Int, Simulator.run(scenario).arms[1].ledger.lost)
        expectEqual((object["letters"] as? [Any])?.count, 1)
    }

    @Test func badFatesAndArmsAreUsageErrors() {
        let dir = TemporaryDirectory()
        let file = dir.write("find.yaml", FateFinderFixture.text)
        expectEqual(run(["find", file]).status, 2)
        let bad = run(["find", file, "--fate", "lost:apns_replace"])
        #expect(bad.status == 2 && bad.err.contains("lost:apns_replaced"))
        expectEqual(run(["find", file, "--fate", "lost:undetected_gap", "--queue", "off"]).status, 2)
        expectEqual(FindCommand.shellQuoted("connectivity.windows=[{start: 8h}]"), "'connectivity.windows=[{start: 8h}]'")
    }
}
