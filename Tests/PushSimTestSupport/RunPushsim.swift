// The one helper that runs a `pushsim` command in-process and captures its exit status and output.
@testable import PushSimCLI

/// Runs `pushsim ARGS` in-process with `console` (by default one that captures both streams)
/// and returns the exit status and what the command printed on each stream.
package func runPushsim(_ arguments: [String], console: Console = .capturing()) -> (status: Int32, out: String, err: String) {
    let status = PushSimTool.main(arguments, console: console)
    return (status, console.standardOutput, console.standardError)
}
