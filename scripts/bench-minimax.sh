#!/usr/bin/env bash
# Times `sprague solve footholds|cards|kings` on full-limit inputs and prints wall time and peak
# memory (best of RUNS). Usage: scripts/bench-minimax.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
cargo build --release --quiet
bin=target/release/sprague
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# footholds: 5×5 all footholds, pieces in opposite corners, side by side in the centre, stacked.
for p in "0 0 4 4" "2 2 2 3" "1 1 3 3"; do
  { echo 5 5; for _ in 1 2 3 4 5; do echo 1 1 1 1 1; done; echo "$p"; } > "$dir/footholds-${p// /}.txt"
done
# footholds: a 5×5 board with a hole pattern.
printf '5 5\n1 1 0 1 1\n1 1 1 1 1\n0 1 1 1 0\n1 1 1 1 1\n1 1 0 1 1\n0 0 4 4\n' > "$dir/footholds-holes.txt"
# cards: T = 10 and T = 100 cases of N = 1000 pseudo-random values in 1..10000.
for t in 10 100; do
  awk -v t="$t" 'BEGIN { srand(7); print t; for (c = 0; c < t; c++) { print 1000; s = ""; for (i = 0; i < 1000; i++) s = s int(1 + rand() * 10000) " "; print s } }' > "$dir/cards-T$t.txt"
done
# kings: N = 100 bridges of lengths near 10^9.
awk 'BEGIN { srand(9); print 100; s = ""; for (i = 0; i < 100; i++) s = s int(1e9 - rand() * 1e6) " "; print s; print "Blackking" }' > "$dir/kings-N100.txt"

# Each input with the claimed engine; footholds also with the plain DFS (--engine naive).
jobs=("$dir"/*.txt)
for f in "$dir"/footholds-*.txt; do jobs+=("$f:brute"); done
for job in "${jobs[@]}"; do
  input=${job%:brute}; engine=(); label=$(basename "$input" .txt)
  if [[ $job == *:brute ]]; then engine=(--engine naive); label="$label (dfs)"; fi
  game=$(basename "$input" .txt); game=${game%%-*}
  best=""
  for _ in $(seq "$runs"); do
    /usr/bin/time -f "%e %M" -o "$dir/time" "$bin" solve "$game" "${engine[@]}" "$input" > "$dir/answer"
    read -r secs kb < "$dir/time"
    if [[ -z "$best" ]] || awk -v a="$secs" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$secs; mem=$kb; fi
  done
  printf '%-24s answer %-12s best of %d: %s s, peak RSS %s KiB\n' \
    "$label" "$(head -c 12 "$dir/answer" | head -1)" "$runs" "$best" "$mem"
done
