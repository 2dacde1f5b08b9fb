#!/usr/bin/env bash
# Regenerates results/{footholds,cards,kings}/ for issue 9 (about 1 minute on 2 cores).
# Exits non-zero if any claim fails.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q
B=target/release/sprague
run() { local dir=$1; shift; echo "== $dir"; "$B" verify "$@" --out "results/$dir" -q; }
run footholds footholds --max 16
run footholds/random footholds --random 20000 --seed 1
run cards cards --max 10x4
run cards/random cards --random 20000 --seed 1 --max 16x10000
run kings kings --max 4x9
