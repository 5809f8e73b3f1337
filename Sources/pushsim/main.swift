// pushsim: the command line. Everything it does lives in PushSimCLI, where tests can reach it.
import Foundation
import PushSimCLI

// Before anything opens a descriptor: closed standard streams must not be taken by the
// signal pipe or a result file. Then the handlers, so every command, from its first step
// (reading a scenario or a mail trace), stops on SIGINT or SIGTERM with 130 or 143.
StandardStreams.occupy()
Interruption.shared.install()
let status = PushSimTool.main(Array(CommandLine.arguments.dropFirst()), console: .process())
exit(status)
