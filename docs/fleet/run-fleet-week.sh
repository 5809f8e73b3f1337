#!/bin/bash
# The fleet week on one machine: docs/fleet/fleet-week.yaml's 100 shards (one XIVA partition
# of 80 000 phones each), two at a time, each timed, then merged into the run's result.
#
# Usage: bash docs/fleet/run-fleet-week.sh [WORK_DIR]      (WORK_DIR defaults to fleet-week-run)
#   PUSHSIM=.build/release/pushsim   the binary (default: pushsim on PATH); build it in release
#   PARALLEL=2                       shards at once (each runs on one thread, --jobs 1)
#   SHARDS=100                       at most the scenario's xiva.partitions
#   SCENARIO=docs/fleet/fleet-week.yaml
#   PUSHSIM_ARGS='--set devices=800000'   the same overrides for every shard (a smaller trial)
#
# Writes WORK_DIR/parts/part-K.json (each written under a temporary name and renamed when
# whole), WORK_DIR/logs/shard-K.log (its progress) and shard-K.time (`/usr/bin/time -v`),
# then WORK_DIR/fleet-week.json (the merged run, the very bytes `pushsim run` would print) and
# WORK_DIR/fleet-week/ (summary.json, summary.md, load.csv, load.svg, xiva-queue.csv/.svg).
# A part already in WORK_DIR/parts/ is not run again, so an interrupted run resumes where it
# stopped (with the same PUSHSIM, SCENARIO and PUSHSIM_ARGS: merge refuses parts that differ).
# Prints the shards' CPU seconds, wall time and peak memory, and the merge's.
# Exit 0 when every shard and the merge succeeded; 1 when one failed (the merge is not run).
set -euo pipefail
WORK=${1:-fleet-week-run}
PUSHSIM=${PUSHSIM:-pushsim}
PARALLEL=${PARALLEL:-2}
SHARDS=${SHARDS:-100}
SCENARIO=${SCENARIO:-$(cd "$(dirname "$0")" && pwd)/fleet-week.yaml}
NAME=$(basename "$SCENARIO" .yaml)
TIMER=()
if [ -x /usr/bin/time ]; then TIMER=(/usr/bin/time -v); fi

mkdir -p "$WORK/parts" "$WORK/logs"
export PUSHSIM SCENARIO SHARDS WORK
export PUSHSIM_ARGS=${PUSHSIM_ARGS:-}
export TIMER_COMMAND=${TIMER[*]:-}

# One shard: its part under a temporary name, renamed when whole; its timing beside its log.
shard() {
  local k=$1 part="$WORK/parts/part-$1.json"
  [ -s "$part" ] && return 0
  # shellcheck disable=SC2086  # TIMER_COMMAND and PUSHSIM_ARGS are word lists
  if $TIMER_COMMAND ${TIMER_COMMAND:+-o "$WORK/logs/shard-$k.time"} \
       "$PUSHSIM" run "$SCENARIO" --shard "$k/$SHARDS" --json --jobs 1 $PUSHSIM_ARGS \
       > "$part.partial" 2> "$WORK/logs/shard-$k.log"; then
    mv "$part.partial" "$part"
  else
    echo "shard $k/$SHARDS failed: see $WORK/logs/shard-$k.log" >&2
    rm -f "$part.partial"
    return 1
  fi
}
export -f shard

SECONDS=0
status=0
seq 0 $((SHARDS - 1)) | xargs -P "$PARALLEL" -I{} bash -c 'shard {}' || status=$?
shards_wall=$SECONDS
if [ "$status" != 0 ]; then
  echo "not every shard succeeded (xargs exit $status): nothing merged; run the script again to retry the missing ones" >&2
  exit 1
fi

parts=()
for k in $(seq 0 $((SHARDS - 1))); do parts+=("$WORK/parts/part-$k.json"); done
# shellcheck disable=SC2086
$TIMER_COMMAND ${TIMER_COMMAND:+-o "$WORK/logs/merge.time"} \
  "$PUSHSIM" merge "${parts[@]}" --out "$WORK/$NAME" > "$WORK/$NAME.json"

# The totals, from each shard's `/usr/bin/time -v` (this run's shards; a resumed run's earlier
# ones too, as long as their timing files are there).
if [ -n "$TIMER_COMMAND" ]; then
  awk -F': ' '
    /User time/ { user += $2 } /System time/ { sys += $2 }
    /Maximum resident set size/ { if ($2 > peak) peak = $2; n++ }
    /Elapsed \(wall clock\)/ { m = split($2, t, ":"); s = 0; for (i = 1; i <= m; i++) s = s * 60 + t[i]; if (s > slowest) slowest = s }
    END { printf "shards timed: %d; CPU %.1f s user + %.1f s system = %.1f s (%.1f min on two free cores); slowest shard %.1f s wall; peak memory of a shard %.0f MB\n",
                 n, user, sys, user + sys, (user + sys) / 120, slowest, peak / 1000 }' "$WORK"/logs/shard-*.time
  awk -F': ' '/User time/ { u = $2 } /System time/ { s = $2 } /Maximum resident set size/ { m = $2 }
    /Elapsed \(wall clock\)/ { w = $2 }
    END { printf "merge: %.1f s CPU, %s wall, %.0f MB\n", u + s, w, m / 1000 }' "$WORK/logs/merge.time"
fi
printf 'shards: %d s wall for this run (%d at a time); merged run: %s, files: %s/\n' \
  "$shards_wall" "$PARALLEL" "$WORK/$NAME.json" "$WORK/$NAME"
