#!/usr/bin/env bash
# Times the octal engine (prints figures; no timed tests): `table octal 0.6` (Officers, the
# sparse-space method) to each N given on 1 and 2 threads, Grundy's game and 0.007 for
# BUDGET seconds each, and `prove octal` of Kayles (0.77) and 0.177. Every figure comes with the
# load average, since the machine may be shared. Runs longer than BUDGET seconds stop there
# (`--budget`) and report the rate reached; the hour and 2^30 figures are extrapolations. On a
# loaded machine compare the per-CPU-second rates (docs/octal.md).
# Usage: scripts/bench-octal.sh [N...]   (default 1000000 10000000; BUDGET=120; needs GNU time)
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("$@")
[[ ${#sizes[@]} -gt 0 ]] || sizes=(1000000 10000000)
budget=${BUDGET:-120}
cargo build --release --quiet
bin=target/release/sprague
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
load() { cut -d' ' -f1 /proc/loadavg; }

# run CODE N THREADS: one timed table run (stopped after $budget s); prints heaps reached and rates.
run() {
  local code=$1 n=$2 threads=$3 before
  rm -f "$dir"/t.csv*
  before=$(load)
  /usr/bin/time -f "%e %U %S %M" -o "$dir/time" "$bin" table octal "$code" --max "$n" --threads "$threads" \
    --budget "$budget" --quiet --out "$dir/t.csv" 2>"$dir/log" || true
  local reached
  reached=$(grep -o 'g(0..=[0-9]*)' "$dir/log" | head -1 | tr -dc '0-9')
  read -r secs user sys kib < <(tail -1 "$dir/time")  # GNU time adds a line on exit 3
  awk -v c="$code" -v n="$n" -v r="$reached" -v t="$threads" -v s="$secs" -v u="$user" -v y="$sys" \
    -v k="$kib" -v l1="$before" -v l2="$(load)" -v note="$(tail -1 "$dir/log")" 'BEGIN {
    printf "%-6s --max %-10s %d thread(s): g(0..=%d) in %7.2f s wall, %7.2f s CPU: %9.0f values/s (wall), %9.0f per CPU-second, peak RSS %5.0f MiB, load %s→%s\n  %s\n",
      c, n, t, r, s, u + y, (r + 1) / (s > 0 ? s : 0.001), (r + 1) / (u + y > 0 ? u + y : 0.001), k / 1024, l1, l2, note
    rate = (r + 1) / (s > 0 ? s : 0.001)
    printf "  extrapolated at this rate: %.3g values in one hour; 2^30 values in %.1f h\n", rate * 3600, 2^30 / rate / 3600 }'
}

for n in "${sizes[@]}"; do
  for threads in 1 2; do run 0.6 "$n" "$threads"; done
done
for code in grundy 0.007; do run "$code" 1073741823 2; done
for code in 0.77 0.177; do
  /usr/bin/time -f "%e %U %S" -o "$dir/time" "$bin" prove octal "$code" --quiet --out "$dir/proof" >"$dir/out"
  read -r secs user sys <"$dir/time"
  printf "prove octal %-5s %.2f s wall, %.2f s CPU: %s\n" "$code" "$secs" "$(echo "$user + $sys" | bc)" "$(head -1 "$dir/out")"
done
cargo build --release --quiet --example octal_marks
echo "load $(load): $(target/release/examples/octal_marks 0.6 1000000 1300000 | tail -2 | tr '\n' ' ')"
