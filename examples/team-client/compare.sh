#!/usr/bin/env bash
# The team's client beside PushSim's built-in intended client, on the same worlds (the same
# scenario, seed and devices; only the extension's decisions differ): delivery, summaries and
# XIVA's load in the queue arm. Run after `swift build -c release --product team-client`.
set -euo pipefail
cd "$(dirname "$0")"
gate="$(swift build -c release --show-bin-path)/team-client"
scenario=${1:-pushsim/scenarios/team.yaml}
team=$("$gate" run "$scenario" --json --no-write 2> /dev/null)
builtin=$(TEAM_CLIENT=built-in "$gate" run "$scenario" --json --no-write 2> /dev/null)
python3 - "$team" "$builtin" <<'PY'
import json, sys
team, builtin = (next(r for r in json.loads(doc)["runs"] if r["queue"] == "on") for doc in sys.argv[1:3])
rows = [("letters", "letters"), ("delivered", "delivered"), ("lost", "lost"), ("summarized (letters)", "summarized"),
        ("summaries", "summaries"), ("duplicates", "duplicates"), ("re-requests to XIVA", "re_requests"),
        ("pushes re-sent", "resent"), ("latency p50 (s)", ("latency_s", "p50")), ("latency p99 (s)", ("latency_s", "p99"))]
def get(run, key):
    return run[key[0]][key[1]] if isinstance(key, tuple) else run[key]
print(f"{'queue arm':24}{'TeamGapClient':>16}{'built-in intended':>20}")
for label, key in rows:
    a, b = get(team, key), get(builtin, key)
    fmt = (lambda v: f"{v:,.3f}") if isinstance(a, float) else (lambda v: f"{v:,}")
    print(f"{label:24}{fmt(a):>16}{fmt(b):>20}")
PY
