// Every error a command lets out reaches the user through InputError: its text and exit status.
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
@testable import PushSimExperiment
@testable import PushSimReport
@testable import PushSimCLI
import PushSimTestSupport

@Suite struct InputErrorTests {
    let run = PushSimTool.commands[0]

    @Test func usageErrorsShowTheSynopsisAndWhereTheHelpIs() {
        let error = InputError.usage("missing the scenario FILE")
        expectEqual(error.exitStatus, ExitStatus.badInput.code)
        #expect(error.text(command: run) == "pushsim run: missing the scenario FILE\n\(run.synopsis)\nSee 'pushsim run --help'.\n")
    }

    @Test func theLibrarysErrorsAreMappedInOnePlace() {
        let scenario = ScenarioError(location: SourceLocation(file: "a.yaml", line: 3, column: 7), message: "expected a duration")
        let located = InputError(scenario)
        expectEqual(located.presentation, .located)
        expectEqual(located.exitStatus, ExitStatus.badInput.code)
        #expect(located.text(command: run) == "\(scenario)\n" && located.message.hasPrefix("a.yaml:3:7"))
        expectEqual(InputError(PartialResultError("p.json: not a partial result")).text(command: run), "pushsim run: p.json: not a partial result\n")
        expectEqual(InputError(CheckInputError("x: no such folder")).text(command: run), "pushsim run: x: no such folder\n")
        // An InputError passes through unchanged.
        expectEqual(InputError(InputError.refused("too big")).text(command: run), "pushsim run: too big\n")
    }

    @Test func aRefusalEndsTheCommandWithStatusTwo() {
        let dir = TemporaryDirectory()
        let file = dir.write("small.yaml", smallScenarioText)
        let (status, out, err) = runPushsim(["run", file, "--no-write", "--max-events", "1"])
        #expect(status == ExitStatus.badInput.code && out.isEmpty)
        #expect(err.hasPrefix("pushsim run: refusing to run"))
    }
}
