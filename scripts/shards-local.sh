#!/usr/bin/env bash
# Shows on one machine what the cluster scripts rely on: N shards of `census wall`, each run as
# its own process, merged with `sprague merge`, give byte-identical summary.csv,
# distribution.csv and mismatches.csv to one unsharded run. Prints times and peak memory.
# Usage: scripts/shards-local.sh [SIZE] [N] [DIR]   (default 5x5, 8 shards, a temporary DIR)
# Env: JOBS = shard processes at a time (default nproc), THREADS = threads per shard (default 1),
#      SPRAGUE = a built binary to use (default: cargo build --release, then target/release/sprague).
set -euo pipefail
cd "$(dirname "$0")/.."
size=${1:-5x5}
size=${size,,}
[[ $size =~ ^[0-9]+x[0-9]+$ ]] || { echo "error: SIZE must be HxW, e.g. 5x6, not '$1'" >&2; exit 2; }
n=${2:-8}
dir=${3:-}
jobs=${JOBS:-$(nproc)}
threads=${THREADS:-1}
if [[ -n ${SPRAGUE:-} ]]; then
  bin=$(realpath "$SPRAGUE")
else
  cargo build --release --quiet
  bin=$PWD/target/release/sprague
fi
if [[ -z $dir ]]; then
  dir=$(mktemp -d)
  trap 'rm -rf "$dir"' EXIT
fi
mkdir -p "$dir/shards"

# Runs "$@" with its output in $dir/log, appending "NAME wall_seconds peak_RSS_KiB" to
# $dir/times (GNU time when present, else whole seconds and no memory).
timed() {
  local name=$1
  shift
  if [[ -x /usr/bin/time ]]; then
    /usr/bin/time -f "$name %e %M" -a -o "$dir/times" "$@" >>"$dir/log" 2>&1 || { cat "$dir/log" >&2; return 1; }
  else
    local start=$SECONDS
    "$@" >>"$dir/log" 2>&1 || { cat "$dir/log" >&2; return 1; }
    echo "$name $((SECONDS - start)) ?" >>"$dir/times"
  fi
}
export -f timed
export dir bin size n threads

: >"$dir/times"
: >"$dir/log"
start=$(date +%s.%N)
# One process per shard, $jobs at a time; any failing shard fails the script.
seq 1 "$n" | xargs -P "$jobs" -I{} bash -c \
  'timed "shard-{}/$n" "$bin" census wall --size "$size" --shard "{}/$n" --threads "$threads" --quiet --out "$dir/shards/{}"'
shards_end=$(date +%s.%N)
shard_dirs=()
for k in $(seq 1 "$n"); do shard_dirs+=("$dir/shards/$k"); done
timed merge "$bin" merge ${shard_dirs[@]+"${shard_dirs[@]}"} --out "$dir/merged"
timed whole "$bin" census wall --size "$size" --threads "$threads" --quiet --out "$dir/whole"

status=0
for file in summary.csv distribution.csv mismatches.csv; do
  if cmp "$dir/merged/$file" "$dir/whole/$file"; then
    echo "identical: $file ($(wc -l <"$dir/whole/$file") lines)"
  else
    status=1
  fi
done

awk -v n="$n" -v jobs="$jobs" -v threads="$threads" -v size="$size" -v span="$(awk -v a="$start" -v b="$shards_end" 'BEGIN { print b - a }')" '
  /^shard-/ { s += $2; if ($3 > m) m = $3; next }
  { t[$1] = $2; r[$1] = $3 }
  END {
    printf "census wall --size %s: %d shards (%d at a time, %d thread(s) each): %.2f s wall, %.2f s summed, max shard RSS %.0f MiB\n", size, n, jobs, threads, span, s, m / 1024
    printf "merge: %.2f s, %.0f MiB; one unsharded run: %.2f s, %.0f MiB\n", t["merge"], r["merge"] / 1024, t["whole"], r["whole"] / 1024
  }' "$dir/times"
patterns=$(awk -F, 'NR > 1 { n += $5 } END { print n }' "$dir/whole/summary.csv")
echo "patterns: $patterns"
[[ $status -eq 0 ]] && echo "OK: $n shards merged are byte-identical to one run" || echo "MISMATCH between merged shards and one run"
exit $status
