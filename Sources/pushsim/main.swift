// pushsim: the command line. Everything it does lives in PushSimCLI, where tests can reach it.
import Foundation
import PushSimCLI

let status = PushSimTool.main(Array(CommandLine.arguments.dropFirst()), console: .process())
exit(status)
