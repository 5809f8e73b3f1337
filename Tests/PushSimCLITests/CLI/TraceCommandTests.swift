// End-to-end tests of `pushsim trace`: the window, the SVG, usage errors.
import Foundation
import Testing
@testable import PushSimCLI
@testable import PushSimCore
import PushSimTestSupport

@Suite struct TraceCommandTests {
    @Test func theWindowKeepsOnlyEventsBetweenFromAndTo() throws {
        let input = try TemporaryScenario(TraceFixture.text)
        defer { input.cleanUp() }
        let console = Console.capturing()
        expectEqual(PushSimTool.main(["trace", input.path, "--device", "0", "--from", "11h59m", "--to", "12h1s"], console: console), 0)
        let lines = console.standardOutput.split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(!lines.isEmpty)
        let events = lines.prefix { !$0.contains("end of run") }
        #expect(events.allSatisfy { $0.hasPrefix("d0 11:59") || $0.hasPrefix("d0 12:00") })
        #expect(console.standardOutput.contains("d0 12:00:00.000  h12  device        online"))
    }

    @Test func svgIsWrittenAndWellFormed() throws {
        let input = try TemporaryScenario(TraceFixture.text)
        defer { input.cleanUp() }
        let svg = input.directory.appendingPathComponent("trace.svg").path
        let console = Console.capturing()
        expectEqual(PushSimTool.main(["trace", input.path, "--device", "0", "--svg", svg], console: console), 0)
        let text = try String(contentsOfFile: svg, encoding: .utf8)
        let probe = try #require(SVGProbe.parse(text))
        #expect(probe.root == "svg" && probe.circles > 20)
        #expect(text.contains("class=\"offline\"") && text.contains("class=\"push\""))
    }

    @Test func badTraceArgumentsExitWithStatusTwo() throws {
        let input = try TemporaryScenario(TraceFixture.text)
        defer { input.cleanUp() }
        for arguments in [[], ["--device", "1"], ["--device", "0", "--queue", "maybe"], ["--device", "0", "--from", "soon"],
                          ["--device", "0", "--from", "2h", "--to", "1h"]] {
            let console = Console.capturing()
            expectEqual(PushSimTool.main(["trace", input.path] + arguments, console: console), 2, "\(arguments)")
        }
    }
}
