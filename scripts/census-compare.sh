#!/usr/bin/env bash
# Runs `census wall --size HxW` for every size up to MAX with this checkout's release build
# and with another sprague binary (e.g. one built from an older commit), and compares
# summary.csv, distribution.csv and mismatches.csv byte for byte. With OTHER=committed the
# 6x6 files are compared with results/wall/census instead (the committed run) and the other
# sizes are skipped. Prints one line per size and the two engines' CPU seconds; exit 0 when
# every file is identical, 1 otherwise.
# Usage: scripts/census-compare.sh OTHER_BINARY|committed [MAX] [SKIP]
#   e.g. git worktree add /tmp/old e307b7e && (cd /tmp/old && cargo build --release)
#        scripts/census-compare.sh /tmp/old/target/release/sprague 6x6 6x6
# SKIP (a size, e.g. 6x6) is left out, for a size the committed run already covers.
set -euo pipefail
cd "$(dirname "$0")/.."
other=${1:?usage: scripts/census-compare.sh OTHER_BINARY|committed [MAX] [SKIP]}
max=${2:-5x5}
skip=${3:-}
cargo build --release --quiet
new=$PWD/target/release/sprague
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# Runs a census into $dir/NAME and prints its user+system CPU seconds.
cpu() {
  local bin=$1 size=$2 name=$3
  /usr/bin/time -f "%U %S" -o "$dir/$name.time" nice -n 19 "$bin" census wall --size "$size" --quiet --out "$dir/$name" >>"$dir/log" 2>&1
  awk '{ print $1 + $2 }' "$dir/$name.time"
}

same() {
  local a=$1 b=$2
  for file in summary.csv distribution.csv mismatches.csv; do
    cmp -s "$a/$file" "$b/$file" || { echo "differs: $file"; return 1; }
  done
}

status=0
if [[ $other == committed ]]; then
  printf '6x6 new %ss: ' "$(cpu "$new" 6x6 new)"
  same "$dir/new" results/wall/census && echo identical || status=1
  exit $status
fi
rows=${max%x*}
cols=${max#*x}
for h in $(seq 1 "$rows"); do
  for w in $(seq 1 "$cols"); do
    size=${h}x$w
    [[ $size == "$skip" ]] && continue
    new_cpu=$(cpu "$new" "$size" "new-$size")
    old_cpu=$(cpu "$other" "$size" "old-$size")
    printf '%-4s new %6.2fs old %6.2fs: ' "$size" "$new_cpu" "$old_cpu"
    same "$dir/new-$size" "$dir/old-$size" && echo identical || status=1
  done
done
exit $status
