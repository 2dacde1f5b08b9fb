#!/usr/bin/env bash
# Times the octal engine: `table octal 0.6` (Officers, the sparse-space method) to each N given
# (values per second, wall and CPU), and `prove octal` of Kayles (0.77) and 0.177.
# Usage: scripts/bench-octal.sh [N...]   (default 100000 1000000; needs GNU time)
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("$@")
[[ ${#sizes[@]} -gt 0 ]] || sizes=(100000 1000000)
cargo build --release --quiet
bin=target/release/sprague
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for n in "${sizes[@]}"; do
  /usr/bin/time -f "%e %U %S %M" -o "$dir/time" "$bin" table octal 0.6 --max "$n" --quiet --out "$dir/officers.csv" 2>"$dir/log"
  read -r secs user sys kib <"$dir/time"
  awk -v n="$n" -v s="$secs" -v u="$user" -v y="$sys" -v k="$kib" -v note="$(cat "$dir/log")" 'BEGIN {
    printf "table octal 0.6 --max %-10s %8.2f s wall, %8.2f s CPU, %10.0f values/s (CPU), peak RSS %5.0f MiB\n  %s\n",
      n, s, u + y, (n + 1) / (u + y > 0 ? u + y : 0.001), k / 1024, note }'
done
for code in 0.77 0.177; do
  /usr/bin/time -f "%e %U %S" -o "$dir/time" "$bin" prove octal "$code" --quiet --out "$dir/proof" >"$dir/out"
  read -r secs user sys <"$dir/time"
  printf "prove octal %-5s %.2f s wall, %.2f s CPU: %s\n" "$code" "$secs" "$(echo "$user + $sys" | bc)" "$(head -1 "$dir/out")"
done
