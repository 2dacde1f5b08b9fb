#!/usr/bin/env bash
# Times `sprague solve dagame` on full-limit inputs (N = 500, M = 100,000, K = 2N = 1000) and
# prints wall time and peak memory per input. Usage: scripts/bench_dagame.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
cargo build --release --quiet
bin=target/release/sprague
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# Densest DAG: the first 100,000 forward pairs (p, q), p < q; colour c has tokens at c and
# (7c - 6) mod 500 + 1, so node 1 reaches nearly every one of the 124,750 pairs.
awk 'BEGIN {
  print 500, 100000; m = 0
  for (p = 1; p <= 500 && m < 100000; p++) for (q = p + 1; q <= 500 && m < 100000; q++) { print p, q; m++ }
  print 1000
  for (c = 1; c <= 500; c++) { print c, c; print ((7 * c - 6) % 500) + 1, c }
}' > "$dir/dense.txt"

# Chain 1 → … → 500, edges repeated up to M = 100,000; pairs at both ends of the chain.
awk 'BEGIN {
  print 500, 100000
  for (i = 0; i < 100000; i++) print (i % 499) + 1, (i % 499) + 2
  print 1000
  for (c = 1; c <= 500; c++) { print int((c - 1) / 2) + 1, c; print 500 - int((c - 1) / 2), c }
}' > "$dir/chain.txt"

for input in dense chain; do
  best=""
  for _ in $(seq "$runs"); do
    /usr/bin/time -f "%e %M" -o "$dir/time" "$bin" solve dagame "$dir/$input.txt" > "$dir/answer"
    read -r secs kb < "$dir/time"
    if [[ -z "$best" ]] || awk -v a="$secs" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$secs; mem=$kb; fi
  done
  printf '%-6s N=500 M=100000 K=1000  answer %-6s best of %d: %s s, peak RSS %s KiB\n' \
    "$input" "$(cat "$dir/answer")" "$runs" "$best" "$mem"
done
