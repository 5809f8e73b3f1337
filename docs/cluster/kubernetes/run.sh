#!/bin/bash
# Runs a scenario sharded on Kubernetes: the volume, the shards' Indexed Job, then the merge Job;
# waits for each (with a timeout) and prints the merged run's JSON.
#
# Usage: bash docs/cluster/kubernetes/run.sh SCENARIO [N]      (N defaults to 16)
#   SCENARIO is a path inside the image (the Dockerfile copies scenarios/ to /scenarios), such as
#   /scenarios/commuters.yaml. IMAGE=registry.example/pushsim:2.0.0 names the image (see
#   docs/cluster/Dockerfile); SHARD_TIMEOUT and MERGE_TIMEOUT bound the waits (default 2h, 15m).
set -euo pipefail
SCENARIO=${1:?usage: run.sh SCENARIO [N]}
N=${2:-16}
NAME=$(basename "$SCENARIO" .yaml)
IMAGE=${IMAGE:-registry.example/pushsim:2.0.0}
HERE=$(cd "$(dirname "$0")" && pwd)

render() {
  sed -e "s|{{N}}|$N|g" -e "s|{{NAME}}|$NAME|g" -e "s|{{SCENARIO}}|$SCENARIO|g" -e "s|{{IMAGE}}|$IMAGE|g" "$HERE/$1"
}

kubectl apply -f "$HERE/pvc.yaml"
# A Job's pod template cannot be changed: start from a clean slate for this scenario.
kubectl delete job "pushsim-$NAME" "pushsim-$NAME-merge" --ignore-not-found
render shards.yaml | kubectl apply -f -
kubectl wait --for=condition=complete --timeout="${SHARD_TIMEOUT:-2h}" "job/pushsim-$NAME"
render merge.yaml | kubectl apply -f -
kubectl wait --for=condition=complete --timeout="${MERGE_TIMEOUT:-15m}" "job/pushsim-$NAME-merge"
kubectl logs "job/pushsim-$NAME-merge"
