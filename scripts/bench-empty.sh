#!/usr/bin/env bash
# Times the X-free wall board: `sprague table wall-empty --max NxN` for each N (default 1000
# 2000; add 4000 for the largest) and `sprague prove wall-empty --max A` (default 300),
# release build, all cores, --quiet. Prints wall and CPU seconds, peak memory and the load
# average before each run (other work on the machine slows the figures).
# Usage: scripts/bench-empty.sh [N...]   (PROVE_HEIGHT=A to change the proof, 0 to skip it)
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("$@")
[[ ${#sizes[@]} -gt 0 ]] || sizes=(1000 2000)
height=${PROVE_HEIGHT:-300}
cargo build --release --quiet
bin=target/release/sprague
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# Runs the command under /usr/bin/time; prints "wall user peak_kib".
measure() {
  /usr/bin/time -f "%e %U %M" -o "$dir/time" "$@" > /dev/null 2> "$dir/stderr"
  cat "$dir/time"
}

load() { cut -d' ' -f1 /proc/loadavg; }

for n in "${sizes[@]}"; do
  before=$(load)
  read -r secs user kib < <(measure "$bin" table wall-empty --max "${n}x${n}" --csv-max 10x10 --out-dir "$dir/t$n" -q)
  top=$(awk -F, 'NR > 1 && $2 > m { m = $2 } END { print m }' "$dir/t$n/row-max.csv")
  printf 'table wall-empty --max %5sx%-5s threads %s: %8.1f s (%8.1f s CPU), peak RSS %7.1f MiB, largest value %s, load %s\n' \
    "$n" "$n" "$(nproc)" "$secs" "$user" "$(awk -v k="$kib" 'BEGIN { print k / 1024 }')" "$top" "$before"
  rm -rf "$dir/t$n"
done

if [[ $height -gt 0 ]]; then
  before=$(load)
  read -r secs user kib < <(measure "$bin" prove wall-empty --max "$height" --out "$dir/proof" -q)
  printf 'prove wall-empty --max %s threads %s: %8.1f s (%8.1f s CPU), peak RSS %7.1f MiB, load %s\n  %s\n' \
    "$height" "$(nproc)" "$secs" "$user" "$(awk -v k="$kib" 'BEGIN { print k / 1024 }')" "$before" "$(cat "$dir/proof/verdict.txt")"
fi
