// `pushsim` with the team's extension deciding (docs/client.md, "Protocol version 2").
// TEAM_CLIENT_BUG=forgets-joined-gaps runs a seeded bug: a batch asks only for its first gap.
// TEAM_CLIENT=built-in runs PushSim's intended client instead, through the same protocol, for a
// comparison on the same worlds (compare.sh).
import Foundation
import PushSimClient
import PushSimClientRunner
import TeamGapClient

let environment = ProcessInfo.processInfo.environment
let arguments = Array(CommandLine.arguments.dropFirst())
if environment["TEAM_CLIENT"] == "built-in" {
    exit(PushSim.main(arguments, client: BuiltInServiceExtensionClient.intended, name: "built-in intended"))
}
let bug = environment["TEAM_CLIENT_BUG"] == "forgets-joined-gaps"
let client = TeamGapClient(forgetsJoinedGaps: bug)
exit(PushSim.main(arguments, client: client, name: "TeamGapClient", version: bug ? "1.3+bug" : "1.3"))
