#!/usr/bin/env bash
# A/B on the same worlds: PushSim's built-in intended client (A) against the team's client (B),
# on the same scenario, seed and devices — only the extension's decisions differ. A is run as a
# baseline with its counts per device (`check --update` into a temporary folder), then B is
# checked against it: every metric paired device by device (common random numbers), with its
# interval and a verdict in `check`'s words (here "WORSE" means B is worse than A). Prints the
# table and exits 0 whatever B's verdict; 2 when the comparison could not run. Run after
# `swift build -c release --product team-client`; the scenario is the first argument.
set -euo pipefail
cd "$(dirname "$0")"
gate="$(swift build -c release --show-bin-path)/team-client"
scenario=${1:-pushsim/scenarios/team.yaml}
ab=$(mktemp -d)
trap 'rm -rf "$ab"' EXIT
TEAM_CLIENT=built-in "$gate" check "$scenario" --results "$ab" --update > /dev/null 2>&1 ||
  { echo "compare: the built-in client's run of $scenario failed" >&2; exit 2; }
echo "A/B on the same worlds: A = PushSim's built-in intended client, B = TeamGapClient (the table's \"baseline\" is A, \"now\" is B)"
status=0
"$gate" check "$scenario" --results "$ab" 2> /dev/null || status=$?
case $status in
  0|1) exit 0 ;;
  *) echo "compare: the comparison could not run (status $status)" >&2; exit 2 ;;
esac
