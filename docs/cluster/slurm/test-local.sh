#!/usr/bin/env bash
# The Slurm recipe (submit.sh, shard.sbatch) on a real single-node Slurm, as docs/distributed.md
# tells a user to run it: brings up munged, slurmctld and slurmd from Debian's packages in a
# temporary folder, submits an array of shards and the merge with submit.sh, and checks
#   1. the merged result equals a single `pushsim run` byte for byte (the JSON, and every file
#      merge --out writes: summary.json, summary.md, load.csv, load.svg), and
#   2. a failed shard cancels the merge: no merge log, no merged result.
# Every daemon it started is stopped on exit, whatever the outcome; its files live only in the
# temporary folder.
#
# Usage (as root, from anywhere; the release build must exist):
#   swift build -c release --product pushsim
#   bash docs/cluster/slurm/test-local.sh
# Environment:
#   PUSHSIM        the binary to test (default: .build/release/pushsim of this checkout)
#   SCENARIO       a bundled scenario (default: scenarios/quickstart.yaml); SHARDS (default: 4)
#   SLURM_TEST_TIMEOUT  seconds allowed for each wait: Slurm coming up, each submission's jobs (default: 120)
#   SLURM_TEST_INSTALL_TIMEOUT  seconds allowed for apt-get update, and again for apt-get install (default: 600)
#   SLURM_TEST_KEEP=1   keep the temporary folder (its path is printed)
#   SLURM_TEST_INSTALL_ONLY=1  only install the packages if absent, then exit 0 (no build needed;
#                       .ci/run does this at its start, beside the builds)
#
# Exit status: 0 both checks passed; 1 the recipe misbehaved on a running Slurm (a check failed,
# or its jobs did not finish in time); 2 usage (no release build, a bad argument);
# 3 Slurm could not be brought up here (not root, packages not installable, a daemon would not
# start) — the message says which, and nothing about the recipe was learned.
set -euo pipefail

readonly EXIT_CHECK=1 EXIT_USAGE=2 EXIT_NO_SLURM=3
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
PUSHSIM=${PUSHSIM:-$ROOT/.build/release/pushsim}
SCENARIO=${SCENARIO:-scenarios/quickstart.yaml}
SHARDS=${SHARDS:-4}
TIMEOUT=${SLURM_TEST_TIMEOUT:-120}
INSTALL_TIMEOUT=${SLURM_TEST_INSTALL_TIMEOUT:-600}
NAME=$(basename "$SCENARIO" .yaml)
START=$SECONDS

say() { printf '[%3ds] %s\n' "$((SECONDS - START))" "$*"; }
fail() { say "FAIL: $*" >&2; exit "$EXIT_CHECK"; }
no_slurm() { say "CANNOT BRING UP SLURM: $*" >&2; say "(nothing about the recipe was tested; exit $EXIT_NO_SLURM)" >&2; exit "$EXIT_NO_SLURM"; }
usage() { say "usage: $*" >&2; exit "$EXIT_USAGE"; }

case $SHARDS in ''|*[!0-9]*|0) usage "SHARDS must be a positive integer, got '$SHARDS'" ;; esac
case $TIMEOUT in ''|*[!0-9]*|0) usage "SLURM_TEST_TIMEOUT must be a positive number of seconds, got '$TIMEOUT'" ;; esac
case $INSTALL_TIMEOUT in ''|*[!0-9]*|0) usage "SLURM_TEST_INSTALL_TIMEOUT must be a positive number of seconds, got '$INSTALL_TIMEOUT'" ;; esac
INSTALL_ONLY=${SLURM_TEST_INSTALL_ONLY:-0}
[ "$INSTALL_ONLY" = 1 ] || [ -x "$PUSHSIM" ] || usage "no pushsim binary at $PUSHSIM: build it first (swift build -c release --product pushsim) or set PUSHSIM"
[ "$INSTALL_ONLY" = 1 ] || PUSHSIM=$(cd "$(dirname "$PUSHSIM")" && pwd)/$(basename "$PUSHSIM")
[ -f "$ROOT/$SCENARIO" ] || usage "no scenario $ROOT/$SCENARIO"

