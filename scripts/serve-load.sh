#!/usr/bin/env bash
# A load test of `sprague serve` on loopback: starts the server on a free port, sends REQUESTS
# requests from CONCURRENCY connections at once (examples/serve_load.rs: valid 6×7, 12×12 and
# 20×20 boards and bad requests, each checked for the status expected), bounded by SECONDS,
# prints p50/p99 latency and requests/s, stops the server. Exit 1 when any answer was wrong.
# Usage: scripts/serve-load.sh [REQUESTS] [CONCURRENCY] [SECONDS]   (default 5000 1000 120)
set -euo pipefail
cd "$(dirname "$0")/.."
ulimit -n 8192 2>/dev/null || true
requests=${1:-5000} concurrency=${2:-1000} seconds=${3:-120}
cargo build --release --quiet --bin sprague --example serve_load
log=$(mktemp)
target/release/sprague serve --port 0 2>"$log" &
server=$!
trap 'kill $server 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 100); do grep -q http:// "$log" && break; sleep 0.1; done
url=$(grep -o 'http://[^ ]*' "$log" | head -1)
url=${url%/}
echo "serve-load: $requests requests, $concurrency at once, at most $seconds s, against $url"
target/release/examples/serve_load "$url" "$requests" "$concurrency" "$seconds"
curl -s -o /dev/null -w 'after the load: GET /api/games %{http_code}\n' "$url/api/games"
