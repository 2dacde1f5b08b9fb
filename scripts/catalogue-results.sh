#!/usr/bin/env bash
# Regenerates results/<game>/ for the Sprague–Grundy catalogue (issue 7). Takes ~15 s on 2 cores.
# `verify cross` (published claim) exits 1 by design: the claim fails at N = 2.
set -uo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q
B=target/release/sprague
run() { local dir=$1; shift; "$B" verify "$@" --out "results/$dir" -q; echo "$dir: exit $?"; }
run nim nim --piles 5 --max 10
run nim-count nim-count --piles 5 --max 10
run misere-nim misere-nim --piles 5 --max 10
run odd-even-nim odd-even-nim --piles 5 --max 10 --heaps 400
run pimber pimber --piles 5 --max 10 --heaps 1200
run polygon polygon --max 14
run cross cross --max 20
run cross-solver cross --claim solver --max 20
run divisor divisor --max 1000000
