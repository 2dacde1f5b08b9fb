#!/usr/bin/env bash
# How `verify custom` scales with the number of positions a game program lists: a program whose
# one `positions 0` answer is K tokens (p0 … p{K-1}), each a position with no move, run for
# K = 400,000, 800,000 and 1,600,000 (or the K given) through the real command line. Prints
# wall seconds, peak memory, bytes and microseconds a position, and the time ratio to the
# previous K (2.0 for a doubling is linear; a run used to take 3.5x, quadratic in K).
# Usage: scripts/bench-custom-wide.sh [K...]
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cargo build --release --quiet --bin sprague
bin=$PWD/target/release/sprague
cat > "$work/wide.py" <<'PY'
import sys
count = int(sys.argv[1])
for line in sys.stdin:
    verb, _, arg = line.strip().partition(" ")
    if verb == "sprague":
        print("positions moves")
    elif verb == "positions":
        print(" ".join("p%d" % i for i in range(count)))
    elif verb == "moves":
        print("")
    elif verb == "flush":
        sys.stdout.flush()
PY
(( $# > 0 )) || set -- 400000 800000 1600000
echo "sprague verify custom, one size of K positions without moves ($(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg))"
printf '%10s %9s %10s %12s %12s %8s\n' K wall_s peak_MiB bytes/pos us/pos ratio
previous=""
for k in "$@"; do
  /usr/bin/time -f '%e %M' -o "$work/time" "$bin" verify custom --game-cmd "python3 $work/wide.py $k" --max 0 --quiet --out "$work/out-$k" 2> "$work/err" || { cat "$work/err" >&2; exit 1; }
  read -r wall kib < "$work/time"
  ratio=$([[ -n $previous ]] && awk -v a="$wall" -v b="$previous" 'BEGIN { printf "%.2f", a / b }' || echo -)
  awk -v k="$k" -v w="$wall" -v m="$kib" -v r="$ratio" 'BEGIN { printf "%10d %9.2f %10.1f %12.0f %12.2f %8s\n", k, w, m / 1024, m * 1024 / k, w * 1e6 / k, r }'
  previous=$wall
  rm -rf "$work/out-$k"
done
