#!/usr/bin/env bash
# The Slurm path on a real scheduler (CI runs this after the tests): installs Debian's
# slurm-wlm and munge when missing, starts munged, slurmctld and slurmd for one node on this
# machine (a minimal slurm.conf in a temporary directory, ports 16817/16818), submits the
# census of SIZE as array jobs with scripts/slurm-census.sh (one task per shard; MaxArraySize
# is set to N - 2, at least 4, so that the shards are split over two or more array jobs as for
# N above 1000 on a default cluster), cancels one task mid-run (scancel), resubmits with the
# SIZE in upper case (finished shards skipped, the cancelled one resumed
# from its checkpoint), waits for the merge and compares summary.csv, distribution.csv and
# mismatches.csv with a plain local run byte for byte. Stops the daemons it started, also
# on failure. Skips (exit 0, loudly) only when not root or without apt-get.
# Usage: scripts/slurm-test.sh [SIZE] [N]   (default 4x5, 8 shards; needs target/release/sprague)
set -euo pipefail
cd "$(dirname "$0")/.."
size=${1:-4x5} n=${2:-8}
size=${size,,}
[[ $n =~ ^[0-9]+$ && $n -ge 4 ]] || { echo "error: N must be at least 4 (shard 3 is cancelled; two array jobs)" >&2; exit 2; }
# Array indices stay below MaxArraySize: chunks of max_array - 1 shards, shard 3 in the first.
max_array=$((n - 2 > 4 ? n - 2 : 4))
skip() { echo "################ SKIPPED: slurm-test.sh: $* ################" >&2; exit 0; }
[[ $(id -u) == 0 ]] || skip "needs root to install and start slurmctld, slurmd and munged"
command -v apt-get >/dev/null || skip "needs apt-get to install slurm-wlm and munge"
sprague=$PWD/target/release/sprague
[[ -x $sprague ]] || { echo "error: build $sprague first (cargo build --release)" >&2; exit 2; }
start=$SECONDS
if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
  echo "slurm-test: installing slurm-wlm and munge"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends slurm-wlm munge >/dev/null
fi
installed=$SECONDS

