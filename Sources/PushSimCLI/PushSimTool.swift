// The command line's entry: finds the command, runs it, turns errors into messages and exit codes.
import Foundation
import PushSimExperiment
import PushSimScenarioFile
import PushSimReport

package enum PushSimTool {
    /// The subcommands, in the order help lists them.
    package static let commands: [CommandSpec] = [
        RunCommand.spec, ValidateCommand.spec,
        SweepCommand.spec,
        OptimizeCommand.spec,
        CalibrateCommand.spec,
        CapacityCommand.spec,
        TraceCommand.spec,
        FindCommand.spec,
        CheckCommand.spec,
        ABCommand.spec,
        MergeCommand.spec,
        ReportCommand.spec,
        BenchCommand.spec,
    ]

    package static let help = """
    pushsim — a deterministic simulator of mail push notifications (XIVA → APNs → iOS).

    Usage: pushsim <command> [options]

    Commands:
    \(commands.map { "  " + $0.name.padding(toLength: 10, withPad: " ", startingAt: 0) + $0.summary }.joined(separator: "\n"))

    Example:
      pushsim run scenarios/quickstart.yaml
      pushsim run scenarios/commuters.yaml --json --set queue.repeat_max_count=5

    `pushsim <command> --help` (or `pushsim help <command>`) shows a command's options;
    `pushsim --version` the version, the commit it was built from and the Swift toolchain.

    Exit status:
    \(ExitStatus.helpLines.joined(separator: "\n"))
    """

    /// Runs the command line `arguments` (without the program name) and returns the exit status.
    package static func main(_ arguments: [String], console: Console) -> Int32 {
        WriterTestHooks.install()
        SpeedGateSpin.install(environment: ProcessInfo.processInfo.environment)
        if arguments == ["--version"] || arguments == ["version"] {
            console.out(PushSimVersion.description)
            return finish("", status: ExitStatus.success.code, console: console)
        }
        if arguments.first == "help", arguments.count == 2, let command = commands.first(where: { $0.name == arguments[1] }) {
            // `pushsim help run` is `pushsim run --help`.
            console.out(command.help + "\n")
            return finish("help", status: ExitStatus.success.code, console: console)
        }
        if arguments.first == "help", arguments.count > 1, !["help", "--help", "-h"].contains(arguments[1]) || arguments.count > 2 {
            // `pushsim help nosuch` (or `help run extra`) printed the general help, status 0.
            let asked = arguments[1]
            guard arguments.count == 2 else {
                console.err("pushsim help: expected one command, got \(arguments.count - 1): \(arguments.dropFirst().map { TerminalText.sanitized($0) }.joined(separator: " "))\n\n\(help)\n")
                return ExitStatus.badInput.code
            }
            let hint = Suggestion.typo(of: asked, among: commands.map(\.name)).map { " (did you mean '\($0)'?)" } ?? ""
            console.err("pushsim help: unknown command '\(TerminalText.sanitized(asked))'\(hint)\n\n\(help)\n")
            return ExitStatus.badInput.code
        }
        guard let name = arguments.first, name != "--help", name != "-h", name != "help" else {
            console.out(help + "\n")
            return finish("", status: arguments.isEmpty ? ExitStatus.badInput.code : ExitStatus.success.code,
                          console: console)
        }
        guard let command = commands.first(where: { $0.name == name }) else {
            let hint = Suggestion.typo(of: name, among: commands.map(\.name)).map { " (did you mean '\($0)'?)" } ?? ""
            console.err("pushsim: unknown command '\(name)'\(hint)\n\n\(help)\n")
            return ExitStatus.badInput.code
        }
        let rest = Array(arguments.dropFirst())
        if rest.contains("--help") || rest.contains("-h") {
            console.out(command.help + "\n")
            return finish(name, status: ExitStatus.success.code, console: console)
        }
        // Until the command names its task: an interruption while it reads its input (a
        // scenario, a mail trace, a FIFO that never opens) says which command stopped.
        Interruption.shared.begin("pushsim \(name)", total: 0, unit: "", consequence: "nothing was written")
        var status: Int32
        do {
            status = try HTMLReport.$commandLine.withValue(commandLine(arguments)) {
                let arguments = try Arguments(rest, declared: command.options)
                return try ClientBudget.counting(arguments, options: command.options) { try command.run(arguments, console) }
            }
        } catch {
            let failure = InputError(error)
            console.err(failure.text(command: command))
            status = failure.exitStatus
        }
        // A user's client that broke a rule of its protocol fails the command, whatever it
        // found; the writer refused every file since (docs/client.md).
        if status != ExitStatus.badInput.code, let refusal = clientRuleRefusal() {
            console.err(InputError.refused(refusal).text(command: command))
            status = ExitStatus.badInput.code
        }
        return finish(name, status: status, console: console)
    }

    /// Why nothing may be written: the user's client broke a rule of its protocol.
    static func clientRuleRefusal() -> String? { ResultsWriter.refusal() }

    /// The command as a shell would take it back, for report.html's "How this was made".
    static func commandLine(_ arguments: [String]) -> String {
        (["pushsim"] + arguments.map { argument in
            let plain = !argument.isEmpty && argument.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "-_./=,:%+@".unicodeScalars.contains($0)
            }
            return plain ? argument : "'" + argument.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }).joined(separator: " ")
    }

    /// A command whose output could not be written has not done its job, whatever it returned
    /// (help too: `pushsim help run > /dev/full` printed nothing): say so (the shell's file is
    /// incomplete) and end with status 2.
    static func finish(_ name: String, status: Int32, console: Console) -> Int32 {
        guard let failure = console.outputFailure else { return status }
        let command = name.isEmpty ? "pushsim" : "pushsim \(name)"
        console.err("\(command): cannot write to standard output: \(failure); the output is incomplete\n")
        return ExitStatus.badInput.code
    }
}
