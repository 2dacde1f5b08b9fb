#!/usr/bin/env bash
# Times `solve` of every catalogue game on inputs at the full limits (target: < 1 s each).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q
B=target/release/sprague
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
python3 - "$tmp" <<'PY'
import random, sys
d = sys.argv[1]; random.seed(7)
def w(name, text): open(f"{d}/{name}", "w").write(text)
piles = " ".join(str(random.randint(1, 10**9)) for _ in range(100))
for g in ["nim", "nim-count", "misere-nim", "odd-even-nim"]: w(g, f"100\n{piles}\n")
w("pimber", "100000\n" + " ".join(str(random.randint(1, 3 * 10**6)) for _ in range(99999)) + " 3000000\n")
# One 20 MB line of padding before the pile: reading stays linear in the line's length.
w("pimber-padded", "1\n" + " " * 20_000_000 + "3000000\n")
w("polygon", "1000\n" + "".join(f"{i} {i*i}\n" for i in range(1000)))
w("cross", "2000\n")
# Product of two primes near 10^9: the hardest case for factorisation.
w("divisor", "999999999999999989\n"); w("divisor2", f"{1000000007 * 998244353}\n")
PY
for f in nim nim-count misere-nim odd-even-nim pimber pimber-padded polygon cross divisor divisor2; do
  game=${f%2}; game=${game%-padded}
  start=$(date +%s.%N); answer=$("$B" solve "$game" "$tmp/$f"); end=$(date +%s.%N)
  printf '%-14s %-10s %6.3f s\n' "$f" "$answer" "$(echo "$end - $start" | bc)"
done