dir=$(mktemp -d /tmp/slurm-test.XXXXXX)
chmod 755 "$dir"
pids=()
cleanup() {
  local status=$?
  for pid in ${pids[@]+"${pids[@]}"}; do kill "$pid" 2>/dev/null || true; done
  for pid in ${pids[@]+"${pids[@]}"}; do while kill -0 "$pid" 2>/dev/null; do sleep 0.2; done; done
  if [[ $status != 0 ]]; then
    echo "slurm-test: FAILED; logs:" >&2
    tail -n 20 "$dir"/*.log "$dir"/out/logs/* 2>/dev/null >&2 || true
  fi
  rm -rf "$dir"
}
trap cleanup EXIT

# munged: reuse a running one, else start ours.
if ! munge -n </dev/null >/dev/null 2>&1; then
  mkdir -p /run/munge && chown munge:munge /run/munge
  [[ -f /etc/munge/munge.key ]] || { mungekey --create --keyfile /etc/munge/munge.key && chown munge:munge /etc/munge/munge.key; }
  runuser -u munge -- /usr/sbin/munged --pid-file "/run/munge/munged.pid"
  pids+=("$(cat /run/munge/munged.pid)")
fi

host=$(hostname -s)
mkdir -p "$dir/state" "$dir/spool"
cat >"$dir/slurm.conf" <<EOF
ClusterName=sprague-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=root
AuthType=auth/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
SchedulerParameters=sched_min_interval=100000
MaxArraySize=$max_array
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=$(awk '/MemTotal/ { print int($2 / 1024 * 0.8) }' /proc/meminfo) State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$dir/slurm.conf
slurmctld -f "$SLURM_CONF"
for _ in $(seq 50); do [[ -s $dir/slurmctld.pid ]] && break; sleep 0.2; done
pids+=("$(cat "$dir/slurmctld.pid")")
slurmd -f "$SLURM_CONF"
for _ in $(seq 50); do [[ -s $dir/slurmd.pid ]] && break; sleep 0.2; done
pids+=("$(cat "$dir/slurmd.pid")")
for _ in $(seq 100); do sinfo -h -o %T 2>/dev/null | grep -q idle && break; sleep 0.3; done
sinfo -h -o %T | grep -q idle || { echo "slurm-test: the node never became idle" >&2; exit 1; }
echo "slurm-test: slurmctld and slurmd up ($((SECONDS - installed)) s)"

# Shard 3's first run is slowed (a checkpoint every block of 1024 patterns, 100 ms each) so
# that it is cancelled mid-run; every other run is the plain binary.
cat >"$dir/sprague" <<EOF
#!/usr/bin/env bash
if [[ " \$* " == *" --shard 3/$n "* && ! -e $dir/slowed ]]; then
  touch $dir/slowed
  exec $sprague "\$@" --block-patterns 1024 --block-delay-ms 100 --checkpoint-secs 0
fi
exec $sprague "\$@"
EOF
chmod +x "$dir/sprague"
submit() { SPRAGUE=$dir/sprague CPUS=1 MEM=500M TIME=00:10:00 scripts/slurm-census.sh "$1" "$n" "$dir/out"; }
# Waits until `squeue` lists no job but the one given (none: "-").
wait_jobs() {
  for _ in $(seq 600); do
    [[ -z $(squeue -h -o %i | grep -v -x -- "$1" || true) ]] && return 0
    sleep 0.5
  done
  echo "slurm-test: jobs did not finish: $(squeue -h)" >&2
  return 1
}

first=$(submit "$size")
echo "$first"
arrays=$(grep -o 'array of shards' <<<"$first" | wc -l)
[[ $arrays == $(((n + max_array - 2) / (max_array - 1))) && $arrays -ge 2 ]] \
  || { echo "slurm-test: expected the $n shards in array jobs of at most $((max_array - 1)) (MaxArraySize=$max_array), got: $first" >&2; exit 1; }
array=$(sed -n 's/^submitted shards: job \([0-9]*\).*/\1/p' <<<"$first")
merge=$(sed -n 's/.*merge: job \([0-9]*\).*/\1/p' <<<"$first")
for _ in $(seq 300); do [[ -f $dir/out/shards/3/checkpoint.json ]] && break; sleep 0.2; done
[[ -f $dir/out/shards/3/checkpoint.json ]] || { echo "slurm-test: shard 3 never checkpointed" >&2; exit 1; }
scancel "${array}_3"
echo "slurm-test: cancelled task ${array}_3 mid-run"
# The other tasks finish; the merge waits on a dependency that can no longer be satisfied.
wait_jobs "$merge"
[[ ! -f $dir/out/shards/3/manifest.json && -f $dir/out/shards/3/checkpoint.json ]] || { echo "slurm-test: shard 3 was not left unfinished" >&2; exit 1; }
[[ ! -e $dir/out/merged ]] || { echo "slurm-test: merged without shard 3" >&2; exit 1; }
scancel "$merge" 2>/dev/null || true
wait_jobs -

echo "$(submit "${size^^}")"
wait_jobs -
grep -q "already finished" "$dir/out/logs/shard-1.out" || { echo "slurm-test: shard 1 was not skipped on resubmission" >&2; exit 1; }
offset=$(((n - 1) / (max_array - 1) * (max_array - 1)))
last=$offset+$((n - offset))
grep -q "already finished" "$dir/out/logs/shard-$last.out" || { echo "slurm-test: shard $n (log shard-$last.out) was not skipped on resubmission" >&2; exit 1; }
grep -q -- '"--resume"' "$dir/out/shards/3/manifest.json" || { echo "slurm-test: shard 3 was not resumed from its checkpoint" >&2; exit 1; }
"$sprague" census wall --size "$size" --quiet --out "$dir/local" 2>/dev/null
for file in summary.csv distribution.csv mismatches.csv; do
  cmp "$dir/out/merged/$file" "$dir/local/$file"
done
echo "slurm-test: OK: $size in $n Slurm array tasks ($arrays array jobs; one task cancelled mid-run and resubmitted) merged byte-identical to one local run"
echo "slurm-test: $((installed - start)) s installing, $((SECONDS - installed)) s with the scheduler"
