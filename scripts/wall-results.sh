#!/usr/bin/env bash
# Regenerates results/wall/ (issues 4, 5, 6):
#   standard/  every X-pattern of every size up to 6x6, rectangle DP vs naive whole-board search
#              (20 min and 6.5 GiB on 2 idle cores, docs/performance.md), plus the empty-board table empty.csv (1..20 x 1..20);
#   census/    the DP-side census of all 2^36 6x6 boards (seconds, 40 MiB: docs/performance.md);
#   x-blocks/, misere/, t-split/  the rule variants up to 4x4 with --shrink (seconds; the two
#              false claims exit 1, which is expected here).
# Pass --quick to regenerate standard/ up to 5x6 only (~40 s), e.g. to try the script.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q
B=target/release/sprague
MAX=6x6
[[ "${1:-}" == "--quick" ]] && MAX=5x6
"$B" verify wall --max "$MAX" --out results/wall/standard -q
"$B" table wall-empty --max 20x20 --out results/wall/standard/empty.csv
"$B" census wall --size 6x6 --out results/wall/census -q
for rule in x-blocks misere t-split; do
  status=0
  "$B" verify wall --max 4x4 --rules "$rule" --shrink --out "results/wall/$rule" -q || status=$?
  if [[ "$rule" == t-split && $status -ne 0 ]] || [[ "$rule" != t-split && $status -ne 1 ]]; then
    echo "unexpected exit $status for --rules $rule" >&2
    exit 1
  fi
done
