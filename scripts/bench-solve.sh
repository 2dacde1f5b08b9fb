#!/usr/bin/env bash
# `sprague solve wall` as a whole process against the seed's C++ DP (scripts/seed/wall_seed.cpp,
# g++ -O2), on the same random 20x20 boards, in one run. Runs alternate between the two
# programs so machine load hits both alike; each figure is the median wall time of one
# process (spawn to exit). Usage: scripts/bench-solve.sh [RUNS_PER_BOARD] [BOARDS_PER_DENSITY]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-20}
boards=${2:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cargo build --release --quiet --bin sprague
g++ -O2 -o "$work/wall_seed" scripts/seed/wall_seed.cpp
ours=target/release/sprague

# Board k of density d: each cell X with probability d/100 (awk's generator, seeded by d and k).
for d in 0 30 60; do
  for k in $(seq "$boards"); do
    awk -v d="$d" -v seed="$((d * 1000 + k))" 'BEGIN { srand(seed); print "20 20";
      for (r = 0; r < 20; r++) { row = ""; for (c = 0; c < 20; c++) row = row ((rand() * 100 < d) ? "X" : "."); print row } }' \
      > "$work/d$d-$k.in"
    a=$("$work/wall_seed" < "$work/d$d-$k.in"); b=$("$ours" solve wall "$work/d$d-$k.in")
    [ "$a" = "$b" ] || { echo "disagree on d$d-$k: seed $a, sprague $b" >&2; exit 1; }
  done
done

# One line per process run: density, program, start and end (seconds).
for d in 0 30 60; do
  for k in $(seq "$boards"); do
    f="$work/d$d-$k.in"
    for _ in $(seq "$runs"); do
      t0=$EPOCHREALTIME; "$work/wall_seed" < "$f" > /dev/null; t1=$EPOCHREALTIME
      "$ours" solve wall "$f" > /dev/null; t2=$EPOCHREALTIME
      echo "$d seed $t0 $t1"
      echo "$d sprague $t1 $t2"
    done
  done
done > "$work/times"

echo "whole-process time of one 20x20 board ($boards boards x $runs runs per density, medians)"
printf '%-8s %12s %12s %8s\n' "X cells" "seed C++" "sprague" "ratio"
for d in 0 30 60; do
  med() { awk -v d="$d" -v p="$1" '$1 == d && $2 == p { print $4 - $3 }' "$work/times" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
  s=$(med seed); o=$(med sprague)
  awk -v d="$d" -v s="$s" -v o="$o" 'BEGIN { printf "%-8s %9.2f ms %9.2f ms %7.1fx\n", d "%", s * 1000, o * 1000, s / o }'
done
