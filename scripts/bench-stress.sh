#!/usr/bin/env bash
# Program runs per second of `sprague stress` through the real command line: the right wall
# program (examples/wall_right, a small Rust binary) on every X-pattern up to 6x6, smallest
# first, for a fixed budget on every core; then the same with a small C program when cc is
# there. Prints runs/s as the summary line reports it. Usage: scripts/bench-stress.sh [SECONDS]
#
# scripts/bench-stress.sh SECONDS BIN...: the same wall_right run with each sprague binary BIN
# (say one built from an older commit) in turn, three rounds, so that they meet the same load;
# a line a run, with the load average before it.
set -euo pipefail
cd "$(dirname "$0")/.."
budget=${1:-10}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cargo build --release --quiet --bin sprague --example wall_right
bin=target/release/sprague
run() {
  local label=$1
  shift
  "$bin" stress wall --cmd "$1" --generator exhaustive --max 6x6 --budget "$budget" --quiet --out "$work/out" > "$work/summary"
  local line
  line=$(head -n 1 "$work/summary")
  grep -q '^no failure' "$work/summary" || { cat "$work/summary" >&2; exit 1; }
  printf '%-28s %s\n' "$label" "$(sed -E 's/.*\(([0-9]+) runs\/s.*/\1 runs\/s/' <<< "$line")   [$line]"
}

echo "sprague stress wall --generator exhaustive --max 6x6 --budget $budget ($(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg))"
if (( $# > 1 )); then
  shift
  for bin in "$@"; do
    [[ -x $bin ]] || { echo "error: $bin is not an executable sprague binary" >&2; exit 2; }
  done
  for round in 1 2 3; do
    for bin in "$@"; do
      run "round $round, load $(cut -d' ' -f1 /proc/loadavg), $bin" target/release/examples/wall_right
    done
  done
  exit 0
fi
run "wall_right (Rust)" target/release/examples/wall_right
# A C program that reads the board and answers by the same rectangle recursion.
if command -v cc > /dev/null; then
  cat > "$work/wall.c" <<'C'
#include <stdio.h>
#include <string.h>
static unsigned char g[21][21][21][21]; static char b[20][21]; static int h, w;
int main(void) {
  if (scanf("%d %d", &h, &w) != 2) return 1;
  for (int i = 0; i < h; i++) scanf("%20s", b[i]);
  for (int rh = 1; rh <= h; rh++) for (int rw = 1; rw <= w; rw++)
  for (int r0 = 0; r0 + rh <= h; r0++) for (int c0 = 0; c0 + rw <= w; c0++) {
    int r1 = r0 + rh, c1 = c0 + rw; unsigned char seen[256]; memset(seen, 0, sizeof seen);
    for (int i = r0; i < r1; i++) for (int j = c0; j < c1; j++) if (b[i][j] == '.')
      seen[g[r0][i][c0][j] ^ g[r0][i][j + 1][c1] ^ g[i + 1][r1][c0][j] ^ g[i + 1][r1][j + 1][c1]] = 1;
    int m = 0; while (seen[m]) m++; g[r0][r1][c0][c1] = m;
  }
  puts(g[0][h][0][w] ? "First" : "Second");
  return 0;
}
C
  cc -O2 -o "$work/wall_c" "$work/wall.c"
  run "small C program (cc -O2)" "$work/wall_c"
fi
