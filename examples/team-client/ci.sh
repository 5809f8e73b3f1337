#!/usr/bin/env bash
# The delivery gate of a mail team's repository whose extension batches, caps and summarizes
# (docs/client.md, "The example: examples/team-client"). Steps:
#   1. build `team-client`: pushsim with the team's own logic (Sources/TeamGapClient, protocol
#      version 2), against the PushSim Package.swift names, in release;
#   2. `check --all` of pushsim/scenarios against the baselines in pushsim/results (made by the
#      team's client), with the team's margins; exit 0 ok, 1 delivery got worse, 2 bad input.
# TEAM_CLIENT_BUG=forgets-joined-gaps runs the seeded bug instead (PushSim's own CI shows it failing).
set -euo pipefail
cd "$(dirname "$0")"

# EXAMPLE_GATE_BINARY, when set, is a team-client built elsewhere, run instead of building this
# package (PushSim's own CI builds this example's sources in its release build).
if [ -n "${EXAMPLE_GATE_BINARY:-}" ]; then
  gate=$EXAMPLE_GATE_BINARY
else
  swift build -c release --product team-client
  gate="$(swift build -c release --show-bin-path)/team-client"
fi

# The margins are the team's: XIVA's load (re-requests) may not grow by more than 2 %.
status=0
"$gate" check --all pushsim/scenarios --results pushsim/results --tolerance on.re_requests=2% || status=$?
case $status in
  0) echo "team-client: delivery did not get worse" ;;
  1) echo "team-client: delivery got worse (the tables above). If the change is intended, rewrite the baselines:"
     echo "  $gate check --all pushsim/scenarios --results pushsim/results --update   # and commit pushsim/results"
     exit 1 ;;
  *) echo "team-client: the check could not run (a bad scenario, a baseline, or a client that broke a rule)"; exit 2 ;;
esac