# ---------------------------------------------------------------------------------------------
# The teardown, on any exit: cancel this run's jobs, stop the daemons it started (slurmd,
# slurmctld, munged), kill anything they left, remove the temporary folder (and the policy-rc.d
# this script may have put in place for apt-get).
# ---------------------------------------------------------------------------------------------
WORK=""; TAG=""; policy=""
daemons=()                           # "name:pid", in the order started
submitted=()                         # job ids, to cancel on the way out

teardown() {
  local status=$?
  set +e
  trap - EXIT INT TERM
  [ -z "$policy" ] || rm -f "$policy"; policy=""
  if [ ${#submitted[@]} -gt 0 ] && [ -n "$(squeue -h -j "$(IFS=,; echo "${submitted[*]}")" 2> /dev/null)" ]; then
    say "cancelling jobs still queued or running: ${submitted[*]}"
    scancel "${submitted[@]}" 2> /dev/null
    for _ in $(seq 1 20); do [ -z "$(squeue -h -j "$(IFS=,; echo "${submitted[*]}")" 2> /dev/null)" ] && break; sleep 0.5; done
  fi
  if [ "$status" != 0 ] && [ -n "$WORK" ]; then show_logs; fi
  local i entry pid
  for ((i = ${#daemons[@]} - 1; i >= 0; i--)); do   # slurmd, slurmctld, then munged
    entry=${daemons[$i]}; pid=${entry#*:}
    kill -TERM "$pid" 2> /dev/null || continue
    for _ in $(seq 1 40); do kill -0 "$pid" 2> /dev/null || break; sleep 0.25; done
    if kill -0 "$pid" 2> /dev/null; then say "${entry%%:*} (pid $pid) ignored SIGTERM: killed"; kill -KILL "$pid" 2> /dev/null; fi
    wait "$pid" 2> /dev/null
  done
  # Anything a daemon left behind (a slurmstepd of a cancelled job) carries the tag.
  local left=() p
  if [ -n "$TAG" ]; then
    for p in /proc/[0-9]*; do
      grep -qzxF "$TAG" "$p/environ" 2> /dev/null && left+=("${p#/proc/}")
    done
  fi
  if [ ${#left[@]} -gt 0 ]; then
    say "killing processes left by the daemons: ${left[*]}"; kill -KILL "${left[@]}" 2> /dev/null
  fi
  if [ ${#daemons[@]} -gt 0 ]; then say "stopped ${#daemons[@]} daemons (munged, slurmctld, slurmd as started); nothing of this run is left running"; fi
  if [ -n "$WORK" ]; then
    if [ "${SLURM_TEST_KEEP:-0}" = 1 ]; then say "kept $WORK"; else rm -rf "$WORK"; fi
  fi
  exit "$status"
}
trap teardown EXIT
trap 'say "interrupted (SIGINT): stopping everything"; exit 130' INT
trap 'say "terminated (SIGTERM): stopping everything"; exit 143' TERM

show_logs() {  # the last lines of every daemon's log, on standard error
  local f
  for f in "$WORK"/*.log; do [ -f "$f" ] && { echo "--- ${f#"$WORK"/} (last lines)"; tail -n 15 "$f"; }; done >&2
}

# ---------------------------------------------------------------------------------------------
# 1. The packages: Debian's munge and slurm-wlm (slurmctld, slurmd, slurm-client).
# ---------------------------------------------------------------------------------------------
[ "$(id -u)" = 0 ] || no_slurm "this script must run as root (it installs packages and slurmd runs jobs as their users)"

TOOLS=(munged mungekey munge unmunge slurmctld slurmd sbatch squeue scontrol sinfo scancel)
missing=()
for tool in "${TOOLS[@]}"; do command -v "$tool" > /dev/null || missing+=("$tool"); done
if [ ${#missing[@]} -gt 0 ]; then
  say "not installed: ${missing[*]}; installing munge slurmctld slurmd slurm-client with apt-get"
  command -v apt-get > /dev/null || no_slurm "no apt-get to install the packages (a Debian-like system is needed)"
  # Debian's maintainer scripts start a package's service when installed; nothing must start
  # behind this script's back, so a policy-rc.d that denies it is put in place for the install
  # (unless one is there already) and removed after.
  policy=""
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    policy=/usr/sbin/policy-rc.d
    printf '#!/bin/sh\n# put here by PushSim docs/cluster/slurm/test-local.sh during apt-get install\nexit 101\n' > "$policy"
    chmod 755 "$policy"
  fi
  installed=0
  # Bounded: each apt-get step as a whole, each download, and the wait for dpkg's lock (another
  # install running, e.g. unattended-upgrades on a machine just booted).
  apt=(env DEBIAN_FRONTEND=noninteractive timeout "$INSTALL_TIMEOUT" apt-get -q -o Acquire::http::Timeout=30
       -o DPkg::Lock::Timeout=120)
  if "${apt[@]}" update < /dev/null &&
     "${apt[@]}" install -y --no-install-recommends munge slurmctld slurmd slurm-client < /dev/null; then
    installed=1
  fi
  [ -z "$policy" ] || rm -f "$policy"; policy=""
  [ $installed = 1 ] ||
    no_slurm "apt-get could not install munge slurmctld slurmd slurm-client within ${INSTALL_TIMEOUT}s each for update and install (see its messages above)"
  for tool in "${TOOLS[@]}"; do command -v "$tool" > /dev/null || no_slurm "$tool is still missing after apt-get install"; done
fi
say "$(slurmctld -V), $(munged --version 2>&1 | awk '{print $1}')"
if [ "$INSTALL_ONLY" = 1 ]; then say "the packages are installed (SLURM_TEST_INSTALL_ONLY=1: nothing else done)"; exit 0; fi

# ---------------------------------------------------------------------------------------------
# 2. A temporary folder for everything.
# ---------------------------------------------------------------------------------------------
WORK=$(mktemp -d /tmp/pushsim-slurm.XXXXXX)
chmod 755 "$WORK"   # munged requires every user to be able to reach its socket's folder
export SLURM_CONF=$WORK/slurm.conf   # for sbatch, squeue, scontrol, sinfo, scancel and submit.sh
TAG="PUSHSIM_SLURM_TEST=$WORK"       # in every daemon's environment, and so in slurmstepd's

started() {   # name pid: remembers a daemon, for the teardown
  daemons+=("$1:$2")
}

# Waits up to TIMEOUT seconds for a command to succeed.
wait_for() {  # what command…
  local what=$1; shift
  local deadline=$((SECONDS + TIMEOUT))
  until "$@" > /dev/null 2>&1; do
    [ $SECONDS -lt $deadline ] || return 1
    sleep 0.5
  done
}

# ---------------------------------------------------------------------------------------------
# 3. munged, with a key of its own and its socket in the folder.
# ---------------------------------------------------------------------------------------------
SOCKET=$WORK/munge.socket
mungekey --create --keyfile="$WORK/munge.key" 2> "$WORK/mungekey.log" || {
  cat "$WORK/mungekey.log" >&2; no_slurm "mungekey could not create a key"; }
env "$TAG" munged --foreground --socket="$SOCKET" --key-file="$WORK/munge.key" --log-file="$WORK/munged.log" \
  --pid-file="$WORK/munged.pid" --seed-file="$WORK/munged.seed" > "$WORK/munged.out" 2>&1 &
started munged $!
munge_ok() { munge -n --socket="$SOCKET" | unmunge --socket="$SOCKET"; }
wait_for "munge" munge_ok || { no_slurm "munged did not come up within ${TIMEOUT}s"; }
say "munged up (pid ${daemons[0]#*:}), socket $SOCKET"

# ---------------------------------------------------------------------------------------------
# 4. slurm.conf: one node, this host, no systemd, no cgroups, no accounting daemon.
# ---------------------------------------------------------------------------------------------
free_port() {   # the first port from $1 on that nothing listens on
  local port=$1
  while (exec 3<> "/dev/tcp/127.0.0.1/$port") 2> /dev/null; do port=$((port + 1)); done
  echo "$port"
}
NODE=$(hostname -s) || no_slurm "hostname -s failed"
CTLD_PORT=$(free_port 16817)
SLURMD_PORT=$(free_port $((CTLD_PORT + 1)))
NODE_LINE=$(slurmd -C 2>&1 | head -1) || no_slurm "slurmd -C could not describe this node: $NODE_LINE"
# NODE_LINE: NodeName=… CPUs=… Boards=… SocketsPerBoard=… CoresPerSocket=… ThreadsPerCore=… RealMemory=…
case $NODE_LINE in "NodeName=$NODE "*) ;; *) no_slurm "slurmd -C describes '$NODE_LINE', not this host '$NODE'" ;; esac
mkdir -p "$WORK/ctld-state" "$WORK/slurmd-spool"
: > "$WORK/plugstack.conf"
cat > "$SLURM_CONF" << EOF
# Written by docs/cluster/slurm/test-local.sh for one run; removed with its folder.
ClusterName=pushsim-test
SlurmctldHost=$NODE(127.0.0.1)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$SOCKET
CredType=cred/munge
StateSaveLocation=$WORK/ctld-state
SlurmdSpoolDir=$WORK/slurmd-spool
SlurmctldPidFile=$WORK/slurmctld.pid
SlurmdPidFile=$WORK/slurmd.pid
SlurmctldLogFile=$WORK/slurmctld.log
SlurmdLogFile=$WORK/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
PlugStackConfig=$WORK/plugstack.conf
# No systemd and no cgroup hierarchy of our own: track a job's processes by their parents,
# bind nothing, gather no accounting.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/builtin
# Schedule as soon as a job ends (the default waits up to 3 s): timing only, not behaviour.
SchedulerParameters=batch_sched_delay=0
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MinJobAge=600
$NODE_LINE NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=test Nodes=$NODE Default=YES MaxTime=INFINITE State=UP
EOF
say "slurm.conf: node $NODE (${NODE_LINE#* }), slurmctld port $CTLD_PORT, slurmd port $SLURMD_PORT"

# ---------------------------------------------------------------------------------------------
# 5. slurmctld and slurmd, in the foreground of their own processes.
# ---------------------------------------------------------------------------------------------
env "$TAG" slurmctld -D -i -f "$SLURM_CONF" > "$WORK/slurmctld.out" 2>&1 &
started slurmctld $!
wait_for "slurmctld" scontrol ping || { no_slurm "slurmctld did not answer within ${TIMEOUT}s"; }
env "$TAG" slurmd -D -f "$SLURM_CONF" -N "$NODE" > "$WORK/slurmd.out" 2>&1 &
started slurmd $!
node_idle() { [ "$(sinfo -h -n "$NODE" -o %T)" = idle ]; }
wait_for "slurmd" node_idle || { no_slurm "node $NODE did not become idle within ${TIMEOUT}s (state: $(sinfo -h -n "$NODE" -o %T 2>&1))"; }
say "slurmctld and slurmd up; node $NODE idle"

# ---------------------------------------------------------------------------------------------
# The recipe, as docs/distributed.md gives it: from a folder holding the scenario, with PUSHSIM
# pointing at the binary, `bash docs/cluster/slurm/submit.sh SCENARIO N`. The folder is a copy
# (submit.sh writes logs/, parts/ and results/ where it runs, and results/ is committed here).
# ---------------------------------------------------------------------------------------------
prepare() {  # folder
  mkdir -p "$1/docs/cluster" "$1/$(dirname "$SCENARIO")"
  cp -R "$ROOT/docs/cluster/slurm" "$1/docs/cluster/"
  cp "$ROOT/$SCENARIO" "$1/$SCENARIO"
}
submit() {  # folder [VAR=VALUE…]: runs submit.sh there; sets ARRAY and MERGE
  local dir=$1; shift
  local out
  out=$(cd "$dir" && env "$@" PUSHSIM="${SUBMIT_PUSHSIM:-$PUSHSIM}" bash docs/cluster/slurm/submit.sh "$SCENARIO" "$SHARDS") ||
    fail "submit.sh failed: $out"
  say "submit.sh: $out"
  ARRAY=$(sed -n 's/^shards: job \([0-9]*\) .*/\1/p' <<< "$out")
  MERGE=$(sed -n 's/.*merge: job \([0-9]*\) .*/\1/p' <<< "$out")
  [ -n "$ARRAY" ] && [ -n "$MERGE" ] || fail "cannot read the job ids from submit.sh's output"
  submitted+=("$ARRAY" "$MERGE")
}
settled() { [ -z "$(squeue -h -j "$ARRAY,$MERGE")" ]; }
job_field() {  # job field
  scontrol -o show job "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"
}
await() {  # what
  local began=$SECONDS
  wait_for "$1" settled || { squeue -j "$ARRAY,$MERGE" >&2; fail "$1: the jobs were not done within ${TIMEOUT}s"; }
  say "$1: jobs $ARRAY and $MERGE left the queue after $((SECONDS - began))s"
  local k
  for ((k = 0; k < SHARDS; k++)); do
    echo "    array task ${ARRAY}_$k: $(job_field "${ARRAY}_$k" JobState) (exit $(job_field "${ARRAY}_$k" ExitCode))"
  done
  echo "    merge $MERGE: $(job_field "$MERGE" JobState) (reason $(job_field "$MERGE" Reason), exit $(job_field "$MERGE" ExitCode))"
}

# ---------------------------------------------------------------------------------------------
# Check 1: N shards merged equal one run.
# ---------------------------------------------------------------------------------------------
# report.html with the contents of its "command" cell removed (the only part of the page that
# names how it was made rather than what was simulated).
without_command() { sed -E 's#(<th scope="row">command</th><td><code[^>]*>)[^<]*(</code>)#\1\2#' "$1"; }
same_but_command() { cmp -s <(without_command "$1") <(without_command "$2"); }
say "check 1: $SHARDS shards of $SCENARIO through submit.sh, merged, against a single pushsim run"
OK=$WORK/recipe
prepare "$OK"
submit "$OK"
await "check 1"
for ((k = 0; k < SHARDS; k++)); do
  [ "$(job_field "${ARRAY}_$k" JobState)" = COMPLETED ] ||
    { cat "$OK"/logs/* >&2 2> /dev/null; fail "array task ${ARRAY}_$k is $(job_field "${ARRAY}_$k" JobState)"; }
done
[ "$(job_field "$MERGE" JobState)" = COMPLETED ] || { cat "$OK"/logs/merge-* >&2 2> /dev/null; fail "the merge is $(job_field "$MERGE" JobState)"; }
(cd "$OK" && ls parts/) | tr '\n' ' ' | sed 's/^/    parts: /'; echo
SINGLE=$WORK/single
mkdir -p "$SINGLE"
(cd "$OK" && "$PUSHSIM" run "$SCENARIO" --json --no-write > "$SINGLE/$NAME.json" 2> "$SINGLE/run.log" &&
  "$PUSHSIM" run "$SCENARIO" --out "$SINGLE/$NAME" > /dev/null 2>> "$SINGLE/run.log") ||
  { cat "$SINGLE/run.log" >&2; fail "the single pushsim run of $SCENARIO failed"; }
echo "    single run: pushsim run $SCENARIO --json --no-write, and --out $NAME"
# The JSON merge prints against run --json's; every file merge --out wrote (summary.json and
# summary.md at least) against the file of the same name run --out wrote.
[ -s "$OK/results/$NAME/summary.json" ] && [ -s "$OK/results/$NAME/summary.md" ] ||
  fail "the merge wrote no results/$NAME/summary.json and summary.md"
files=("$NAME.json")
for f in "$OK/results/$NAME"/*; do files+=("$NAME/${f##*/}"); done
for file in "${files[@]}"; do
  merged=$OK/results/$file; single=$SINGLE/$file
  [ -s "$merged" ] || fail "the merge wrote no results/$file"
  [ -f "$single" ] || fail "the merge wrote results/$file, which pushsim run --out does not write"
  if [ "${file##*/}" = report.html ]; then
    # The page names the command that made it (pushsim merge … here, pushsim run … there): that
    # one cell is left out of the comparison, and everything else must be the same bytes.
    same_but_command "$merged" "$single" ||
      { diff <(without_command "$merged") <(without_command "$single") | head -20 >&2; fail "results/$file differs from the single run's beyond the command that made it"; }
    echo "    results/$file: $(wc -c < "$merged") bytes, identical to pushsim run's but for the command it names"
    continue
  fi
  cmp -s "$merged" "$single" || { diff "$merged" "$single" | head -20 >&2; fail "results/$file differs from the single run's"; }
  echo "    results/$file: $(wc -c < "$merged") bytes, identical to pushsim run's ($(cksum < "$merged" | cut -d' ' -f1))"
done
say "check 1 passed: the merged result is byte-identical to a single run"

# ---------------------------------------------------------------------------------------------
# Check 2: one shard fails (the PUSHSIM the recipe passes to every task is a wrapper that fails
# task 1 only); the merge must be cancelled, not run and not left pending.
# ---------------------------------------------------------------------------------------------
FAILING=1
[ "$SHARDS" -gt 1 ] || FAILING=0
say "check 2: the same submission with shard $FAILING of $SHARDS failing"
BAD=$WORK/failing
prepare "$BAD"
cat > "$BAD/pushsim-failing-one-shard" << EOF
#!/bin/bash
# Every shard but $FAILING runs the real pushsim; shard $FAILING fails, as a task on a broken node would.
if [ "\${SLURM_ARRAY_TASK_ID:-}" = $FAILING ]; then echo "test-local.sh: shard $FAILING made to fail" >&2; exit 1; fi
exec "$PUSHSIM" "\$@"
EOF
chmod 755 "$BAD/pushsim-failing-one-shard"
SUBMIT_PUSHSIM=$BAD/pushsim-failing-one-shard submit "$BAD"
await "check 2"
task_state=$(job_field "${ARRAY}_$FAILING" JobState)
[ "$task_state" = FAILED ] || fail "array task $FAILING should have FAILED, is '$task_state'"
merge_state=$(job_field "$MERGE" JobState)
[ "$merge_state" = CANCELLED ] || fail "the merge should be CANCELLED when a shard failed, is $merge_state"
[ ! -e "$BAD/results/$NAME.json" ] || fail "the merge wrote results/$NAME.json although a shard failed"
[ -z "$(ls "$BAD/results/$NAME" 2> /dev/null)" ] || fail "the merge wrote into results/$NAME although a shard failed"
! ls "$BAD"/logs/merge-* > /dev/null 2>&1 || fail "the merge ran (it has a log) although a shard failed"
[ ! -e "$BAD/parts/part-$FAILING.json" ] || fail "the failed shard left a part that looks whole"
echo "    no merge log, no results/$NAME.json, no parts/part-$FAILING.json; $(cd "$BAD" && ls parts/ | tr '\n' ' ')"
say "check 2 passed: the failed shard cancelled the merge ($(job_field "$MERGE" Reason))"

say "PASS: the Slurm recipe on a real Slurm in $((SECONDS - START))s"
