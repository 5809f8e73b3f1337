// `pushsim` with the team's extension deciding (docs/client.md, "Protocol version 2").
// TEAM_CLIENT_BUG=cap-off-by-one runs a seeded bug: the cap lets a fourth re-request a minute through.
import Foundation
import PushSimClient
import PushSimClientRunner
import TeamGapClient

let bug = ProcessInfo.processInfo.environment["TEAM_CLIENT_BUG"] == "cap-off-by-one"
let client = TeamGapClient(requestsPerMinute: bug ? 4 : 3)
exit(PushSim.main(Array(CommandLine.arguments.dropFirst()), client: client, name: "TeamGapClient", version: bug ? "1.4-bug" : "1.3"))
