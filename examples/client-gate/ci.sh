#!/usr/bin/env bash
# The delivery gate of a mail client's repository, as its CI runs it (this folder plays the
# repository: docs/ci.md, "Gating your own client's repository"). Steps:
#   1. build `client-gate`: pushsim with the team's own gap logic (Sources/MailGapClient),
#      against the PushSim version Package.swift pins, in release, into .build (the cache);
#   2. `check --all` of the scenarios in pushsim/scenarios against the baselines committed in
#      pushsim/results, with the team's margins; exit 0 ok, 1 delivery got worse, 2 bad input.
# CLIENT_GATE_BUG=off-by-one runs the seeded bug instead (PushSim's own CI shows it failing).
set -euo pipefail
cd "$(dirname "$0")"

# 1. Build (cached: .build, keyed by Package.resolved and the Swift image, swift:6.3-noble).
# EXAMPLE_GATE_BINARY, when set, is a client-gate built elsewhere, run instead of building this
# package (PushSim's own CI builds this example's sources in its release build).
if [ -n "${EXAMPLE_GATE_BINARY:-}" ]; then
  gate=$EXAMPLE_GATE_BINARY
else
  swift build -c release --product client-gate
  gate="$(swift build -c release --show-bin-path)/client-gate"
fi

# 2. The gate. The margins are the team's: a re-request costs XIVA and the phone's battery, so
#    more than 2 % more of them fails; 50 ms on the median latency is what users notice.
status=0
"$gate" check --all pushsim/scenarios --results pushsim/results --tolerance on.re_requests=2% --tolerance latency_s.p50=50ms || status=$?
case $status in
  0) echo "client-gate: delivery did not get worse" ;;
  1) echo "client-gate: delivery got worse (the tables above). If the change is intended, rewrite the baselines:"
     echo "  $gate check --all pushsim/scenarios --results pushsim/results --update   # and commit pushsim/results"
     exit 1 ;;
  *) echo "client-gate: the check could not run (a bad scenario or baseline)"; exit 2 ;;
esac
