#!/bin/bash
# Submits a sharded pushsim run to Slurm: an array of N shard tasks, then a merge that runs only
# when every task succeeded (and is cancelled, not left waiting, when one failed).
#
# Usage: bash docs/cluster/slurm/submit.sh SCENARIO [N]        (N defaults to 16)
#   from the folder where logs/, parts/ and results/ should go (a shared file system).
#   PUSHSIM=/path/to/pushsim to use a binary that is not on PATH;
#   PUSHSIM_ARGS='--set apns.expiration=1h --seed 7' to pass the same overrides to every shard.
set -euo pipefail
SCENARIO=${1:?usage: submit.sh SCENARIO [N]}
N=${2:-16}
NAME=$(basename "$SCENARIO" .yaml)
HERE=$(cd "$(dirname "$0")" && pwd)
PUSHSIM=${PUSHSIM:-pushsim}

# Slurm opens a task's --output file before the task starts: the folders must exist first.
mkdir -p logs parts "results/$NAME"
rm -f parts/part-*.json

array=$(sbatch --parsable --array="0-$((N - 1))" --export="ALL,N=$N,SCENARIO=$SCENARIO,PUSHSIM=$PUSHSIM" \
  "$HERE/shard.sbatch")
array=${array%%;*}   # --parsable prints "id" or "id;cluster"
merge=$(sbatch --parsable --job-name="pushsim-merge-$NAME" --dependency="afterok:$array" --kill-on-invalid-dep=yes \
  --output="logs/merge-%j.log" \
  --wrap="$PUSHSIM merge parts/part-*.json --out results/$NAME > results/$NAME.json")
echo "shards: job $array (array 0-$((N - 1))), merge: job $merge -> results/$NAME.json"
