#!/usr/bin/env bash
# Times `sprague census wall --size SIZE` (release build, --quiet, all cores) and prints wall
# and CPU seconds, core-ns per board (CPU time / 2^cells) and peak memory per size; with
# --shard K/N only that shard is run (core-ns per board then counts the shard's 2^cells/N).
# Usage: scripts/bench-census.sh [--shard K/N] [SIZE...]   (default 6x6 5x7; needs GNU time)
set -euo pipefail
cd "$(dirname "$0")/.."
shard=()
if [[ ${1:-} == --shard ]]; then
  shard=(--shard "$2")
  shift 2
fi
sizes=("$@")
[[ ${#sizes[@]} -gt 0 ]] || sizes=(6x6 5x7)
cargo build --release --quiet
bin=target/release/sprague
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
parts=1
[[ ${#shard[@]} -gt 0 ]] && parts=${shard[1]#*/}
for size in "${sizes[@]}"; do
  /usr/bin/time -f "%e %U %S %M" -o "$dir/time" "$bin" census wall --size "$size" "${shard[@]}" --quiet --out "$dir/$size" >/dev/null 2>&1
  read -r secs user sys kib <"$dir/time"
  cells=$(( ${size%x*} * ${size#*x} ))
  awk -v size="$size" -v shard="${shard[*]:-}" -v s="$secs" -v u="$user" -v y="$sys" -v k="$kib" -v c="$cells" -v p="$parts" -v t="$(nproc)" 'BEGIN {
    boards = 2 ^ c / p
    printf "census wall --size %-4s %s %15.0f boards, threads %s: %7.2f s wall, %7.2f s CPU, %.3f core-ns/board, peak RSS %6.0f MiB\n",
      size, shard, boards, t, s, u + y, (u + y) * 1e9 / boards, k / 1024 }'
done
