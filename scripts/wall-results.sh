#!/usr/bin/env bash
# Regenerates results/wall/standard/ (issue 4): every X-pattern of every size up to 5x6,
# rectangle DP vs naive whole-board search (~40 s on 2 idle cores, ~110 s on a busy machine),
# then the empty-board table empty.csv (1..20 x 1..20, well under a second).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q
B=target/release/sprague
"$B" verify wall --max 5x6 --out results/wall/standard -q
"$B" table wall-empty --max 20x20 --out results/wall/standard/empty.csv
