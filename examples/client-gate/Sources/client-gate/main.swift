// `pushsim` with the team's own gap logic deciding: every command and option of pushsim
// (`run`, `check`, `check --all`, `trace`, …), the extension's decisions made by MailGapClient.
//
//   swift run -c release client-gate check --all              # in a folder with scenarios/ and results/
//   CLIENT_GATE_BUG=off-by-one swift run client-gate check …   # the seeded bug: check must fail
import Foundation
import MailGapClient
import PushSimClient
import PushSimClientRunner

let bug = ProcessInfo.processInfo.environment["CLIENT_GATE_BUG"] ?? ""
guard bug.isEmpty || bug == "off-by-one" else {
    FileHandle.standardError.write(Data("client-gate: CLIENT_GATE_BUG=\(bug): expected off-by-one or nothing\n".utf8))
    exit(2)
}
let client = MailGapClient(gapOffByOne: bug == "off-by-one")
exit(PushSim.main(Array(CommandLine.arguments.dropFirst()), client: client,
                  name: bug.isEmpty ? "MailGapClient" : "MailGapClient with the off-by-one gap"))
