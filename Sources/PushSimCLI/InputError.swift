// The one error type for what a user gave a command: its message, how it is shown, its exit status.
import PushSimReport

/// Why a command could not do its job with what it was given: the command line, a scenario, a
/// file, work beyond the machine. Every command throws it (or an error of the library, which
/// ``init(_:)`` turns into it); `PushSimTool.main` alone prints it and returns its exit status.
struct InputError: Error, CustomStringConvertible {
    /// How the message reaches standard error.
    enum Presentation: Equatable {
        /// The command line itself: the message, the command's synopsis, and where its help is.
        case usage
        /// A file, a value or a refusal: `pushsim COMMAND: message`.
        case command
        /// A message that names its own place (`file:line:column: …`): as it is.
        case located
    }

    var message: String
    var presentation: Presentation
    /// Bad input or usage is 2 (docs/errors.md); nothing was written.
    var exitStatus: Int32 = ExitStatus.badInput.code

    var description: String { message }

    /// A command line that cannot be used.
    static func usage(_ message: String) -> InputError { InputError(message: message, presentation: .usage) }
    /// Input the command cannot use, or work it refuses before starting.
    static func refused(_ message: String) -> InputError { InputError(message: message, presentation: .command) }

    private init(message: String, presentation: Presentation) {
        self.message = message
        self.presentation = presentation
    }

    /// Any error a command lets out, as the user sees it: the one place where the library's
    /// errors meet exit statuses.
    init(_ error: any Error) {
        switch error {
        case let error as InputError: self = error
        case let error as PartialResultError: self = .refused(error.message)
        case let error as CheckInputError: self = .refused(error.description)
        // ScenarioError names file:line:column itself; ResultsWriteError and the rest say
        // what they could not read or write in a whole sentence.
        default: self.init(message: "\(error)", presentation: .located)
        }
    }

    /// The text for standard error when `command` failed with this error.
    func text(command: CommandSpec) -> String {
        switch presentation {
        case .usage:
            // The message, the synopsis, and where the rest is: the whole help would bury
            // the message under forty lines.
            return "pushsim \(command.name): \(message)\n\(command.synopsis)\nSee 'pushsim \(command.name) --help'.\n"
        case .command: return "pushsim \(command.name): \(message)\n"
        case .located: return message + "\n"
        }
    }
}
