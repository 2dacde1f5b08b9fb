#!/usr/bin/env bash
# Times `sprague verify wall --max SIZE` (release build, --quiet, all cores) and prints wall
# seconds and peak memory per size. Usage: scripts/bench-verify.sh [SIZE...] (default 5x5 5x6)
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("$@")
[[ ${#sizes[@]} -gt 0 ]] || sizes=(5x5 5x6)
cargo build --release --quiet
bin=target/release/sprague
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# Wall seconds and peak RSS in KiB of the last run: /usr/bin/time when present, else the manifest.
measure() {
  local out=$1
  shift
  if [[ -x /usr/bin/time ]]; then
    /usr/bin/time -f "%e %M" -o "$dir/time" "$@"
    cat "$dir/time"
  else
    "$@"
    awk -F'[:,]' '/"wall_seconds"/ { s = $2 } /"peak_memory_bytes"/ { m = int($2 / 1024) } END { print s + 0, m }' \
      "$out/manifest.json"
  fi
}

for size in "${sizes[@]}"; do
  out="$dir/$size"
  read -r secs kib < <(measure "$out" "$bin" verify wall --max "$size" --quiet --out "$out")
  patterns=$(awk -F, 'NR > 1 { n += $5 } END { print n }' "$out/summary.csv")
  mismatches=$(awk -F, 'NR > 1 { n += $6 } END { print n }' "$out/summary.csv")
  printf 'verify wall --max %-4s %11s patterns, %s mismatches, threads %s: %7.2f s, peak RSS %6.0f MiB\n' \
    "$size" "$patterns" "$mismatches" "$(nproc)" "$secs" "$(awk -v k="$kib" 'BEGIN { print k / 1024 }')"
done
