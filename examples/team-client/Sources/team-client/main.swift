// `pushsim` with the team's extension deciding (docs/client.md, "Protocol version 2").
// TEAM_CLIENT_BUG=forgets-joined-gaps runs a seeded bug: a batch asks only for its first gap.
// TEAM_CLIENT_SUMMARIZE_ABOVE=N changes the summary threshold (20), as a team's next release might.
// PushSim's built-in clients stay reachable by name, so `team-client ab FILE --a client=intended
// --b client=TeamGapClient` compares the two on the same worlds (compare.sh); the release before
// the app's catch-up is `client=TeamGapClient-1.3`, the next one, whose app also catches up when a
// background push wakes it (`queue.background_pushes`), `client=TeamGapClient-1.5`.
import Foundation
import PushSimClient
import PushSimClientRunner
import TeamGapClient

let environment = ProcessInfo.processInfo.environment
let bug = environment["TEAM_CLIENT_BUG"] == "forgets-joined-gaps"
let threshold = environment["TEAM_CLIENT_SUMMARIZE_ABOVE"].flatMap { Int($0) }
let version = (bug ? "1.4+bug" : "1.4") + (threshold.map { "+summarize-above-\($0)" } ?? "")
let client = NamedClient(TeamGapClient(summarizeAbove: threshold ?? 20, forgetsJoinedGaps: bug), name: "TeamGapClient", version: version)
let previous = NamedClient(TeamGapClient(catchUpOnOpen: false), name: "TeamGapClient-1.3", version: "1.3")
let next = NamedClient(TeamGapClient(catchUpOnBackgroundPush: true), name: "TeamGapClient-1.5", version: "1.5")
exit(PushSim.main(Array(CommandLine.arguments.dropFirst()), clients: [client, previous, next]))
