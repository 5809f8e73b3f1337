#!/usr/bin/env bash
# A/B on the same worlds: PushSim's built-in intended client (A) against the team's client (B),
# on the same scenario, seeds and devices — only the extension's decisions differ. `pushsim ab`
# runs both in one command and pairs every metric device by device (common random numbers),
# with its interval, the smallest change it could detect, and a verdict in `check`'s words
# ("WORSE" means B is worse than A). Prints the table and exits 0 whatever B's verdict; 2 when
# the comparison could not run. Run after `swift build -c release --product team-client`; the
# scenario is the first argument, further arguments go to `ab` (say `--replications 4`).
set -euo pipefail
cd "$(dirname "$0")"
gate=${EXAMPLE_GATE_BINARY:-"$(swift build -c release --show-bin-path)/team-client"}
scenario=${1:-pushsim/scenarios/team.yaml}
status=0
"$gate" ab "$scenario" --a client=intended --b client=TeamGapClient "${@:2}" 2> /dev/null || status=$?
case $status in
  0|1) exit 0 ;;
  *) echo "compare: the comparison could not run (status $status)" >&2; exit 2 ;;
esac
