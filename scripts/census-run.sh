#!/usr/bin/env bash
# Runs the shards of `census wall --size SIZE` one after another on this machine, into
# results/wall/census/SIZE/shards/K, and (COMMIT=1) commits each finished shard's four files
# (summary.csv, distribution.csv, mismatches.csv, manifest.json) and the times file as soon as
# it is done, so that a run outlives the working session: running the same command again
# skips the finished shards and continues an interrupted one from its checkpoint (--resume).
# When every shard is done it prints the `merge` command (it does not merge by itself).
# Usage: scripts/census-run.sh SIZE N
# Env: SPRAGUE  binary (default target/release/sprague; copy it elsewhere first if you keep
#               building in this checkout while the run goes on)
#      THREADS  threads per shard (default 2)     NICE  nice level (default 19)
#      COMMIT=1 commit each finished shard (only its own files, with `git commit -- PATHS`)
# Appends "K wall_s user_s sys_s max_rss_kib" per finished shard to .../shards/times.tsv (GNU
# time; a resumed shard's row has its last run). A failed run leaves no row: its exit status and
# times go to stderr, and the script stops with the shard's exit status.
set -euo pipefail
# field, finished (a copy of this script needs lib/ beside it).
source "$(dirname "${BASH_SOURCE[0]}")/lib/shard.sh"
cd "$(dirname "$0")/.."
size=${1:?usage: scripts/census-run.sh SIZE N}
n=${2:?usage: scripts/census-run.sh SIZE N}
size=${size,,}
[[ $size =~ ^[0-9]+x[0-9]+$ ]] || { echo "error: SIZE must be HxW, e.g. 6x7, not '$size'" >&2; exit 2; }
[[ $n =~ ^[1-9][0-9]*$ ]] || { echo "error: N must be a positive number of shards, not '$n'" >&2; exit 2; }
bin=${SPRAGUE:-target/release/sprague}
[[ -x $bin ]] || { echo "error: no executable sprague at $bin (set SPRAGUE)" >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "error: needs GNU time at /usr/bin/time" >&2; exit 2; }
out=results/wall/census/$size/shards
times=$out/times.tsv
mkdir -p "$out"
[[ -f $times ]] || printf 'shard\twall_s\tuser_s\tsys_s\tmax_rss_kib\n' >"$times"
run_times=$(mktemp)
trap 'rm -f "$run_times"' EXIT

# Commits the given paths alone (other staged changes stay staged); retries while another
# git command holds the index.
commit() {
  local message=$1
  shift
  for _ in $(seq 1 30); do
    if git add -- "$@" && git commit -q -m "$message" -- "$@"; then
      return 0
    fi
    sleep 10
  done
  echo "warning: could not commit $*" >&2
}

for k in $(seq 1 "$n"); do
  dir=$out/$k
  files=("$dir/summary.csv" "$dir/distribution.csv" "$dir/mismatches.csv" "$dir/manifest.json")
  if finished "$dir" "$size" "$k/$n" "move it away first"; then
    echo "shard $k/$n: finished earlier"
  else
    resume=
    [[ -f $dir/checkpoint.json ]] && resume=--resume
    echo "shard $k/$n: started $(date -u +%FT%TZ) $resume"
    status=0
    /usr/bin/time -f "$k	%e	%U	%S	%M" -o "$run_times" \
      nice -n "${NICE:-19}" "$bin" census wall --size "$size" --shard "$k/$n" \
      --threads "${THREADS:-2}" --quiet --out "$dir" ${resume:+"$resume"} || status=$?
    if [[ $status != 0 ]]; then
      # GNU time's "Command exited with non-zero status" and the row of the failed run.
      cat "$run_times" >&2
      echo "shard $k/$n: FAILED (exit $status) $(date -u +%FT%TZ); run the same command again to continue" >&2
      exit "$status"
    fi
    cat "$run_times" >>"$times"
    echo "shard $k/$n: finished $(date -u +%FT%TZ): $(tail -1 "$times")"
  fi
  if [[ ${COMMIT:-0} == 1 && -n $(git status --porcelain -- "${files[@]}" "$times") ]]; then
    took=$(awk -v k="$k" '$1 == k { line = sprintf("%s s wall, %.1f s CPU", $2, $3 + $4) } END { print line }' "$times")
    commit "census $size: shard $k/$n (${took:-time not recorded})" "${files[@]}" "$times"
  fi
done
dirs=$(for k in $(seq 1 "$n"); do printf ' %s/%s' "$out" "$k"; done)
echo "all $n shards finished; merge with:"
echo "  sprague merge$dirs --out results/wall/census/$size"
